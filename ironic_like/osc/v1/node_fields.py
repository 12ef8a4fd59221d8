"""Node options of newer API fields and list filters, wired into the
commands of osc/v1/node.py (a line each there):

- ``--instance-name`` (API 1.104): the name of the instance deployed on
  the node, on create, set and unset, and a filter of the list;
- the list filters ``--conductor`` (the conductor the node is mapped to,
  API 1.49) and ``--description-contains`` (a substring of the
  description; no version of its own, as in Ironic).

The option names are python-ironicclient's.
"""

from ironic_like.osc import client as http
from ironic_like.osc import common

# Query parameters of the node list these options give (ListNode.FILTERS:
# sent under the option's dest when given).
LIST_FILTERS = ('conductor', 'description_contains', 'instance_name')

# (option dest, API feature, option) of create, set, unset and list.
_VERSIONED = (
    ('instance_name', http.INSTANCE_NAME, '--instance-name'),
    ('conductor', http.CONDUCTORS, '--conductor'),
)


def add_instance_name(parser, verb):
    """--instance-name of create (``verb`` "The") and set ("Set the")."""
    parser.add_argument('--instance-name', metavar='<instance_name>',
                        help='%s name of the instance deployed on the '
                             'node (1 to 255 characters; API 1.104).'
                             % verb)


def add_list_filters(parser):
    """The node list's --conductor, --description-contains and
    --instance-name."""
    parser.add_argument('--conductor', metavar='<conductor>',
                        help='Only nodes mapped to this conductor (its '
                             'host name; API 1.49).')
    parser.add_argument('--description-contains',
                        metavar='<description_contains>',
                        help='Only nodes whose description contains this '
                             'text.')
    parser.add_argument('--instance-name', metavar='<instance_name>',
                        help='Only nodes whose instance has this name (API '
                             '1.104).')


def require(client, parsed_args, remove=False):
    """Fail with the version needed unless the request version has the
    options of this module the command line gives (with ``remove``: the
    unset flags given)."""
    common.require_options(client, parsed_args, _VERSIONED, remove)
