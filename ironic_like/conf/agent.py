"""Options of the [agent] group: the deploy agent running in the ramdisk."""

import ipaddress

from oslo_config import cfg


def _network(value):
    """A CIDR of allowed_callback_networks, normalised; ValueError (the
    configuration is refused) if it is not one."""
    return str(ipaddress.ip_network(value.strip(), strict=False))


group = cfg.OptGroup('agent', title='Deploy agent options')

opts = [
    # Ironic's name, group and default.
    cfg.StrOpt('image_download_source', default='http',
               choices=[
                   ('http', 'The agent downloads an http(s) image_source '
                            'where it is; a Glance image or a file:// one '
                            'is cached by the conductor and served from '
                            '[deploy]http_url.'),
                   ('local', 'Every image, http(s) ones too, is cached by '
                             'the conductor and served from '
                             '[deploy]http_url.'),
                   ('swift', 'Ironic\'s Swift temporary URLs: there is no '
                             'object store here, so a deploy of a Glance '
                             'image fails while this is set.')],
               mutable=True,
               help='Where the deploy agent downloads the instance image '
                    'from.'),
    cfg.IntOpt('heartbeat_timeout', default=300, min=1,
               help='Seconds an agent may stay silent. Lookup hands this '
                    'value to the agent (it heartbeats well within it), '
                    'and a node waiting for its agent whose last heartbeat '
                    'is older than this is considered lost.'),
    cfg.StrOpt('heartbeat_timeout_action', default='reboot',
               choices=[('reboot', 'power-cycle the node so that the '
                                   'agent boots again, up to '
                                   'heartbeat_timeout_reboots times, then '
                                   'put it in maintenance'),
                        ('maintenance', 'put the node in maintenance with '
                                        'the reason at once')],
               help='What a conductor does with a powered-on node waiting '
                    'for its agent (wait call-back, clean wait) that has '
                    'not heard from it for heartbeat_timeout seconds.'),
    cfg.IntOpt('heartbeat_timeout_reboots', default=2, min=0,
               help='Reboots tried for one silent agent before the node '
                    'goes to maintenance (with heartbeat_timeout_action = '
                    'reboot).'),
    cfg.IntOpt('phase_timeout', default=1800, min=0,
               help='Seconds a node may wait in one agent phase (the image '
                    'write, one clean step, the first call-back) even while '
                    'its agent heartbeats: a command stuck running, or an '
                    'agent whose command API cannot be reached, ends the '
                    'deploy or cleaning as failed after this long, with '
                    'the phase named in last_error. As Ironic\'s '
                    'deploy_callback_timeout; 0 disables the deadline.'),
    cfg.IntOpt('check_heartbeat_interval', default=30, min=0,
               help='Seconds between a conductor\'s checks of its nodes '
                    'for silent agents and overdue agent phases. 0 '
                    'disables the checks.'),
    cfg.ListOpt('allowed_callback_networks', default=[],
                item_type=_network,
                help='Networks (CIDRs, e.g. 10.0.0.0/16, fd00::/8) an '
                     'agent\'s callback URL (callback_url, agent_url) '
                     'must point into; a heartbeat with a URL elsewhere, '
                     'or naming its host by a DNS name, is refused with '
                     '400. The address need not be one of the node\'s '
                     'ports: an agent may call back on another NIC. Empty '
                     '(the default): any address. Whatever this says, a '
                     'callback URL must be http or https, name a host and '
                     'carry no user name or password.'),
    # Ironic's name, group and default (true since 2024): the agent token
    # never travels to an agent over plain http. The lab, whose simulated
    # agents serve plain http, sets it to false in its own configuration.
    cfg.BoolOpt('require_tls',
                default=True,
                mutable=True,
                help='Whether agents must call back over TLS: when true, '
                     'a heartbeat whose agent_url (callback_url) is not '
                     'https is refused with 400 naming the field. '
                     'ironic-python-agent serves https with a certificate '
                     'it makes itself (and sends agent_verify_ca). Set it '
                     'to false only for agents that serve plain http, as '
                     'the lab\'s simulated ones do.'),
    cfg.IntOpt('lookup_failures_per_minute', default=30, min=0,
               help='Failed agent lookups (answered 400 or 404) one '
                    'client address may make in a sliding minute; beyond '
                    'that its lookups are answered 429 with a Retry-After '
                    'header until the oldest failure is a minute old. '
                    'Counted in each API process (worker) separately, for '
                    'at most 10,000 addresses (the least recently failing '
                    'are forgotten first). Behind a proxy every agent '
                    'shares the proxy\'s address: raise it there. 0 '
                    'disables the limit.'),
    cfg.BoolOpt('command_token_in_query', default=True,
                help='Also send the agent token as the agent_token query '
                     'parameter of the agent command API, where '
                     'ironic-python-agent reads it (it reads no header, '
                     'and refuses a command without it). The token always '
                     'travels in the X-Agent-Token header too; when every '
                     'agent reads that header (the agent simulator does), '
                     'turn this off so the token never appears in a URL '
                     '(URLs end up in proxy logs). Error messages and '
                     'last_error are scrubbed of the token either way.'),
    # Ironic's option (API 1.68: agent_verify_ca in heartbeats).
    cfg.StrOpt('certificates_path',
               default='/var/lib/ironic-like/certificates',
               help='Directory where a conductor writes the TLS '
                    'certificate an agent sent in its heartbeat '
                    '(agent_verify_ca, API 1.68), one <node uuid>.crt per '
                    'node; the conductor then verifies the agent\'s https '
                    'URL with it.'),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)
