"""Options of the [redfish] group: the ``redfish`` firmware interface's
update step. Ironic's names, groups and defaults, so that an operator's
ironic.conf carries over; where the meaning differs here, the help says
so."""

from oslo_config import cfg

group = cfg.OptGroup('redfish', title='Redfish driver options')

opts = [
    cfg.StrOpt('firmware_source', default='http',
               choices=[
                   ('http', 'An http(s) firmware URL is given to the BMC as '
                            'it is; a file:// one is copied under '
                            '[deploy]http_root/firmware and the BMC reads '
                            'it from [deploy]http_url.'),
                   ('local', 'Every firmware image is copied (file://) or '
                             'downloaded (http(s)) under '
                             '[deploy]http_root/firmware and the BMC reads '
                             'it from [deploy]http_url.'),
                   ('swift', 'Ironic\'s Swift staging: there is no object '
                             'store here, so a firmware update step is '
                             'refused (400) while this is set.')],
               mutable=True,
               help='How a firmware update step\'s image is served to the '
                    'BMC. Staged copies are removed when the step ends.'),
    cfg.IntOpt('firmware_update_status_interval', default=60, min=0,
               help='Seconds between two reads of the BMC\'s firmware '
                    'update task while the update step waits for it (at '
                    'least 1 here; read at the first conductor poll after '
                    'it: [conductor]check_polled_steps_interval).'),
    cfg.IntOpt('firmware_update_reboot_delay', default=300, min=0,
               help='Default bound (seconds) of the wait, after a '
                    'component\'s update task completed, for the BMC to '
                    'report the component\'s new version (a settings '
                    'entry\'s "wait" overrides it): the BMC\'s own version '
                    '(the host is rebooted when it could not be read by '
                    'then, as Ironic does), and the BIOS version when the '
                    'BMC staged the image before the reboot.'),
    cfg.IntOpt('firmware_update_bmc_version_check_interval', default=30,
               min=0,
               help='Seconds between two reads of a component\'s version '
                    'after its update (at least 1 here; read at the first '
                    'conductor poll after it: [conductor]'
                    'check_polled_steps_interval).'),
    cfg.IntOpt('firmware_update_nic_starting_wait', default=30, min=0,
               help='Seconds a NIC firmware update task may stay Starting '
                    'before the node is rebooted (some NICs start applying '
                    'firmware only at a reboot, others at once).'),
    cfg.IntOpt('firmware_update_overall_timeout', default=7200, min=0,
               help='Bound (seconds) of a whole firmware update step, '
                    'every component of it: the step fails when it is not '
                    'over by then. 0 (Ironic: no bound) means the default '
                    'bound here: every step bounds its own wait.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
