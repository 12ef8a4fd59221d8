"""What the /v1/accelerators controllers share: policy and project
scope, URLs, query filters (400 naming the field) and rendering."""

import datetime
import re

from oslo_utils import uuidutils

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api.views import base as view_base
from ironic_like.common.accelerators import inventory as acc_inventory
from ironic_like.common import exception
from ironic_like.common import policy

GET_RULE = 'baremetal:accelerator:get'
DISCOVER_RULE = 'baremetal:accelerator:discover'
# Who may not even see a node gets 404 for it and for its accelerators.
NODE_READ_RULE = 'baremetal:node:get'

DEVICE_STATUSES = ('enabled', 'missing')
MAX_VENDOR_LENGTH = 255
MAX_TYPE_LENGTH = acc_inventory.MAX_TYPE_LENGTH
TYPE_PATTERN = r'[A-Za-z0-9_]{1,%d}' % MAX_TYPE_LENGTH
_TYPE = re.compile(TYPE_PATTERN)
_VENDOR = re.compile(r'[^\x00-\x1f\x7f]{1,%d}' % MAX_VENDOR_LENGTH)


def invalid(field, err):
    raise exception.InvalidParameterValue(err=err, field=field)


def _quoted(value):
    text = '"%s"' % value
    return text if len(text) <= 80 else text[:77] + '..."'


def accelerators_url(*parts):
    """Absolute URL of /v1/accelerators/<parts>."""
    return '/'.join(('%s/v1/accelerators' % utils.public_url(),) + parts)


# -- policy -----------------------------------------------------------------

def list_scope():
    """The project a list is narrowed to: None for those who may read
    every node's accelerators (admins, system readers), else the
    caller's project, when the policy lets a project's readers read its
    nodes' accelerators at all; 403 otherwise."""
    ctx = utils.context()
    if policy.check(GET_RULE, policy.node_target(None), ctx):
        return None
    project = ctx.project_id
    if project and policy.check(
            GET_RULE, {'node.owner': project, 'node.lessee': project}, ctx):
        return project
    raise exception.HTTPForbidden(resource=GET_RULE)


def visible(items, project):
    """``items`` (dicts with node_uuid) narrowed to the nodes the caller
    may read, the rule applied to each node of ``project`` (the database
    returns the nodes it owns or leases; the rule may accept fewer, an
    owner's reader but not a lessee's for instance)."""
    if project is None or not items:
        return items
    ctx = utils.context()
    nodes = utils.dbapi().get_node_list(
        filters={'project': project}, columns=['uuid', 'owner', 'lessee'])
    allowed = {n.uuid for n in nodes
               if policy.check(GET_RULE, policy.node_target(n), ctx)}
    return [item for item in items if item.get('node_uuid') in allowed]


def authorize_item(item, not_found):
    """Apply the read rule to the node of ``item``; ``not_found`` (404)
    for a caller who may not see that node."""
    ctx = utils.context()
    if policy.check(GET_RULE, policy.node_target(None), ctx):
        return
    try:
        node = utils.dbapi().get_node_by_uuid(item['node_uuid'])
    except exception.NodeNotFound:
        raise not_found
    utils.authorize_hiding(GET_RULE, NODE_READ_RULE,
                           policy.node_target(node), not_found)


# -- look-ups ---------------------------------------------------------------

def get_node(ident):
    """A node by UUID or name (no microversion here); 404 if none."""
    try:
        return utils.dbapi().get_node(ident)
    except (exception.NodeNotFound, exception.InvalidUuidOrName,
            exception.InvalidUUID):
        raise exception.NodeNotFound(node=ident[:255])


def get_authorized_node(ident, rule):
    """The node, if ``rule`` allows; 404 for a caller who may not see it,
    403 for one who may see it but not do this."""
    node = get_node(ident)
    utils.authorize_node(rule, node, ident[:255])
    return node


def get_item(kind, getter, uuid):
    """One device, deployable or attach handle the caller may read; 404
    if there is none or the caller may not see its node."""
    not_found = exception.AcceleratorNotFound(kind=kind, uuid=uuid[:80])
    if not uuidutils.is_uuid_like(uuid):
        raise not_found
    item = getter(uuid)
    authorize_item(item, not_found)
    return item


# -- filters ----------------------------------------------------------------

def node_filter(params, filters):
    """?node= (UUID or name): 404 for an unknown node or one the caller
    may not see, as for /v1/nodes/{node}."""
    ident = params.get('node')
    if ident is None:
        return
    if not ident:
        invalid('node', 'give a node UUID or name.')
    node = get_authorized_node(ident, GET_RULE)
    filters['node_id'] = node.id


def device_filter(params, filters):
    value = params.get('device')
    if value is None:
        return
    if not uuidutils.is_uuid_like(value):
        invalid('device', 'Expected a device UUID but received %s.'
                          % _quoted(value))
    filters['device_uuid'] = value


def type_filter(params, filters):
    value = params.get('type')
    if value is None:
        return
    if not _TYPE.fullmatch(value):
        invalid('type', 'Invalid accelerator type %s: 1 to %d letters, '
                        'digits or "_" (FPGA, GPU, ...).'
                % (_quoted(value), MAX_TYPE_LENGTH))
    filters['type'] = value


def vendor_filter(params, filters):
    value = params.get('vendor')
    if value is None:
        return
    if not _VENDOR.fullmatch(value):
        invalid('vendor', 'Invalid vendor %s: a PCI vendor id (8086) or '
                          'a vendor name, 1 to %d characters.'
                % (_quoted(value), MAX_VENDOR_LENGTH))
    filters['vendor'] = value


def in_use_filter(params, filters):
    value = params.get('in_use')
    if value is None:
        return
    if value.lower() not in ('true', 'false'):
        invalid('in_use', 'Invalid value %s for in_use: use true or false.'
                % _quoted(value))
    filters['in_use'] = value.lower() == 'true'


def status_filter(params, filters):
    value = params.get('status')
    if value is None:
        return
    if value not in DEVICE_STATUSES:
        invalid('status', 'Invalid device status %s: use one of %s.'
                % (_quoted(value), ', '.join(DEVICE_STATUSES)))
    filters['status'] = value


FILTERS = {'node': node_filter, 'device': device_filter,
           'type': type_filter, 'vendor': vendor_filter,
           'in_use': in_use_filter, 'status': status_filter}


def filters_of(params, names):
    """The database filters of the query ``params`` (already restricted
    to ``names``), checked in the order of ``names``."""
    filters = {}
    for name in names:
        FILTERS[name](params, filters)
    return filters


# -- rendering --------------------------------------------------------------

def _times(item):
    return {key: (view_base.format_datetime(value)
                  if isinstance(value, datetime.datetime) else value)
            for key, value in item.items()}


def render(item, resource=None):
    """A record as the API shows it: times as Ironic prints them and,
    for a resource of /v1/accelerators, its self and bookmark links."""
    doc = _times(item)
    if resource is not None:
        doc['links'] = links.make_links(
            utils.public_url(), 'accelerators/%s' % resource, item['uuid'])
    return doc


def render_all(items, resource=None):
    return [render(item, resource) for item in items]
