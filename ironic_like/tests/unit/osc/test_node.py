"""``openstack baremetal node ...``: arguments to requests."""

from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc.v1 import node as node_cmds
from ironic_like.osc.v1 import node_traits
from ironic_like.tests.unit.osc import base
from ironic_like.tests.unit.osc import fakes


class TestCreateNode(base.CommandTestCase):

    def test_all_options(self):
        self.session.route('POST', '/v1/nodes',
                           fakes.FakeResponse(201, fakes.node()))
        result = self.run_command(node_cmds.CreateNode, [
            '--driver', 'fake-hardware', '--name', 'n1',
            '--uuid', fakes.NODE_UUID, '--driver-info', 'ipmi_address=1.2',
            '--property', 'cpus=4', '--property', 'memory_mb=1024',
            '--extra', 'rack=r1', '--extra', 'tags=["a"]',
            '--label', 'role=compute', '--label', 'n=1',
            '--resource-class', 'gold', '--conductor-group', 'g1',
            '--owner', 'p1', '--description', 'a node',
            '--deploy-interface', 'fake', '--power-interface', 'fake'])
        self.assertRequest(self.last(), 'POST', '/v1/nodes', body={
            'driver': 'fake-hardware', 'name': 'n1',
            'uuid': fakes.NODE_UUID,
            'driver_info': {'ipmi_address': 1.2},
            'properties': {'cpus': 4, 'memory_mb': 1024},
            'extra': {'rack': 'r1', 'tags': ['a']},
            'labels': {'role': 'compute', 'n': '1'},
            'resource_class': 'gold', 'conductor_group': 'g1',
            'owner': 'p1', 'description': 'a node',
            'deploy_interface': 'fake', 'power_interface': 'fake'})
        self.assertEqual('1.60', self.last().headers[http.VERSION_HEADER])
        shown = self.as_dict(result)
        self.assertEqual(fakes.NODE_UUID, shown['uuid'])
        self.assertNotIn('links', shown)
        self.assertNotIn('ports', shown)

    def test_minimal(self):
        self.session.route('POST', '/v1/nodes',
                           fakes.FakeResponse(201, fakes.node()))
        self.run_command(node_cmds.CreateNode, ['--driver', 'd'])
        self.assertEqual({'driver': 'd'}, self.last().body)

    def test_driver_required(self):
        self.assertParseFails(node_cmds.CreateNode, ['--name', 'x'])

    def test_bad_property(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.CreateNode,
                          ['--driver', 'd', '--property', 'novalue'])
        self.assertEqual([], self.requests())

    def test_api_error(self):
        self.session.route('POST', '/v1/nodes', fakes.fault(
            400, 'No valid host was found. Reason: No conductor service '
                 'registered which supports driver d.'))
        e = self.assertRaises(http.HTTPError, self.run_command,
                              node_cmds.CreateNode, ['--driver', 'd'])
        self.assertEqual('No valid host was found. Reason: No conductor '
                         'service registered which supports driver d. '
                         '(HTTP 400)', str(e))


class TestListNode(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('GET', '/v1/nodes(/detail)?', fakes.FakeResponse(
            200, {'nodes': [fakes.node(), fakes.node(
                uuid=fakes.NODE_UUID2, name='node-1', maintenance=True)]}))

    def test_default_columns(self):
        titles, rows = self.rows(self.run_command(node_cmds.ListNode, []))
        self.assertEqual(('UUID', 'Name', 'Instance UUID', 'Power State',
                          'Provisioning State', 'Maintenance'), titles)
        self.assertEqual((fakes.NODE_UUID, 'node-0', None, 'power off',
                          'enroll', False), rows[0])
        self.assertEqual(2, len(rows))
        self.assertRequest(self.last(), 'GET', '/v1/nodes', params={})

    def test_filters(self):
        self.run_command(node_cmds.ListNode, [
            '--provision-state', 'available', '--maintenance',
            '--driver', 'fake-hardware', '--resource-class', 'gold',
            '--conductor-group', 'g', '--unassociated', '--owner', 'p',
            '--limit', '5', '--marker', fakes.NODE_UUID,
            '--sort', 'name:desc'])
        self.assertRequest(self.last(), 'GET', '/v1/nodes', params={
            'provision_state': 'available', 'maintenance': 'True',
            'driver': 'fake-hardware', 'resource_class': 'gold',
            'conductor_group': 'g', 'associated': 'False', 'owner': 'p',
            'limit': 5, 'marker': fakes.NODE_UUID, 'sort_key': 'name',
            'sort_dir': 'desc'})

    def test_label_selector(self):
        self.run_command(node_cmds.ListNode, [
            '--label-selector', 'env=prod,tier in (web,db),!legacy,gpu'])
        self.assertRequest(self.last(), 'GET', '/v1/nodes', params={
            'label_selector': 'env=prod,tier in (web,db),!legacy,gpu'})

    def test_no_maintenance_and_associated(self):
        self.run_command(node_cmds.ListNode,
                         ['--no-maintenance', '--associated'])
        self.assertEqual({'maintenance': 'False', 'associated': 'True'},
                         self.last().params)

    def test_exclusive_options(self):
        self.assertParseFails(node_cmds.ListNode,
                              ['--maintenance', '--no-maintenance'])
        self.assertParseFails(node_cmds.ListNode,
                              ['--associated', '--unassociated'])
        self.assertParseFails(node_cmds.ListNode,
                              ['--long', '--fields', 'uuid'])

    def test_long(self):
        titles, rows = self.rows(self.run_command(node_cmds.ListNode,
                                                  ['--long']))
        self.assertRequest(self.last(), 'GET', '/v1/nodes/detail')
        self.assertEqual('UUID', titles[0])
        self.assertIn('Driver', titles)
        self.assertIn('Properties', titles)
        self.assertNotIn('Links', titles)

    def test_fields(self):
        titles, _rows = self.rows(self.run_command(
            node_cmds.ListNode, ['--fields', 'uuid', 'name',
                                 '--fields', 'driver']))
        self.assertEqual({'fields': 'uuid,name,driver'}, self.last().params)
        self.assertEqual(('UUID', 'Name', 'Driver'), titles)

    def test_negative_limit(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.ListNode, ['--limit', '-1'])


class TestShowNode(base.CommandTestCase):

    def test_show(self):
        self.session.route('GET', '/v1/nodes/node-0',
                           fakes.FakeResponse(200, fakes.node()))
        shown = self.as_dict(self.run_command(node_cmds.ShowNode,
                                              ['node-0']))
        self.assertRequest(self.last(), 'GET', '/v1/nodes/node-0',
                           params={})
        self.assertEqual('enroll', shown['provision_state'])
        self.assertNotIn('links', shown)
        self.assertEqual({}, shown['extra'].machine_readable())

    def test_fields(self):
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, {'uuid': fakes.NODE_UUID, 'links': []}))
        shown = self.as_dict(self.run_command(
            node_cmds.ShowNode, ['n', '--fields', 'uuid', 'links']))
        self.assertEqual({'fields': 'uuid,links'}, self.last().params)
        self.assertEqual(['links', 'uuid'], sorted(shown))

    def test_name_is_quoted(self):
        self.session.route('GET', '/v1/nodes/a%2Fb', fakes.FakeResponse(
            200, fakes.node()))
        self.run_command(node_cmds.ShowNode, ['a/b'])

    def test_not_found(self):
        self.session.route('GET', '/v1/nodes/nope', fakes.fault(
            404, 'Node nope could not be found.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.ShowNode, ['nope'])
        self.assertEqual('Node nope could not be found. (HTTP 404)', str(e))


class TestSetUnsetNode(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node()))

    def test_set(self):
        self.run_command(node_cmds.SetNode, [
            'n', '--name', 'new', '--driver', 'fake-hardware',
            '--property', 'cpus=8', '--extra', 'a=b',
            '--driver-info', 'x=y', '--instance-info', 'image_source=url',
            '--instance-uuid', fakes.NODE_UUID2, '--resource-class', 'rc',
            '--conductor-group', 'g', '--owner', 'o',
            '--description', 'd', '--boot-interface', 'fake',
            '--label', 'k=v'])
        patch = self.last().body
        self.assertIn({'op': 'add', 'path': '/name', 'value': 'new'}, patch)
        self.assertIn({'op': 'add', 'path': '/driver',
                       'value': 'fake-hardware'}, patch)
        self.assertIn({'op': 'add', 'path': '/properties/cpus',
                       'value': 8}, patch)
        self.assertIn({'op': 'add', 'path': '/extra/a', 'value': 'b'},
                      patch)
        self.assertIn({'op': 'add', 'path': '/driver_info/x',
                       'value': 'y'}, patch)
        self.assertIn({'op': 'add', 'path': '/instance_info/image_source',
                       'value': 'url'}, patch)
        self.assertIn({'op': 'add', 'path': '/instance_uuid',
                       'value': fakes.NODE_UUID2}, patch)
        self.assertIn({'op': 'add', 'path': '/resource_class',
                       'value': 'rc'}, patch)
        self.assertIn({'op': 'add', 'path': '/conductor_group',
                       'value': 'g'}, patch)
        self.assertIn({'op': 'add', 'path': '/owner', 'value': 'o'}, patch)
        self.assertIn({'op': 'add', 'path': '/description', 'value': 'd'},
                      patch)
        self.assertIn({'op': 'add', 'path': '/boot_interface',
                       'value': 'fake'}, patch)
        self.assertIn({'op': 'add', 'path': '/labels/k', 'value': 'v'},
                      patch)
        self.assertEqual(13, len(patch))
        self.assertEqual({}, self.last().params)

    def test_set_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.SetNode, ['n'])
        self.assertEqual([], self.requests())

    def test_reset_interfaces(self):
        self.run_command(node_cmds.SetNode, ['n', '--driver', 'd',
                                             '--reset-interfaces'])
        self.assertEqual({'reset_interfaces': 'True'}, self.last().params)

    def test_reset_interfaces_needs_driver(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.SetNode, ['n', '--name', 'x',
                                              '--reset-interfaces'])

    def test_unset(self):
        self.run_command(node_cmds.UnsetNode, [
            'n', '--name', '--instance-uuid', '--resource-class',
            '--conductor-group', '--owner', '--description',
            '--deploy-interface', '--property', 'cpus', '--property', 'a',
            '--extra', 'e', '--driver-info', 'd', '--instance-info', 'i',
            '--label', 'l'])
        self.assertEqual(sorted([
            '/name', '/instance_uuid', '/resource_class',
            '/conductor_group', '/owner', '/description',
            '/deploy_interface', '/properties/cpus', '/properties/a',
            '/extra/e', '/driver_info/d', '/instance_info/i', '/labels/l']),
            sorted(op['path'] for op in self.last().body))
        self.assertTrue(all(op == {'op': 'remove', 'path': op['path']}
                            for op in self.last().body))

    def test_label_keys_are_one_pointer_token(self):
        self.run_command(node_cmds.SetNode, [
            'n', '--label', 'example.com/role=web', '--label', 'a~b=1'])
        self.assertEqual([
            {'op': 'add', 'path': '/labels/example.com~1role',
             'value': 'web'},
            {'op': 'add', 'path': '/labels/a~0b', 'value': '1'}],
            self.last().body)
        self.run_command(node_cmds.UnsetNode, [
            'n', '--label', 'example.com/role', '--label', 'env'])
        self.assertEqual([
            {'op': 'remove', 'path': '/labels/example.com~1role'},
            {'op': 'remove', 'path': '/labels/env'}], self.last().body)

    def test_unset_nothing(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.UnsetNode, ['n'])


class TestDeleteNode(base.CommandTestCase):

    def test_delete_several(self):
        self.session.route('DELETE', '/v1/nodes/.*', fakes.FakeResponse(204))
        self.run_command(node_cmds.DeleteNode, ['a', 'b'])
        self.assertEqual(['/v1/nodes/a', '/v1/nodes/b'],
                         [r.path for r in self.requests()])
        self.assertEqual('Deleted node a\nDeleted node b\n',
                         self.app.stdout.getvalue())

    def test_partial_failure(self):
        self.session.route('DELETE', '/v1/nodes/a', fakes.FakeResponse(204))
        self.session.route('DELETE', '/v1/nodes/b', fakes.fault(
            409, 'Node b is locked by host c.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.DeleteNode, ['a', 'b'])
        self.assertEqual('Failed to delete node b: Node b is locked by host '
                         'c. (HTTP 409)', str(e))


class TestProvisionNode(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PUT', '/v1/nodes/n/states/provision',
                           fakes.FakeResponse(202))
        self.clock = fakes.FakeClock()

    def run_provision(self, command_class, argv):
        """Run with the fake clock in the wait loop."""
        cmd, parsed = self.parse(command_class, argv)
        original = cmd.wait

        def wait(ident, timeout):
            return original(ident, timeout, clock=self.clock.monotonic,
                            sleep=self.clock.sleep)
        cmd.wait = wait
        return cmd.take_action(parsed)

    def test_targets(self):
        for command_class, target in [
                (node_cmds.ManageNode, 'manage'),
                (node_cmds.ProvideNode, 'provide'),
                (node_cmds.DeployNode, 'active'),
                (node_cmds.UndeployNode, 'deleted'),
                (node_cmds.RebuildNode, 'rebuild'),
                (node_cmds.AbortNode, 'abort'),
                (node_cmds.AdoptNode, 'adopt')]:
            self.run_command(command_class, ['n'])
            self.assertRequest(self.last(), 'PUT',
                               '/v1/nodes/n/states/provision',
                               body={'target': target})
        # No --wait: no polling.
        self.assertEqual(7, len(self.requests()))

    def test_clean_steps(self):
        self.run_command(node_cmds.CleanNode, [
            'n', '--clean-steps',
            '[{"interface": "deploy", "step": "erase_devices"}]'])
        self.assertEqual({'target': 'clean', 'clean_steps': [
            {'interface': 'deploy', 'step': 'erase_devices'}]},
            self.last().body)

    def test_clean_steps_required_and_json(self):
        self.assertParseFails(node_cmds.CleanNode, ['n'])
        self.assertParseFails(node_cmds.CleanNode,
                              ['n', '--clean-steps', '[nope'])
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.CleanNode, ['n', '--clean-steps', '{}'])

    def test_deploy_config_drive(self):
        self.run_command(node_cmds.DeployNode,
                         ['n', '--config-drive', 'H4sI'])
        self.assertEqual({'target': 'active', 'configdrive': 'H4sI'},
                         self.last().body)
        self.run_command(node_cmds.DeployNode,
                         ['n', '--config-drive', '{"meta_data": {}}'])
        self.assertEqual({'target': 'active',
                          'configdrive': {'meta_data': {}}},
                         self.last().body)

    def test_abort_has_no_wait(self):
        self.assertParseFails(node_cmds.AbortNode, ['n', '--wait'])

    def test_wait_until_expected_state(self):
        self.session.route('GET', '/v1/nodes/n', *[
            fakes.FakeResponse(200, fakes.node(
                provision_state=state, target_provision_state=target))
            for state, target in [('verifying', 'manageable'),
                                  ('verifying', 'manageable'),
                                  ('manageable', None)]])
        self.run_provision(node_cmds.ManageNode, ['n', '--wait', '30'])
        polls = [r for r in self.requests() if r.method == 'GET']
        self.assertEqual(3, len(polls))
        self.assertEqual({'fields': 'uuid,provision_state,'
                                    'target_provision_state,last_error'},
                         polls[0].params)
        self.assertEqual([0.5, 1.0], self.clock.sleeps)

    def test_wait_without_timeout_value(self):
        _cmd, parsed = self.parse(node_cmds.ProvideNode, ['n', '--wait'])
        self.assertEqual(0, parsed.wait_timeout)
        _cmd, parsed = self.parse(node_cmds.ProvideNode, ['n'])
        self.assertIsNone(parsed.wait_timeout)

    def test_wait_failure_state(self):
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(provision_state='clean failed',
                            target_provision_state=None,
                            last_error='Cleaning failed: disk on fire')))
        e = self.assertRaises(osc_exc.CommandError, self.run_provision,
                              node_cmds.ProvideNode, ['n', '--wait'])
        self.assertEqual('Node n failed to reach provision state '
                         '"available": it is in "clean failed": Cleaning '
                         'failed: disk on fire', str(e))

    def test_wait_unexpected_stable_state(self):
        # Verification failed: the node went back to enroll.
        self.session.route('GET', '/v1/nodes/n', *[
            fakes.FakeResponse(200, fakes.node(
                provision_state=state, target_provision_state=target,
                last_error=error))
            for state, target, error in [
                ('verifying', 'manageable', None),
                ('enroll', None, 'Verification failed: no BMC')]])
        e = self.assertRaises(osc_exc.CommandError, self.run_provision,
                              node_cmds.ManageNode, ['n', '--wait', '10'])
        self.assertIn('it is in "enroll": Verification failed: no BMC',
                      str(e))

    def test_wait_timeout(self):
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(provision_state='cleaning',
                            target_provision_state='available')))
        e = self.assertRaises(osc_exc.CommandError, self.run_provision,
                              node_cmds.ProvideNode, ['n', '--wait', '5'])
        self.assertEqual('Timed out after 5 seconds: Waiting for node n to '
                         'reach "available": it is in "cleaning".', str(e))
        self.assertEqual(5, sum(self.clock.sleeps))
        self.assertLess(len(self.requests()), 10)

    def test_error_of_the_action_is_not_waited_for(self):
        self.session.route('PUT', '/v1/nodes/n/states/provision',
                           fakes.fault(400, 'The requested action "provide" '
                                            'can not be performed on node '
                                            '"n" while it is in state '
                                            '"enroll".'))
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.ProvideNode, ['n', '--wait'])
        self.assertEqual(1, len(self.requests()))


class TestOldServer(base.CommandTestCase):
    MAX_VERSION = '1.10'

    def test_clean_refused_before_sending(self):
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.CleanNode,
                              ['n', '--clean-steps', '[]'])
        self.assertIn('1.15', str(e))
        self.assertEqual([], self.requests())

    def test_traits_refused(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_traits.ListTraitsNode, ['n'])


class TestVeryOldServer(base.CommandTestCase):
    MAX_VERSION = '1.6'

    def test_wait_polls_without_fields(self):
        self.session.route('PUT', '/v1/nodes/n/states/provision',
                           fakes.FakeResponse(202))
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(provision_state='manageable')))
        self.run_command(node_cmds.ManageNode, ['n', '--wait', '5'])
        self.assertEqual({}, self.last().params)
        self.assertEqual('1.6', self.last().headers[http.VERSION_HEADER])


class TestPowerNode(base.CommandTestCase):

    def setUp(self):
        super().setUp()
        self.session.route('PUT', '/v1/nodes/n/states/power',
                           fakes.FakeResponse(202))

    def test_targets(self):
        for command_class, argv, body in [
                (node_cmds.PowerOnNode, [], {'target': 'power on'}),
                (node_cmds.PowerOffNode, [], {'target': 'power off'}),
                (node_cmds.PowerOffNode, ['--soft'],
                 {'target': 'soft power off'}),
                (node_cmds.RebootNode, [], {'target': 'rebooting'}),
                (node_cmds.RebootNode, ['--soft', '--power-timeout', '9'],
                 {'target': 'soft rebooting', 'timeout': 9}),
                (node_cmds.PowerOnNode, ['--power-timeout', '30'],
                 {'target': 'power on', 'timeout': 30})]:
            self.run_command(command_class, ['n'] + argv)
            self.assertRequest(self.last(), 'PUT',
                               '/v1/nodes/n/states/power', body=body)

    def test_power_on_has_no_soft(self):
        self.assertParseFails(node_cmds.PowerOnNode, ['n', '--soft'])

    def test_bad_timeout(self):
        self.assertRaises(osc_exc.CommandError, self.run_command,
                          node_cmds.PowerOffNode,
                          ['n', '--power-timeout', '0'])


class TestMaintenanceNode(base.CommandTestCase):

    def test_set_with_reason(self):
        self.session.route('PUT', '/v1/nodes/n/maintenance',
                           fakes.FakeResponse(202))
        self.run_command(node_cmds.MaintenanceSetNode,
                         ['n', '--reason', 'broken fan'])
        self.assertEqual({'reason': 'broken fan'}, self.last().body)

    def test_set_without_reason(self):
        self.session.route('PUT', '/v1/nodes/n/maintenance',
                           fakes.FakeResponse(202))
        self.run_command(node_cmds.MaintenanceSetNode, ['n'])
        self.assertEqual({}, self.last().body)

    def test_unset(self):
        self.session.route('DELETE', '/v1/nodes/n/maintenance',
                           fakes.FakeResponse(202))
        self.run_command(node_cmds.MaintenanceUnsetNode, ['n'])
        self.assertRequest(self.last(), 'DELETE', '/v1/nodes/n/maintenance')


class TestTraitsNode(base.CommandTestCase):

    def test_add(self):
        self.session.route('PUT', '/v1/nodes/n/traits/.*',
                           fakes.FakeResponse(204))
        self.run_command(node_traits.AddTraitNode,
                         ['n', 'CUSTOM_A', 'CUSTOM_B'])
        self.assertEqual(['/v1/nodes/n/traits/CUSTOM_A',
                          '/v1/nodes/n/traits/CUSTOM_B'],
                         [r.path for r in self.requests()])
        self.assertIsNone(self.last().body)

    def test_remove(self):
        self.session.route('DELETE', '/v1/nodes/n/traits/.*',
                           fakes.FakeResponse(204))
        self.run_command(node_traits.RemoveTraitNode, ['n', 'CUSTOM_A'])
        self.assertRequest(self.last(), 'DELETE',
                           '/v1/nodes/n/traits/CUSTOM_A')

    def test_remove_all(self):
        self.session.route('DELETE', '/v1/nodes/n/traits',
                           fakes.FakeResponse(204))
        self.run_command(node_traits.RemoveTraitNode, ['n', '--all'])
        self.assertRequest(self.last(), 'DELETE', '/v1/nodes/n/traits')

    def test_remove_needs_traits_or_all(self):
        for argv in (['n'], ['n', 'CUSTOM_A', '--all']):
            self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_traits.RemoveTraitNode, argv)
        self.assertEqual([], self.requests())

    def test_remove_missing_trait(self):
        self.session.route('DELETE', '/v1/nodes/n/traits/.*', fakes.fault(
            404, 'Node n has no trait CUSTOM_X.'))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_traits.RemoveTraitNode, ['n', 'CUSTOM_X'])
        self.assertIn('Node n has no trait CUSTOM_X.', str(e))

    def test_list(self):
        self.session.route('GET', '/v1/nodes/n/traits', fakes.FakeResponse(
            200, {'traits': ['CUSTOM_A', 'CUSTOM_B']}))
        titles, rows = self.rows(self.run_command(node_traits.ListTraitsNode,
                                                  ['n']))
        self.assertEqual(('Traits',), titles)
        self.assertEqual([('CUSTOM_A',), ('CUSTOM_B',)], rows)


class TestNodeChassisAndFlags(base.CommandTestCase):
    """--chassis-uuid and the node flags: protected (1.48), retired
    (1.61), automated_clean (1.47) and the fault filter (1.42)."""

    MAX_VERSION = '1.62'

    def setUp(self):
        super().setUp()
        self.session.route('PATCH', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node()))
        self.session.route('GET', '/v1/nodes(/detail)?', fakes.FakeResponse(
            200, {'nodes': [fakes.node(
                chassis_uuid=fakes.NODE_UUID2, fault=None, protected=False,
                protected_reason=None, retired=True, retired_reason='EOL',
                automated_clean=None)]}))

    def use_version(self, version):
        self.client = self.app.client_manager.baremetal = http.Client(
            self.session, fakes.ENDPOINT, version)

    def test_create_with_chassis(self):
        self.session.route('POST', '/v1/nodes',
                           fakes.FakeResponse(201, fakes.node()))
        self.run_command(node_cmds.CreateNode, [
            '--driver', 'd', '--chassis-uuid', fakes.NODE_UUID2])
        self.assertEqual({'driver': 'd', 'chassis_uuid': fakes.NODE_UUID2},
                         self.last().body)

    def test_set_flags(self):
        self.run_command(node_cmds.SetNode, [
            'n', '--chassis-uuid', fakes.NODE_UUID2, '--protected',
            '--protected-reason', 'prod', '--retired',
            '--retired-reason', 'EOL', '--automated-clean'])
        self.assertEqual([
            {'op': 'add', 'path': '/chassis_uuid',
             'value': fakes.NODE_UUID2},
            {'op': 'add', 'path': '/automated_clean', 'value': True},
            {'op': 'add', 'path': '/protected', 'value': True},
            {'op': 'add', 'path': '/protected_reason', 'value': 'prod'},
            {'op': 'add', 'path': '/retired', 'value': True},
            {'op': 'add', 'path': '/retired_reason', 'value': 'EOL'}],
            self.last().body)
        # The negotiated version: the highest this plugin knows.
        self.assertEqual('1.62', self.last().headers[http.VERSION_HEADER])

    def test_set_no_automated_clean(self):
        self.run_command(node_cmds.SetNode, ['n', '--no-automated-clean'])
        self.assertEqual([{'op': 'add', 'path': '/automated_clean',
                           'value': False}], self.last().body)
        self.assertParseFails(node_cmds.SetNode, [
            'n', '--automated-clean', '--no-automated-clean'])

    def test_unset_flags(self):
        self.run_command(node_cmds.UnsetNode, [
            'n', '--chassis-uuid', '--protected', '--protected-reason',
            '--retired', '--retired-reason', '--automated-clean'])
        self.assertEqual([
            {'op': 'remove', 'path': '/chassis_uuid'},
            {'op': 'remove', 'path': '/automated_clean'},
            {'op': 'remove', 'path': '/protected'},
            {'op': 'remove', 'path': '/protected_reason'},
            {'op': 'remove', 'path': '/retired'},
            {'op': 'remove', 'path': '/retired_reason'}], self.last().body)

    def test_flag_versions(self):
        # Each flag needs its version; nothing is sent below it.
        for version, argv, needed in (
                ((1, 46), ['--automated-clean'], '1.47'),
                ((1, 47), ['--protected'], '1.48'),
                ((1, 47), ['--protected-reason', 'x'], '1.48'),
                ((1, 60), ['--retired'], '1.61'),
                ((1, 60), ['--retired-reason', 'x'], '1.61')):
            self.use_version(version)
            for command_class, args in (
                    (node_cmds.SetNode, argv),
                    (node_cmds.UnsetNode, argv[:1])):
                e = self.assertRaises(osc_exc.CommandError,
                                      self.run_command, command_class,
                                      ['n'] + args)
                self.assertIn('%s: API version %s or later is needed'
                              % (argv[0], needed), str(e))
        self.assertEqual([], self.requests())
        # At their versions they go through.
        self.use_version((1, 48))
        self.run_command(node_cmds.SetNode, ['n', '--protected',
                                             '--automated-clean'])
        self.assertEqual('1.48', self.last().headers[http.VERSION_HEADER])
        self.run_command(node_cmds.UnsetNode, ['n', '--protected'])
        self.assertEqual('PATCH', self.last().method)

    def test_chassis_needs_no_version(self):
        self.use_version((1, 1))
        self.run_command(node_cmds.SetNode,
                         ['n', '--chassis-uuid', fakes.NODE_UUID2])
        self.run_command(node_cmds.UnsetNode, ['n', '--chassis-uuid'])
        self.run_command(node_cmds.ListNode, ['--chassis', fakes.NODE_UUID2])
        self.assertEqual(['1.1'] * 3, [r.headers[http.VERSION_HEADER]
                                       for r in self.requests()])

    def test_list_filters(self):
        self.run_command(node_cmds.ListNode, [
            '--chassis', fakes.NODE_UUID2, '--fault', 'power failure',
            '--retired'])
        self.assertRequest(self.last(), 'GET', '/v1/nodes', params={
            'chassis_uuid': fakes.NODE_UUID2, 'fault': 'power failure',
            'retired': 'True'})
        for flag in ('--unretired', '--no-retired'):
            self.run_command(node_cmds.ListNode, [flag])
            self.assertEqual({'retired': 'False'}, self.last().params)
        self.assertParseFails(node_cmds.ListNode,
                              ['--retired', '--unretired'])

    def test_list_filter_versions(self):
        self.use_version((1, 41))
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.ListNode, ['--fault', 'x'])
        self.assertIn('--fault: API version 1.42', str(e))
        self.use_version((1, 60))
        self.run_command(node_cmds.ListNode, ['--fault', 'x'])
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.ListNode, ['--unretired'])
        self.assertIn('API version 1.61', str(e))
        self.assertEqual(1, len(self.requests()))

    def test_retired_needs_a_server_of_1_61(self):
        self.session.max_version = '1.60'
        e = self.assertRaises(osc_exc.CommandError, self.run_command,
                              node_cmds.SetNode, ['n', '--retired'])
        self.assertIn('the server supports versions up to 1.60', str(e))

    def test_long_columns(self):
        titles, rows = self.rows(self.run_command(node_cmds.ListNode,
                                                  ['--long']))
        for title in ('Chassis UUID', 'Fault', 'Protected',
                      'Protected Reason', 'Retired', 'Retired Reason',
                      'Automated Clean'):
            self.assertIn(title, titles)
        # In LONG_FIELDS' order, not the server's field names'.
        self.assertLess(titles.index('Chassis UUID'),
                        titles.index('Instance UUID'))
        self.assertLess(titles.index('Maintenance'), titles.index('Fault'))
        row = dict(zip(titles, rows[0]))
        self.assertEqual('EOL', row['Retired Reason'])

    def test_portgroups_links_hidden(self):
        # From 1.24 a node links to its port groups: links, not data.
        self.session.route('GET', '/v1/nodes/n', fakes.FakeResponse(
            200, fakes.node(portgroups=[{'href': 'x', 'rel': 'self'}])))
        shown = self.as_dict(self.run_command(node_cmds.ShowNode, ['n']))
        self.assertNotIn('portgroups', shown)
