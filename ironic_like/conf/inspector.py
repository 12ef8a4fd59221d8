"""Options of in-band inspection through the agent, in the groups where
Ironic has them (so that an ironic.conf carries over): [inspector] for
what inspection records, [conductor]inspect_wait_timeout for how long a
node may wait for its agent."""

from oslo_config import cfg

group = cfg.OptGroup('inspector', title='In-band inspection options')

# What add_ports accepts, as Ironic's [inspector]add_ports.
ADD_PORTS_ALL = 'all'
ADD_PORTS_ACTIVE = 'active'
ADD_PORTS_PXE = 'pxe'
ADD_PORTS_DISABLED = 'disabled'

opts = [
    cfg.StrOpt('add_ports', default=ADD_PORTS_PXE,
               choices=[
                   (ADD_PORTS_ALL, 'a port for every NIC with a MAC '
                                   'address'),
                   (ADD_PORTS_ACTIVE, 'a port for every NIC with an IP '
                                      'address'),
                   (ADD_PORTS_PXE, 'a port for the NIC the node booted '
                                   'from (the NICs with an IP address '
                                   'when the agent does not say which)'),
                   (ADD_PORTS_DISABLED, 'no ports')],
               help='Which of the NICs found by inspection get a port. '
                    'Ports that exist are always kept.'),
]

conductor_opts = [
    cfg.IntOpt('inspect_wait_timeout', default=1800, min=0,
               help='Seconds a node may stay in "inspect wait" (its '
                    'ramdisk booting, its agent not yet heard from) '
                    'before inspection fails. 0: no limit.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
    conf.register_opts(conductor_opts, group='conductor')
