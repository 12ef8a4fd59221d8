"""GET /v1/hostos: this API's own version (it takes no Ironic
microversion) and the resources under it."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.hostos import agents
from ironic_like.api.controllers.v1.hostos import common
from ironic_like.api.controllers.v1.hostos import configurations
from ironic_like.api.controllers.v1.hostos import modules
from ironic_like.api.controllers.v1 import utils

API_ID = 'v1'
VERSION = '1.0'
RESOURCES = ('modules', 'configurations')


def version_document():
    links = [{'href': common.hostos_url(), 'rel': 'self'}]
    links += [{'href': common.hostos_url(name), 'rel': name}
              for name in RESOURCES]
    return {'id': API_ID, 'version': VERSION, 'links': links}


class HostOSController(rest.RestController):
    """/v1/hostos."""

    modules = modules.ModulesController()
    configurations = configurations.ConfigurationsController()
    agents = agents.AgentsController()

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.authorize_read()
        return version_document()
