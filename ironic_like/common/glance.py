"""Images in Glance (an ``instance_info.image_source``, a
``driver_info.deploy_kernel`` or ``deploy_ramdisk`` that is a Glance
image ID), read through keystoneauth with the [glance] options
(conf/glance.py, Ironic's): the image's record (status, checksum, disk
format, size) and its data.

Errors: ImageNotFound (404, not ``active``, or refused to this service
with a 403 or 400: the deploy is refused naming
``instance_info/image_source``), ImageServiceUnavailable (503: Glance
cannot be reached, refuses the credentials, or answers nonsense)."""

import threading
import uuid as uuidlib

from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import loading as ks_loading
from oslo_log import log
from oslo_utils import uuidutils
import requests

from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.common import published_files
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

GROUP = 'glance'
SERVICE = 'Glance'
# Ironic's defaults of [glance]service_type and valid_interfaces.
SERVICE_TYPE = 'image'
INTERFACES = ('internal', 'public')
_CHUNK = 1024 * 1024
# (connect, read) seconds of one request; a download's whole bound is the
# caller's.
TIMEOUT = (10, 60)

_lock = threading.Lock()
_adapter = None

# An image reference may name a Glance image as glance://<ID>.
_PREFIX = 'glance://'
# The hash algorithms an image's checksum may use (Glance's and the
# agent's; not the shake family, whose digests need a length).
HASH_ALGOS = frozenset(['md5', 'sha1', 'sha224', 'sha256', 'sha384',
                        'sha512', 'sha3_256', 'sha3_384', 'sha3_512'])


def image_ref(text):
    """The Glance image ID ``text`` names (an ID, or glance://<ID>), in
    the canonical form Glance answers with (lower case, dashes); None
    when it names no Glance image (a URL, a path)."""
    text = str(text or '')
    ref = text[len(_PREFIX):] if text.startswith(_PREFIX) else text
    if uuidutils.is_uuid_like(ref):
        return str(uuidlib.UUID(ref))
    return None


def checksum(image):
    """(algorithm, hex digest) to check the data of ``image`` (its
    record) with: os_hash_algo and os_hash_value, else the md5 checksum
    of older images; (None, None) when Glance gives none."""
    algo, value = image.get('os_hash_algo'), image.get('os_hash_value')
    if not (algo and value):
        algo, value = 'md5', image.get('checksum')
    return (algo, value) if value else (None, None)


def _unavailable(reason):
    return exception.ImageServiceUnavailable(
        service=SERVICE, reason=masking.mask_text(str(reason)))


def adapter():
    """A keystoneauth Adapter for the image service (made once: its
    session keeps its connections and token)."""
    global _adapter
    with _lock:
        if _adapter is None:
            try:
                auth = ks_loading.load_auth_from_conf_options(CONF, GROUP)
                session = ks_loading.load_session_from_conf_options(
                    CONF, GROUP, auth=auth)
                options = CONF[GROUP]
                _adapter = ks_loading.load_adapter_from_conf_options(
                    CONF, GROUP, session=session, auth=auth,
                    service_type=options.service_type or SERVICE_TYPE,
                    interface=(options.valid_interfaces
                               or list(INTERFACES)))
            except (ks_exceptions.ClientException, TypeError) as e:
                # TypeError: keystoneauth's word for contradictory adapter
                # options (interface and valid_interfaces).
                raise _unavailable('[glance] options: %s' % e)
        return _adapter


def reset():
    """Forget the adapter (tests; a configuration reloaded)."""
    global _adapter
    with _lock:
        _adapter = None


def _request(path, **kwargs):
    try:
        return adapter().get(path, timeout=TIMEOUT, **kwargs)
    except (ks_exceptions.NotFound, ks_exceptions.Forbidden,
            ks_exceptions.BadRequest):
        raise
    except ks_exceptions.EndpointNotFound as e:
        raise _unavailable('no image endpoint (set [glance]'
                           'endpoint_override or its auth options): %s'
                           % e)
    except ks_exceptions.ClientException as e:
        raise _unavailable(e)


def get_image(image_id):
    """Glance's record of ``image_id`` (a dict: id, name, status,
    checksum, os_hash_algo, os_hash_value, disk_format, size), which must
    be active."""
    try:
        resp = _request('/v2/images/%s' % image_id)
        image = resp.json()
    except ks_exceptions.NotFound:
        raise exception.ImageNotFound(image=image_id)
    except ks_exceptions.Forbidden:
        raise exception.ImageNotFound(
            image=image_id, detail=' (Glance refuses this service access '
            'to it)')
    except ks_exceptions.BadRequest as e:
        raise exception.ImageNotFound(
            image=image_id, detail=' (Glance refuses the ID: %s)' % e)
    except ValueError as e:
        raise _unavailable('its answer for image %s is no JSON: %s'
                           % (image_id, e))
    if not isinstance(image, dict) or image.get('id') != image_id:
        raise _unavailable('its answer for image %s is not that image'
                           % image_id)
    if image.get('status') != 'active':
        raise exception.ImageNotFound(
            image=image_id, detail=' (its status is %s, not active)'
            % image.get('status'))
    return image


def download(image_id, fileobj, deadline):
    """Write the data of ``image_id`` to ``fileobj``, by ``deadline``
    (time.monotonic()); its size in bytes. A failure to write
    ``fileobj`` (OSError: the disk is full) is raised as it is."""
    try:
        resp = _request('/v2/images/%s/file' % image_id, stream=True)
    except ks_exceptions.NotFound:
        raise exception.ImageNotFound(image=image_id)
    except (ks_exceptions.Forbidden, ks_exceptions.BadRequest) as e:
        raise _unavailable('the data of image %s is refused: %s'
                           % (image_id, e))
    try:
        return published_files.write_chunks(
            resp.iter_content(_CHUNK), fileobj, deadline,
            lambda size: _unavailable('the download of image %s was not '
                                      'done in time (%d bytes read)'
                                      % (image_id, size)))
    except requests.RequestException as e:
        raise _unavailable('the download of image %s failed: %s'
                           % (image_id, e))
    finally:
        resp.close()


def _conductor_project():
    """The project this service's [glance] credentials are scoped to;
    None without authentication (a standalone Glance) or when it cannot
    be told."""
    try:
        return adapter().get_project_id()
    except Exception as e:
        LOG.debug('The [glance] project could not be told: %s', e)
        return None


def _members(image_id):
    try:
        body = _request('/v2/images/%s/members' % image_id).json()
        return {m.get('member_id') for m in body.get('members') or []}
    except Exception as e:
        LOG.info('The members of Glance image %s could not be read: %s',
                 image_id, e)
        return set()


def is_available(image, context):
    """Whether the requester (``context``) may deploy ``image``
    (get_image()'s record), as Ironic decides (its
    service_utils.is_image_available): a public or community image; any
    image for an admin with [DEFAULT]ignore_project_check_for_admin_tasks;
    a private image owned by this service's [glance] project, or a shared
    one whose members include that project. Not the requester's own
    project: what a node's owner or lessee says of itself is not to be
    trusted (Ironic's reasoning)."""
    visibility = image.get('visibility')
    if visibility in ('public', 'community'):
        return True
    roles = set(getattr(context, 'roles', None) or [])
    if (('admin' in roles or getattr(context, 'is_admin', False))
            and CONF.ignore_project_check_for_admin_tasks):
        return True
    project = _conductor_project()
    if project is None:
        LOG.info('Access to Glance image %s (%s, owned by %s) denied to '
                 'project %s', image.get('id'), visibility,
                 image.get('owner'), getattr(context, 'project_id', None))
        return False
    if visibility == 'private' and image.get('owner') == project:
        return True
    if visibility == 'shared' and project in _members(image.get('id')):
        return True
    LOG.info('Access to Glance image %s (%s, owned by %s) denied to '
             'project %s', image.get('id'), visibility, image.get('owner'),
             getattr(context, 'project_id', None))
    return False
