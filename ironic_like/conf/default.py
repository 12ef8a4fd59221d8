"""Options of the [DEFAULT] group that are ours (not oslo libraries')."""

import socket

from oslo_config import cfg

opts = [
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
]


def register_opts(conf):
    conf.register_opts(opts)
