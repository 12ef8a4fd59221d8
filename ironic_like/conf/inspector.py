"""Options of inspection, in-band through the agent and out-of-band
through the BMC, in the groups where Ironic has them (so that an
ironic.conf carries over): [inspector] for what inspection records,
[conductor]inspect_wait_timeout for how long a node may wait for its
agent."""

from oslo_config import cfg

group = cfg.OptGroup('inspector', title='In-band inspection options')

# What add_ports accepts, as Ironic's [inspector]add_ports.
ADD_PORTS_ALL = 'all'
ADD_PORTS_ACTIVE = 'active'
ADD_PORTS_PXE = 'pxe'
ADD_PORTS_DISABLED = 'disabled'

# What keep_ports accepts, as Ironic's [inspector]keep_ports.
KEEP_PORTS_ALL = 'all'
KEEP_PORTS_PRESENT = 'present'
KEEP_PORTS_ADDED = 'added'

opts = [
    cfg.StrOpt('keep_ports', default=KEEP_PORTS_ALL,
               choices=[
                   (KEEP_PORTS_ALL, 'keep even ports with MAC addresses '
                                    'not present in the inventory'),
                   (KEEP_PORTS_PRESENT, 'keep only ports with MAC '
                                        'addresses present in the '
                                        'inventory'),
                   (KEEP_PORTS_ADDED, 'keep only ports determined by the '
                                      'add_ports option')],
               help='Which ports (already present on a node) to keep after '
                    'inspection. Nothing is deleted when the inventory '
                    'gives no MAC address to keep (as in Ironic).'),
    cfg.BoolOpt('update_pxe_enabled', default=True,
                help='Whether to update the ports\' pxe_enabled field '
                     'according to the inspection data: true for the port '
                     'of the NIC the node booted from, false for the '
                     'others. Only when the inventory names that NIC (an '
                     'agent\'s boot.pxe_interface); never from a BMC\'s '
                     'inventory, which does not know it.'),
    cfg.StrOpt('add_ports', default=ADD_PORTS_PXE,
               choices=[
                   (ADD_PORTS_ALL, 'a port for every NIC with a MAC '
                                   'address'),
                   (ADD_PORTS_ACTIVE, 'a port for every NIC with an IP '
                                      'address'),
                   (ADD_PORTS_PXE, 'a port for the NIC the node booted '
                                   'from (the NICs with an IP address '
                                   'when the agent does not say which; '
                                   'every NIC out-of-band)'),
                   (ADD_PORTS_DISABLED, 'no ports')],
               help='Which of the NICs found by inspection get a port. '
                    'Ports that exist are always kept. Out-of-band '
                    'inspection (the "redfish" inspect interface) knows '
                    'neither the NICs\' IP addresses nor the NIC the node '
                    'boots from: "pxe" then adds every NIC, and "active" '
                    'fails the inspection, as in Ironic.'),
]

conductor_opts = [
    cfg.IntOpt('inspect_wait_timeout', default=1800, min=0,
               help='Seconds a node may stay in "inspect wait" (its '
                    'ramdisk booting, its agent not yet heard from) '
                    'before inspection fails. 0: no limit.'),
]


inventory_group = cfg.OptGroup('inventory',
                               title='Where inspection data is kept')

# What data_backend accepts (Ironic's names; its "swift" is not offered).
INVENTORY_DATABASE = 'database'
INVENTORY_NONE = 'none'

inventory_opts = [
    cfg.StrOpt('data_backend', default=INVENTORY_DATABASE,
               choices=[
                   (INVENTORY_DATABASE, 'in the node_inventory table, '
                                        'served by GET /v1/nodes/{node}/'
                                        'inventory (API 1.81)'),
                   (INVENTORY_NONE, 'not kept: that GET answers 404')],
               help='Where the inventory an agent gives at inspection '
                    '(or the one out-of-band inspection reads from the '
                    'BMC) is kept, with what inspection made of it '
                    '(plugin data). Each inspection replaces the node\'s; '
                    'it is deleted with the node.'),
]


rules_group = cfg.OptGroup('inspection_rules',
                           title='Inspection rules (API 1.96)')

# What mask_secrets accepts (Ironic's).
MASK_ALWAYS = 'always'
MASK_NEVER = 'never'
MASK_SENSITIVE = 'sensitive'

rules_opts = [
    cfg.StrOpt('built_in_rules', mutable=True,
               help='Path of a YAML file of built-in inspection rules: a '
                    'list of rules as the API takes them, applied with '
                    'the rules of the API at every inspection (read at '
                    'each inspection; not shown nor changed by the API). '
                    'A rule without uuid gets '
                    '00000000-0000-0000-0000-<index>. An unreadable or '
                    'invalid file fails the inspections.'),
    cfg.StrOpt('mask_secrets', default=MASK_ALWAYS,
               choices=[
                   (MASK_ALWAYS, 'every rule sees secrets masked'),
                   (MASK_NEVER, 'no rule sees them masked'),
                   (MASK_SENSITIVE, 'only rules marked sensitive see '
                                    'them')],
               help='Whether the inventory and plugin data that '
                    'inspection rules see have their secrets (password, '
                    'auth_token, bmc_password) masked.'),
]


discovery_group = cfg.OptGroup(
    'auto_discovery', title='Enrolment of unknown inspected machines')

# Ironic's names, defaults and meaning (read by the API's
# continue_inspection and by conductor/inspection.py).
discovery_opts = [
    cfg.BoolOpt('enabled', default=False, mutable=True,
                help='Setting this to True enables automatic enrollment '
                     'of inspected nodes that are not recognized. When '
                     'enabling this feature, keep in mind that any machine '
                     'hitting the inspection callback endpoint '
                     '(POST /v1/continue_inspection, which takes no '
                     'credentials) will be automatically enrolled. The '
                     'driver must be set when setting this to True.'),
    cfg.StrOpt('driver', mutable=True,
               help='The default driver to use for newly enrolled nodes. '
                    'Must be set when enabling auto-discovery (a hardware '
                    'type the conductors serve).'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
    conf.register_opts(conductor_opts, group='conductor')
    conf.register_group(inventory_group)
    conf.register_opts(inventory_opts, group=inventory_group)
    conf.register_group(rules_group)
    conf.register_opts(rules_opts, group=rules_group)
    conf.register_group(discovery_group)
    conf.register_opts(discovery_opts, group=discovery_group)
