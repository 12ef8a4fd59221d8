"""Options of the [api] group."""

from oslo_config import cfg

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
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
