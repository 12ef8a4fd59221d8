"""/v1/boot/options: BOS's options (common/boot/options.py), read by the
operators at the top of every loop. GET shows the options in force (the
defaults overlaid with what was set); PATCH sets some, every value checked
before any is stored (400 naming the option)."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.boot import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import boot as schema
from ironic_like.api import validation
from ironic_like.common.boot import options as boot_options
from ironic_like.common import exception

_OPTIONS_VALIDATOR = validation.make_validator(schema.OPTIONS_BODY)


def current():
    return boot_options.effective(utils.dbapi().get_boot_options())


class OptionsController(rest.RestController):

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.authorize_read()
        return current()

    @pecan.expose('json')
    def patch(self, **kwargs):
        utils.query()
        common.authorize_write()
        body = utils.load_body()
        utils.validate(_OPTIONS_VALIDATOR, body)
        try:
            values = boot_options.validate(body)
        except boot_options.OptionError as e:
            raise exception.InvalidParameterValue(err=str(e), field=e.field)
        return boot_options.effective(
            utils.dbapi().set_boot_options(values))
