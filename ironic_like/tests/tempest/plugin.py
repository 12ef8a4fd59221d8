"""The tempest plugin of ironic_like (entry point ``tempest.test_plugins``,
name ``ironic_like``).

tempest loads it at start: its options are registered into tempest's
configuration, its tests are found under this package, and its service
clients are registered, so that a test reaches them through any credentials'
client manager, e.g.
``cls.os_system_admin.baremetal_like.BaremetalLikeClient()`` (and the
boot sessions client, ``baremetal_like_boot.BootClient()``, the host OS
configuration client, ``baremetal_like_hostos.HostOSClient()``, and the
accelerators client,
``baremetal_like_accelerators.AcceleratorsClient()``).
"""

import os

from tempest import config
from tempest.test_discover import plugins

from ironic_like.tests.tempest import config as project_config


class IronicLikeTempestPlugin(plugins.TempestPlugin):

    def load_tests(self):
        # The test directory, and the top of the import path above it
        # (test ids then read ironic_like.tests.tempest.api.test_...).
        test_dir = os.path.dirname(os.path.abspath(__file__))
        # .../<top>/ironic_like/tests/tempest -> .../<top>
        top_level_dir = os.path.dirname(os.path.dirname(
            os.path.dirname(test_dir)))
        return test_dir, top_level_dir

    def register_opts(self, conf):
        config.register_opt_group(conf, config.service_available_group,
                                  [project_config.service_option])
        config.register_opt_group(conf, project_config.group,
                                  project_config.opts)

    def get_opt_lists(self):
        return [(project_config.group.name, project_config.opts),
                ('service_available', [project_config.service_option])]

    def get_service_clients(self):
        # catalog type, endpoint type, region and timeouts from our group.
        params = config.service_client_config(project_config.group.name)
        params.update({
            'name': 'baremetal_like',
            'service_version': 'baremetal_like.v1',
            'module_path': 'ironic_like.tests.tempest.services.'
                           'baremetal_client',
            'client_names': ['BaremetalLikeClient'],
        })
        # The boot sessions API (/v1/boot) on the same endpoint, e.g.
        # ``cls.os_system_admin.baremetal_like_boot.BootClient()``.
        boot_params = config.service_client_config(
            project_config.group.name)
        boot_params.update({
            'name': 'baremetal_like_boot',
            'service_version': 'baremetal_like_boot.v1',
            'module_path': 'ironic_like.tests.tempest.services.boot_client',
            'client_names': ['BootClient'],
        })
        # The host OS configuration API (/v1/hostos) on the same endpoint,
        # e.g. ``cls.os_system_admin.baremetal_like_hostos.HostOSClient()``.
        hostos_params = config.service_client_config(
            project_config.group.name)
        hostos_params.update({
            'name': 'baremetal_like_hostos',
            'service_version': 'baremetal_like_hostos.v1',
            'module_path': 'ironic_like.tests.tempest.services.'
                           'hostos_client',
            'client_names': ['HostOSClient'],
        })
        # The accelerators API (/v1/accelerators, /v1/nodes/{node}/
        # accelerators) on the same endpoint, e.g.
        # ``cls.os_system_admin.baremetal_like_accelerators.
        # AcceleratorsClient()``.
        accelerators_params = config.service_client_config(
            project_config.group.name)
        accelerators_params.update({
            'name': 'baremetal_like_accelerators',
            'service_version': 'baremetal_like_accelerators.v1',
            'module_path': 'ironic_like.tests.tempest.services.'
                           'accelerators_client',
            'client_names': ['AcceleratorsClient'],
        })
        return [params, boot_params, hostos_params, accelerators_params]
