"""Options of the [glance] group: how the conductor reaches the image
service for instance images given by Glance ID. keystoneauth's own
session, auth and adapter options, as Ironic registers them, so that an
ironic.conf's [glance] section carries over: e.g. ``auth_type =
password`` with ``auth_url``, ``username``..., or a standalone Glance
with ``auth_type = none`` and ``endpoint_override``. Unset,
``service_type`` is ``image`` and ``valid_interfaces`` internal then
public, as in Ironic (common/glance.py applies them: oslo.config's
set_default does not survive a ConfigOpts.reset())."""

from keystoneauth1 import loading as ks_loading
from oslo_config import cfg

group = cfg.OptGroup('glance', title='Image service (Glance) options')

# Shown in the sample config: the password plugin's options, the ones an
# operator sets most (other plugins' are read once auth_type names them).
_SAMPLE_PLUGIN = 'password'


def register_opts(conf):
    conf.register_group(group)
    ks_loading.register_session_conf_options(conf, group.name)
    ks_loading.register_auth_conf_options(conf, group.name)
    ks_loading.register_adapter_conf_options(conf, group.name)


def list_opts():
    """The options the sample config shows."""
    opts = (ks_loading.get_session_conf_options()
            + ks_loading.get_auth_common_conf_options()
            + ks_loading.get_auth_plugin_conf_options(_SAMPLE_PLUGIN)
            + ks_loading.get_adapter_conf_options())
    seen = {}
    for opt in opts:
        seen.setdefault(opt.dest, opt)
    return list(seen.values())
