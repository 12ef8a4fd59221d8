"""Options of the [DEFAULT] group that are ours (not oslo libraries')."""

import socket

from oslo_config import cfg

opts = [
    # Ironic's name, group and default.
    cfg.BoolOpt('ignore_project_check_for_admin_tasks', default=True,
                help='Whether a deploy asked by an admin may use any Glance '
                     'image, whatever its visibility and owner. Others may '
                     'use public and community images, and those private '
                     'to or shared with the [glance] credentials\' '
                     'project.'),
    cfg.StrOpt('host',
               default=socket.gethostname(),
               sample_default='localhost',
               help='Name of this service host. A conductor registers under '
                    'this name and serves the RPC topic of the same name, so '
                    'it must be unique among conductors.'),
    cfg.StrOpt('auth_strategy',
               default='noauth',
               choices=[('noauth', 'no authentication: every request is an '
                                   'administrator (embedded/lab use only)'),
                        ('keystone', 'validate tokens with '
                                     'keystonemiddleware'),
                        ('http_basic', 'HTTP basic auth against an htpasswd '
                                       'file (bcrypt)')],
               help='How the API authenticates requests.'),
    cfg.StrOpt('http_basic_auth_user_file',
               default='/etc/ironic_like/htpasswd',
               help='Path to the htpasswd file (bcrypt hashes) used when '
                    'auth_strategy is http_basic.'),
    cfg.IntOpt('hash_partition_exponent',
               default=7, min=1, max=16,
               help='Exponent that decides the number of partitions of the '
                    'consistent hash ring (2**N). 2**7 spreads nodes evenly '
                    'over a handful of conductors; larger values cost memory '
                    'and time when the ring is rebuilt.'),
    cfg.IntOpt('hash_ring_reset_interval',
               default=5, min=1,
               help='Seconds after which a process rebuilds its hash ring '
                    'from the conductors table even if it saw no change.'),
    cfg.IntOpt('rpc_node_call_timeout',
               default=8, min=1,
               help='Seconds the API waits for a conductor to answer a '
                    'node-bound RPC call before it refreshes its hash ring '
                    'and retries on the next conductor. Conductors answer '
                    'these calls at once and do slow work in the '
                    'background, so a short value is safe.'),
    cfg.StrOpt('rpc_version_cap',
               help='Highest conductor RPC API version the API and '
                    'conductors send, e.g. "1.0". Set it to the version of '
                    'the oldest service during a rolling upgrade; unset '
                    'means the newest this code knows.'),
    cfg.IntOpt('rpc_node_call_attempts',
               default=3, min=1,
               help='How many conductors the API tries for a node-bound '
                    'call whose owner does not answer.'),
    # In [DEFAULT] as in Ironic, so that an ironic.conf carries over;
    # [conductor], where it was first, is still read (deprecated). The
    # deprecated_name repeats the name only so that the sample config
    # shows the old group (the generator omits a group-only alias).
    cfg.ListOpt('enabled_hardware_types', default=['fake-hardware'],
                deprecated_group='conductor',
                deprecated_name='enabled_hardware_types',
                help='Hardware types this conductor loads and serves.'),
    # Same names as Ironic's, so that its configuration carries over.
    cfg.BoolOpt('rbac_service_role_elevated_access',
                default=True,
                help='Whether a user with the "service" role in the project '
                     'named by rbac_service_project_name (a service such '
                     'as Nova acting for its users) has the rights of a '
                     'system member under the default policy: it sees and '
                     'operates every node, not only those its project owns. '
                     'Disabled, a service user is limited to the nodes its '
                     'project owns. (Ironic disables this by default.)'),
    cfg.StrOpt('rbac_service_project_name',
               default='service',
               help='Name of the project of the service users that '
                    'rbac_service_role_elevated_access applies to.'),
    # Ironic's name and default, so that its configuration carries over.
    cfg.StrOpt('default_portgroup_mode',
               default='active-backup',
               help='Bonding mode given to a port group created without '
                    'one (API 1.26 and later let the request choose). '
                    'See the Linux kernel\'s bonding documentation for the '
                    'modes: balance-rr, active-backup, balance-xor, '
                    'broadcast, 802.3ad, balance-tlb or balance-alb.'),
]


def _enabled_opt(kind, default):
    # Ironic's option names and meaning, so that an ironic.conf carries
    # over; only the entry point namespace is ours.
    return cfg.ListOpt(
        'enabled_%s_interfaces' % kind, default=default,
        help='Specify the list of %(kind)s interfaces to load during '
             'service initialization. At least one %(kind)s interface '
             'that is supported by each enabled hardware type must be '
             'enabled here, or nodes of that type cannot be enrolled. '
             'Must not be an empty list. The default value is a '
             'recommended set of production-oriented %(kind)s interfaces. '
             'A complete list of %(kind)s interfaces present on your '
             'system may be found by enumerating the '
             '"ironic_like.hardware.interfaces.%(kind)s" entrypoint. When '
             'setting this value, please make sure that every enabled '
             'hardware type will have the same set of enabled %(kind)s '
             'interfaces on every conductor.' % {'kind': kind})


def _default_opt(kind):
    return cfg.StrOpt(
        'default_%s_interface' % kind,
        help='Default %(kind)s interface to be used for nodes that do not '
             'have %(kind)s_interface field set. A complete list of '
             '%(kind)s interfaces present on your system may be found by '
             'enumerating the "ironic_like.hardware.interfaces.%(kind)s" '
             'entrypoint. Unset, the first interface the node\'s hardware '
             'type supports among the enabled ones is used.'
             % {'kind': kind})


# The node interfaces that have Ironic's enabled_/default_ options, with
# Ironic's defaults where we have the interfaces they name (Ironic also
# enables storage "cinder" and vendor "ipmitool", which this service
# does not have; inspection through the agent is enabled, as it was
# before the inspect interface could be chosen).
INTERFACE_OPTION_DEFAULTS = {
    'bios': ['no-bios'],
    'console': ['no-console'],
    'firmware': ['no-firmware'],
    'inspect': ['no-inspect', 'agent'],
    'network': ['flat', 'noop'],
    'raid': ['agent', 'no-raid'],
    'rescue': ['no-rescue'],
    'storage': ['noop'],
    'vendor': ['redfish', 'no-vendor'],
}
for _kind in sorted(INTERFACE_OPTION_DEFAULTS):
    opts.append(_enabled_opt(_kind, INTERFACE_OPTION_DEFAULTS[_kind]))
    opts.append(_default_opt(_kind))


def register_opts(conf):
    conf.register_opts(opts)
