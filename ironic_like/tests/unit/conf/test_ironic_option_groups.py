"""Our options that Ironic has too sit in Ironic's group, so that an
operator's ironic.conf carries over (issue 13).

ironic_options.txt lists Ironic's (group, option) pairs; it is generated
by tools/ironic_option_names.py from an Ironic checkout (see its header).
"""

import os

import fixtures
from oslo_config import cfg
import testtools

from ironic_like.conf import agent
from ironic_like.conf import api
from ironic_like.conf import conductor
from ironic_like.conf import database
from ironic_like.conf import default
from ironic_like.conf import deploy
from ironic_like.conf import opts
from ironic_like.conf import pxe

IRONIC_OPTIONS = os.path.join(os.path.dirname(__file__),
                              'ironic_options.txt')

# Options of ours named as one of Ironic's but meaning something else, so
# that they stay in our group: option name -> why.
EXCEPTIONS = {
    # Ironic's [conductor]heartbeat_timeout is the conductors' one, as our
    # [conductor]heartbeat_timeout; ours in [agent] is how long a deploy
    # agent may stay silent (Ironic: [api]ramdisk_heartbeat_timeout, with
    # a different effect).
    'heartbeat_timeout': 'the deploy agent\'s silence, not a conductor\'s',
}

# Groups where Ironic, as we, registers keystoneauth's session, auth and
# adapter options (ironic.conf.auth.register_auth_opts).
KEYSTONEAUTH_GROUPS = {'glance'}

# The options moved to Ironic's group: (new group, name) -> old group,
# still read as a deprecated alias.
MOVED = {
    ('DEFAULT', 'enabled_hardware_types'): 'conductor',
    ('conductor', 'deploy_kernel'): 'deploy',
    ('conductor', 'deploy_ramdisk'): 'deploy',
    ('pxe', 'kernel_append_params'): 'deploy',
}


def ironic_groups():
    """{option name: set of Ironic's groups having it}."""
    groups = {}
    with open(IRONIC_OPTIONS) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            group, name = line.split('.', 1)
            groups.setdefault(name, set()).add(group)
    return groups


class TestIronicOptionGroups(testtools.TestCase):

    def test_list_is_readable(self):
        groups = ironic_groups()
        # A sanity check of the generated file (an empty or truncated one
        # would make the test below pass vacuously).
        self.assertGreater(len(groups), 300)
        self.assertEqual({'DEFAULT'}, groups['enabled_hardware_types'])

    def test_options_in_ironic_groups(self):
        groups = ironic_groups()
        misplaced = []
        for group, group_opts in opts.list_opts():
            for opt in group_opts:
                if opt.name not in groups or opt.name in EXCEPTIONS:
                    continue
                if group in KEYSTONEAUTH_GROUPS:
                    # keystoneauth's own options, which Ironic registers
                    # in this group too (ironic/conf/auth.py; the list
                    # above holds only those Ironic declares itself).
                    continue
                if group not in groups[opt.name]:
                    misplaced.append('[%s]%s (Ironic: %s)' % (
                        group, opt.name,
                        ', '.join('[%s]' % g
                                  for g in sorted(groups[opt.name]))))
        self.assertEqual([], misplaced)

    def test_exceptions_are_needed(self):
        # An exception for a name Ironic no longer has, or that is already
        # in one of Ironic's groups, is stale: remove it.
        groups = ironic_groups()
        ours = {}
        for group, group_opts in opts.list_opts():
            for opt in group_opts:
                ours.setdefault(opt.name, set()).add(group)
        for name in EXCEPTIONS:
            self.assertIn(name, groups)
            self.assertTrue(ours.get(name, set()) - groups[name], name)

    def test_new_ironic_options(self):
        # Declared with Ironic's names, groups and defaults.
        self.assertIn(('api', 'restrict_lookup'), _declared())
        self.assertIn(('conductor', 'automated_clean'), _declared())
        self.assertIn(('agent', 'require_tls'), _declared())


def _declared():
    return {(group, opt.name)
            for group, group_opts in opts.list_opts()
            for opt in group_opts}


class TestDeprecatedGroups(testtools.TestCase):
    """A configuration file written for the old groups is still read."""

    def _conf(self, text):
        conf = cfg.ConfigOpts()
        # Registered as the service does (conf/__init__.py), on a private
        # object so that the global CONF is left alone.
        for module in (default, agent, api, conductor, database, deploy,
                       pxe):
            module.register_opts(conf)
        path = os.path.join(self.useFixture(fixtures.TempDir()).path,
                            'ironic.conf')
        with open(path, 'w') as f:
            f.write(text)
        conf(args=[], default_config_files=[path])
        self.addCleanup(conf.reset)
        return conf

    def test_old_groups_are_read(self):
        conf = self._conf('[conductor]\n'
                          'enabled_hardware_types = redfish,fake-hardware\n'
                          '[deploy]\n'
                          'deploy_kernel = http://old.test/k\n'
                          'deploy_ramdisk = http://old.test/r\n'
                          'kernel_append_params = console=ttyS0\n')
        self.assertEqual(['redfish', 'fake-hardware'],
                         conf.enabled_hardware_types)
        self.assertEqual('http://old.test/k', conf.conductor.deploy_kernel)
        self.assertEqual('http://old.test/r', conf.conductor.deploy_ramdisk)
        self.assertEqual('console=ttyS0', conf.pxe.kernel_append_params)

    def test_new_groups_win(self):
        conf = self._conf('[DEFAULT]\n'
                          'enabled_hardware_types = redfish\n'
                          '[conductor]\n'
                          'enabled_hardware_types = fake-hardware\n'
                          'deploy_kernel = http://new.test/k\n'
                          '[deploy]\n'
                          'deploy_kernel = http://old.test/k\n'
                          '[pxe]\n'
                          'kernel_append_params = quiet\n')
        self.assertEqual(['redfish'], conf.enabled_hardware_types)
        self.assertEqual('http://new.test/k', conf.conductor.deploy_kernel)
        self.assertEqual('quiet', conf.pxe.kernel_append_params)

    def test_moved_options_name_their_old_group(self):
        declared = {(group, opt.name): opt
                    for group, group_opts in opts.list_opts()
                    for opt in group_opts}
        for (group, name), old_group in MOVED.items():
            opt = declared[(group, name)]
            self.assertIn(old_group,
                          [d.group for d in opt.deprecated_opts],
                          '[%s]%s' % (group, name))
