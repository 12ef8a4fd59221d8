"""Options of the [api] group, and the defaults this service gives
oslo.middleware's request body size limit ([oslo_middleware])."""

from oslo_config import cfg
from oslo_middleware import sizelimit

group = cfg.OptGroup('api', title='API service options')

opts = [
    cfg.HostAddressOpt('host_ip', default='0.0.0.0',
                       help='Address the API server listens on.'),
    cfg.PortOpt('port', default=6385,
                help='Port the API server listens on.'),
    cfg.IntOpt('api_workers', min=1,
               help='Number of API worker processes sharing the port. '
                    'Defaults to the number of CPUs (at most 4).'),
    cfg.IntOpt('threads_per_worker', default=16, min=1,
               help='Request threads in each API worker process.'),
    cfg.IntOpt('max_limit', default=1000, min=1,
               help='The most items a list request returns in one page.'),
    cfg.IntOpt('retry_after', default=5, min=1,
               help='Seconds a client is told to wait (Retry-After header) '
                    'with a 503 answer: a conductor busy or fenced, no '
                    'conductor reachable.'),
    cfg.StrOpt('public_endpoint',
               help='Public URL of the API to use in links (e.g. '
                    '"https://baremetal.example.com"). Defaults to the URL '
                    'of the incoming request.'),
    cfg.BoolOpt('allow_insecure_noauth', default=False,
                help='Let the API start with [DEFAULT]auth_strategy = noauth '
                     'while [api]host_ip is not a loopback address. noauth '
                     'makes every caller an administrator, so by default '
                     'ironic-like-api and ironic-like-all refuse to start '
                     'when it would be reachable from other machines. Set '
                     'it only on an isolated lab network; the service then '
                     'logs a warning on start.'),
    cfg.IntOpt('max_json_field_size', default=65535, min=1024,
               help='The most bytes one JSON object field of a request '
                    '(a node\'s driver_info, properties, extra, '
                    'instance_info, labels; a port\'s or an allocation\'s '
                    'extra) may take, serialized as JSON as it is stored. '
                    'A larger value is refused (400, naming the field). '
                    'The default is what the TEXT column holding most of '
                    'these fields takes on MySQL/MariaDB.'),
    cfg.IntOpt('max_patch_operations', default=100, min=1,
               help='The most operations one JSON patch (PATCH of a node, '
                    'port or allocation) may hold; a longer patch is '
                    'refused (400).'),
    # Ironic's option (name, default, help), so that an ironic.conf
    # carries over. The lookup answers only for nodes in the states of
    # common/states.py LOOKUP_ALLOWED_STATES unless it is False.
    cfg.BoolOpt('restrict_lookup',
                default=True,
                mutable=True,
                help='When true, the agent lookup answers only for nodes '
                     'waiting for an agent (deploying, cleaning, their '
                     'wait states, inspecting). False lets any '
                     'machine that knows a node\'s MAC addresses learn '
                     'its UUID and agent token: leave it true.'),
    # Ironic's option (API 1.80 marks the feature): with it, the
    # baremetal:node:create:self_owned_node and
    # baremetal:node:delete:self_owned_node rules apply.
    cfg.BoolOpt('project_admin_can_manage_own_nodes',
                default=True,
                mutable=True,
                help='Let the administrator of a project (a project-scoped '
                     'token with the admin role, or a service user) enrol '
                     'nodes, which the project then owns, and delete the '
                     'nodes their project owns, as the policies '
                     'baremetal:node:create:self_owned_node and '
                     'baremetal:node:delete:self_owned_node allow. False: '
                     'only baremetal:node:create and baremetal:node:delete '
                     'decide.'),
]

# oslo.middleware's RequestBodySizeLimiter (see api/app.py) reads
# [oslo_middleware]max_request_body_size. Its own default, 112 KiB, is too
# small for a config drive sent with a deploy request: 1 MiB here.
MAX_REQUEST_BODY_SIZE = 1024 * 1024
cfg.set_defaults(sizelimit.OPTS, max_request_body_size=MAX_REQUEST_BODY_SIZE)


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
    conf.register_opts(sizelimit.OPTS, group='oslo_middleware')
