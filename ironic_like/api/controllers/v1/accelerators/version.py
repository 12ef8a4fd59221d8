"""GET /v1/accelerators: this API's own version (it takes no Ironic
microversion) and the resources under it."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.accelerators import common
from ironic_like.api.controllers.v1.accelerators import resources
from ironic_like.api.controllers.v1 import utils

API_ID = 'v1'
MIN_VERSION = '1.0'
VERSION = '1.0'
RESOURCES = ('devices', 'deployables', 'attach_handles')


def version_document():
    links = [{'href': common.accelerators_url(), 'rel': 'self'}]
    links += [{'href': common.accelerators_url(name), 'rel': name}
              for name in RESOURCES]
    return {'id': API_ID, 'status': 'CURRENT', 'min_version': MIN_VERSION,
            'version': VERSION, 'links': links}


class AcceleratorsController(rest.RestController):
    """/v1/accelerators."""

    devices = resources.DevicesController()
    deployables = resources.DeployablesController()
    attach_handles = resources.AttachHandlesController()

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.list_scope()
        return version_document()
