"""OpenStackClient plugin of the baremetal commands.

OpenStackClient finds this module through the ``openstack.cli.extension``
entry point ``baremetal``, adds ``--os-baremetal-api-version`` to its
parser with build_option_parser() and calls make_client() the first time a
command uses ``client_manager.baremetal``. The commands themselves are the
``openstack.baremetal.v1`` entry points.

The version option (also ``OS_BAREMETAL_API_VERSION`` or
``baremetal_api_version`` in clouds.yaml) takes ``1.N`` to send exactly
that microversion, or ``1`` / ``latest`` (the default) to send the highest
version both the server and this plugin support.
"""

import argparse
import logging
import os

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http

LOG = logging.getLogger(__name__)

API_NAME = 'baremetal'
API_VERSION_OPTION = 'os_baremetal_api_version'
# "1": negotiate the version (the command group is openstack.baremetal.v1).
DEFAULT_API_VERSION = '1'
NEGOTIATE = ('1', 'latest')
LAST_KNOWN_API_VERSION = http.LAST_KNOWN_VERSION[1]
API_VERSIONS = {'1': 'ironic_like.osc.client.Client'}
API_VERSIONS.update(('1.%d' % minor, 'ironic_like.osc.client.Client')
                    for minor in range(1, LAST_KNOWN_API_VERSION + 1))


def _version_arg(value):
    """argparse type of --os-baremetal-api-version: '1' (negotiate) or
    '1.N'."""
    value = str(value).strip()
    if value in NEGOTIATE:
        return DEFAULT_API_VERSION
    try:
        major, _minor = http.parse_version(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))
    if major != 1:
        raise argparse.ArgumentTypeError(
            'Invalid API version "%s": only major version 1 exists.'
            % value)
    return value


def check_api_version(check_version):
    """Accept any 1.N (the server refuses what it does not speak) so that
    OpenStackClient does not warn about versions newer than this plugin."""
    return True


def requested_version(text):
    """(major, minor) the user asked for, or None to negotiate."""
    if text is None or str(text).strip() in NEGOTIATE:
        return None
    try:
        return http.parse_version(str(text))
    except ValueError as e:
        raise osc_exc.CommandError(str(e))


def make_client(instance):
    """The baremetal client of an OpenStackClient ClientManager."""
    version = requested_version(instance._api_version.get(API_NAME))
    endpoint = instance.get_endpoint_for_service_type(
        API_NAME, region_name=instance.region_name,
        interface=instance.interface or 'public')
    if not endpoint:
        raise osc_exc.CommandError(
            'No endpoint of service type "baremetal" was found: give one '
            'with --os-endpoint (with --os-auth-type none) or register the '
            'service in the catalog.')
    LOG.debug('baremetal endpoint %s, API version %s', endpoint,
              http.version_string(version) if version else 'negotiated')
    return http.Client(instance.session, endpoint, version)


def build_option_parser(parser):
    """Add --os-baremetal-api-version to OpenStackClient's parser."""
    parser.add_argument(
        '--os-baremetal-api-version',
        metavar='<baremetal-api-version>',
        # None lets clouds.yaml (baremetal_api_version) decide; without
        # either, OpenStackClient uses DEFAULT_API_VERSION.
        default=os.environ.get('OS_BAREMETAL_API_VERSION'),
        type=_version_arg,
        help='Baremetal API microversion, e.g. 1.52; "latest" or "1" '
             '(the default) sends the highest version both the server '
             'and this client support (env: OS_BAREMETAL_API_VERSION).')
    return parser
