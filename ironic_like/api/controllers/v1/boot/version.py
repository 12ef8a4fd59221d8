"""GET /v1/boot: this API's own version (it takes no Ironic microversion)
and the resources under it."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.boot import applystaged
from ironic_like.api.controllers.v1.boot import common
from ironic_like.api.controllers.v1.boot import components
from ironic_like.api.controllers.v1.boot import options
from ironic_like.api.controllers.v1.boot import sessions
from ironic_like.api.controllers.v1.boot import templates
from ironic_like.api.controllers.v1 import utils

API_ID = 'v2'
BOS_VERSION = '2.50.0-compatible'
# What we have and BOS has not.
ADDITIONS = ('preview', 'abort', 'takeover', 'boot_set_status',
             'status_counts', 'report', 'kernel_initrd_boot_sets')
RESOURCES = ('sessiontemplates', 'sessiontemplatesvalid',
             'sessiontemplatetemplate', 'sessions', 'components',
             'applystaged', 'options')


def version_document():
    links = [{'href': common.boot_url(), 'rel': 'self'}]
    links += [{'href': common.boot_url(name), 'rel': name}
              for name in RESOURCES]
    return {'id': API_ID, 'bos_version': BOS_VERSION, 'links': links,
            'additions': list(ADDITIONS)}


class BootController(rest.RestController):
    """/v1/boot."""

    sessiontemplates = templates.TemplatesController()
    sessiontemplatesvalid = templates.TemplateValidController()
    sessiontemplatetemplate = templates.ExampleTemplateController()
    sessions = sessions.SessionsController()
    components = components.ComponentsController()
    applystaged = applystaged.ApplyStagedController()
    options = options.OptionsController()

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.authorize_read()
        return version_document()
