"""/v1/nodes/{id}/firmware (1.86): the node's firmware components as its
firmware interface last read them (on manage/verify and inspection):
``{"firmware": [{component, initial_version, current_version,
last_version_flashed, created_at, updated_at}]}``, as Ironic answers;
an empty list for no-firmware. ``?fields=`` picks among the four
version fields."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import versions
from ironic_like.api.views import base as view_base
from ironic_like.common import exception

RULE = 'baremetal:node:firmware:get'
FIELDS = ('component', 'initial_version', 'current_version',
          'last_version_flashed')
# API 1.114: the hardware the firmware runs on.
HARDWARE_FIELDS = ('vendor', 'model', 'serial_number')


def _known_fields():
    if utils.allowed(versions.FIRMWARE_HARDWARE):
        return FIELDS + HARDWARE_FIELDS
    return FIELDS


def _fields(params):
    known = _known_fields()
    names = view_base.parse_fields(params.get('fields'))
    if names is None:
        return known
    unknown = sorted(set(names) - set(known))
    if unknown:
        raise exception.InvalidParameterValue(
            err='Unknown firmware fields: %s; choose among %s.'
                % (', '.join(unknown), ', '.join(known)), field='fields')
    return [name for name in known if name in names]


def _render(component, fields):
    doc = {name: getattr(component, name) for name in fields}
    doc['created_at'] = view_base.format_datetime(component.created_at)
    doc['updated_at'] = view_base.format_datetime(component.updated_at)
    return doc


class NodeFirmwareController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(['fields'])
        fields = _fields(params)
        node = utils.get_authorized_node(self.node_ident, RULE)
        return {'firmware': [
            _render(component, fields) for component in
            utils.dbapi().get_firmware_components(node.id)]}
