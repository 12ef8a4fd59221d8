"""Options of the ironic_like tempest plugin.

Two groups:

* ``[service_available] ironic_like``: whether the service runs at all;
  every test of the plugin is skipped without it.
* ``[baremetal_like]``: where the service is in the catalog, the
  microversion range the tests may use, and what the deployment under test
  offers (conductors, hardware types, the lab of the deploy scenario).

The group is not ``[baremetal]``, so that this plugin can be installed
next to ironic-tempest-plugin without their options clashing.
"""

from oslo_config import cfg

service_option = cfg.BoolOpt(
    'ironic_like', default=False,
    help='Whether the ironic_like bare metal service is expected to be '
         'available.')

group = cfg.OptGroup(name='baremetal_like',
                     title='ironic_like bare metal service options')

opts = [
    # Read by tempest.config.service_client_config() for the client.
    cfg.StrOpt('catalog_type', default='baremetal',
               help='Catalog type of the service.'),
    cfg.StrOpt('endpoint_type', default='public',
               choices=['public', 'admin', 'internal',
                        'publicURL', 'adminURL', 'internalURL'],
               help='The endpoint type to use.'),
    cfg.StrOpt('region', default='',
               help='Region of the endpoint (default: [identity]region).'),
    cfg.IntOpt('build_timeout', default=120,
               help='Seconds to wait for a state change (provisioning, '
                    'allocation, power).'),
    cfg.FloatOpt('build_interval', default=1.0,
                 help='Seconds between two polls of a resource.'),
    # Microversions.
    cfg.StrOpt('min_microversion', default=None,
               help='Lowest API microversion the tests may use; tests '
                    'needing an older one are skipped.'),
    cfg.StrOpt('max_microversion', default='latest',
               help='Highest API microversion the tests may use; tests '
                    'needing a newer one are skipped.'),
    # The deployment under test.
    cfg.IntOpt('expected_conductors', default=0, min=0,
               help='Conductors that must be alive (a clustered deployment '
                    'has at least 2); 0 checks only that one is.'),
    cfg.ListOpt('enabled_hardware_types', default=['fake-hardware'],
                help='Hardware types the conductors enable.'),
    cfg.IntOpt('agent_heartbeat_timeout', default=300,
               help='The service\'s [agent]heartbeat_timeout, which lookup '
                    'hands to the agent.'),
    # The deploy scenario: a redfish node of a lab (Redfish emulator and
    # agent simulator, see ironic_like_lab.lab).
    cfg.BoolOpt('deploy_scenario', default=False,
                help='Run the scenario deploying a node through the '
                     'simulated agent (needs the lab_* options).'),
    cfg.StrOpt('lab_redfish_address',
               help='Redfish address (URL) of the lab\'s BMC emulator.'),
    cfg.StrOpt('lab_system_id',
               help='Redfish system path of the machine to deploy.'),
    cfg.StrOpt('lab_redfish_username', default='admin',
               help='Redfish user name.'),
    cfg.StrOpt('lab_redfish_password', default='password', secret=True,
               help='Redfish password.'),
    cfg.StrOpt('lab_mac',
               help='MAC address of the machine\'s network interface.'),
    cfg.StrOpt('lab_agent_sim_url',
               help='URL of the agent simulator (its /control API shows '
                    'the simulated disk); optional.'),
    cfg.StrOpt('lab_agent_id',
               help='Id of the machine\'s agent in the simulator.'),
    cfg.StrOpt('image_url', help='URL of the image to deploy.'),
    cfg.StrOpt('image_checksum', help='sha256 of the image.'),
    cfg.IntOpt('deploy_timeout', default=300,
               help='Seconds a deploy, clean or tear-down may take.'),
]
