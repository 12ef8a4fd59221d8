"""The root document: version discovery for keystoneauth/openstacksdk."""

import pecan

from ironic_like.api.controllers import v1
from ironic_like.api import openapi

NAME = 'OpenStack Ironic API'
DESCRIPTION = ('ironic_like: bare-metal provisioning with an '
               'Ironic-compatible API.')


class RootController(object):

    v1 = v1.Controller()

    @pecan.expose('json')
    def index(self):
        version = v1.version_document(pecan.request.public_url)
        return {
            'name': NAME,
            'description': DESCRIPTION,
            'default_version': version,
            'versions': [version],
        }


class OpenAPIController(object):
    """GET /openapi.json: the API's OpenAPI description (public, like
    version discovery)."""

    @pecan.expose('json')
    def index(self):
        return openapi.build(pecan.request.public_url)


# A dot is not a Python name: routed explicitly.
pecan.route(RootController, 'openapi.json', OpenAPIController())
