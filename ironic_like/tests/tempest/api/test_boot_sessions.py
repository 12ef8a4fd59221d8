"""Boot sessions (/v1/boot, doc/boot-sessions.md): the version document,
session templates, sessions (preview, staged sessions, abort), components,
options, who may read and write them, and the booted OS's public report.

Every test makes its own fake-hardware nodes, labelled with a group of
its own (``group.<random>``), and its templates select that group only,
so that a session acts on the test's nodes and nothing else. Sessions
are staged (``stage: true``): their components get a staged state and
nothing is powered. Options are global: the one test that changes one
picks an option no session here reads, and restores it.
"""

import json

from tempest.lib import decorators
from tempest.lib import exceptions as lib_exc

from ironic_like.tests.tempest.api import base

KERNEL = 'http://127.0.0.1:9/tempest/vmlinuz'
INITRD = 'http://127.0.0.1:9/tempest/initrd.img'
BOOT_SET = 'compute'
# An option that no session of these tests reads (they are staged:
# nothing boots), so that changing it for a moment disturbs no other test.
OPTION = 'max_boot_wait_time'


def fault(exc):
    """The message of an API error (tempest.lib exception): Ironic's
    body, whose ``error_message`` is a JSON document."""
    body = exc.resp_body
    if isinstance(body, dict) and 'error_message' in body:
        body = body['error_message']
    if isinstance(body, str):
        try:
            body = json.loads(body)
        except ValueError:
            return body
    if isinstance(body, dict):
        return body.get('faultstring') or json.dumps(body)
    return str(body)


class BootTestBase(base.BaseBaremetalLikeTest):
    """The boot client of tempest's system admin, and helpers that create
    nodes, templates and sessions and always clean them up."""

    # Node names (1.5) and everything else the node helpers use.
    min_microversion = '1.52'

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.boot = cls.make_boot_client(cls.os_system_admin)

    @classmethod
    def make_boot_client(cls, manager):
        # /v1/boot takes no Ironic microversion: none is sent.
        return manager.baremetal_like_boot.BootClient()

    def assertFault(self, exc_class, field, func, *args, **kwargs):
        """``func`` fails with ``exc_class`` and, when ``field`` is given,
        its message names that field; returns the message."""
        exc = self.assertRaises(exc_class, func, *args, **kwargs)
        message = fault(exc)
        if field is not None:
            self.assertIn('field/attribute %s. ' % field, message)
        return message

    # -- resources -----------------------------------------------------------

    def create_group_nodes(self, count=2, **fields):
        """``count`` fake-hardware nodes in a group of their own:
        (group, [nodes]) with the nodes sorted by name."""
        group = base.rand_name('tempest-group')
        nodes = [self.create_node(labels={'group.%s' % group: 'yes'},
                                  **fields) for _ in range(count)]
        return group, sorted(nodes, key=lambda node: node['name'])

    def boot_set(self, group, **fields):
        boot_set = {'kernel': KERNEL, 'initrd': INITRD,
                    'kernel_parameters': 'console=ttyS0',
                    'node_groups': [group]}
        boot_set.update(fields)
        return boot_set

    def create_template(self, group=None, name=None, boot_sets=None,
                        **fields):
        """A template (removed at the end of the test) whose one boot set
        boots the nodes of ``group`` from a kernel and an initrd."""
        name = name or base.rand_name('tempest-template')
        if boot_sets is None:
            boot_sets = {BOOT_SET: self.boot_set(group)}
        fields.setdefault('enable_cfs', False)
        template = self.boot.put_template(name, dict(fields,
                                                     boot_sets=boot_sets))
        self.addCleanup(self._ignore_not_found, self.boot.delete_template,
                        name)
        return template

    def create_session(self, template_name, **fields):
        """A staged boot session (aborted and deleted at the end of the
        test)."""
        fields.setdefault('name', base.rand_name('tempest-session'))
        fields.setdefault('operation', 'boot')
        fields.setdefault('stage', True)
        session = self.boot.create_session(template_name=template_name,
                                           **fields)
        self.addCleanup(self._delete_session, session['name'])
        return session

    def _delete_session(self, name):
        try:
            self.boot.abort_session(name)
        except (lib_exc.NotFound, lib_exc.Conflict):
            pass
        self._ignore_not_found(self.boot.delete_session, name)

    def wait_for_session(self, name, status):
        def reached():
            session = self.boot.show_session(name)
            return session['status']['status'] == status and session
        return self.wait_for(reached, 'session %s to be %s' % (name, status))


class TestBootVersion(BootTestBase):

    @decorators.idempotent_id('b24c0e00-8581-4a49-a007-700a89507a23')
    def test_version_document(self):
        version = self.boot.show_version()
        self.assertEqual('v2', version['id'])
        self.assertTrue(version['bos_version'].startswith('2.'),
                        version['bos_version'])
        rels = {link['rel']: link['href'] for link in version['links']}
        self.assertTrue(rels['self'].endswith('/v1/boot'), rels)
        for resource in ('sessiontemplates', 'sessiontemplatesvalid',
                         'sessiontemplatetemplate', 'sessions',
                         'components', 'applystaged', 'options'):
            self.assertTrue(rels[resource].endswith('/v1/boot/' + resource),
                            rels)
        for addition in ('preview', 'abort', 'report'):
            self.assertIn(addition, version['additions'])

    @decorators.idempotent_id('d3c08103-8999-4aa4-8ba7-7cb45681b821')
    def test_example_template_is_valid(self):
        # The example can be stored as it is, and is valid for a boot.
        example = self.boot.show_example_template()
        self.assertIn('boot_sets', example)
        name = base.rand_name('tempest-example')
        stored = self.create_template(name=name, **example)
        self.assertEqual(name, stored['name'])
        self.assertEqual(sorted(example['boot_sets']),
                         sorted(stored['boot_sets']))
        self.assertEqual('Valid', self.boot.validate_template(name).data)


class TestBootTemplates(BootTestBase):

    @decorators.idempotent_id('0fffdfc3-8e26-4685-b18d-1924cf8fa038')
    def test_template_crud(self):
        group = base.rand_name('tempest-group')
        name = base.rand_name('tempest-template')
        template = self.create_template(group, name=name,
                                        description='made by tempest')
        self.assertEqual(name, template['name'])
        self.assertIsNone(template['tenant'])
        self.assertEqual('made by tempest', template['description'])
        self.assertFalse(template['enable_cfs'])
        self.assertEqual({BOOT_SET}, set(template['boot_sets']))
        boot_set = template['boot_sets'][BOOT_SET]
        self.assertEqual(KERNEL, boot_set['kernel'])
        self.assertEqual(INITRD, boot_set['initrd'])
        self.assertEqual([group], boot_set['node_groups'])
        self.assertTrue(template['links'][0]['href'].endswith(
            '/v1/boot/sessiontemplates/%s' % name), template['links'])
        # Show and list.
        shown = self.boot.show_template(name)
        self.assertEqual(dict(template), dict(shown))
        listed = {t['name']: t for t in self.boot.list_templates()}
        self.assertIn(name, listed)
        self.assertEqual(template['boot_sets'], listed[name]['boot_sets'])
        # PATCH the description: the boot sets stay as they were.
        patched = self.boot.update_template(
            name, {'description': 'patched by tempest'})
        self.assertEqual('patched by tempest', patched['description'])
        self.assertEqual(template['boot_sets'], patched['boot_sets'])
        self.assertEqual('patched by tempest',
                         self.boot.show_template(name)['description'])
        # Valid for a boot.
        self.assertEqual('Valid', self.boot.validate_template(name).data)
        # Delete, then it is gone everywhere.
        self.boot.delete_template(name)
        self.assertRaises(lib_exc.NotFound, self.boot.show_template, name)
        self.assertRaises(lib_exc.NotFound, self.boot.validate_template,
                          name)
        self.assertRaises(lib_exc.NotFound, self.boot.update_template, name,
                          {'description': 'gone'})
        self.assertRaises(lib_exc.NotFound, self.boot.delete_template, name)
        self.assertNotIn(name, [t['name']
                                for t in self.boot.list_templates()])

    @decorators.idempotent_id('b55d8519-f198-4326-95f3-cf1dfc104df1')
    def test_template_not_valid_for_boot(self):
        # Without artifacts a template may be stored (a shutdown needs
        # none), but it is not valid for a boot: the messages say why.
        group = base.rand_name('tempest-group')
        name = base.rand_name('tempest-template')
        self.create_template(name=name, boot_sets={
            BOOT_SET: {'node_groups': [group]}})
        validity = self.boot.validate_template(name).data
        self.assertNotEqual('Valid', validity)
        self.assertIn("boot set '%s'" % BOOT_SET, validity)
        self.assertIn('needs boot artifacts', validity)
        # Nor can a boot session use it (400 naming the template).
        message = self.assertFault(lib_exc.BadRequest, 'template_name',
                                   self.boot.create_session,
                                   operation='boot', template_name=name,
                                   stage=True)
        self.assertIn('needs boot artifacts', message)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('3f170719-00ef-402d-8d8f-e34e8fb5ec5d')
    def test_template_bad_request(self):
        group = base.rand_name('tempest-group')
        name = base.rand_name('tempest-template')
        good = self.boot_set(group)
        bad = [
            # (field named, template)
            ('boot_sets', {'description': 'no boot sets'}),
            ('boot_sets', {'boot_sets': {}}),
            ('boot_sets', {'boot_sets': {BOOT_SET: dict(good,
                                                        arch='PowerPC')}}),
            ('colour', {'colour': 'blue', 'boot_sets': {BOOT_SET: good}}),
            # No hardware specifier.
            ('boot_sets.%s' % BOOT_SET,
             {'boot_sets': {BOOT_SET: dict(good, node_groups=[])}}),
            # A boot set named other than its key.
            ('boot_sets.%s.name' % BOOT_SET,
             {'boot_sets': {BOOT_SET: dict(good, name='other')}}),
            # A boot manifest and a kernel at once.
            ('boot_sets.%s' % BOOT_SET,
             {'boot_sets': {BOOT_SET: dict(
                 good, type='http',
                 path='http://127.0.0.1:9/manifest.json')}}),
            ('boot_sets.%s.kernel' % BOOT_SET,
             {'boot_sets': {BOOT_SET: dict(good, kernel='ftp://x/vmlinuz')}}),
        ]
        for field, template in bad:
            self.assertFault(lib_exc.BadRequest, field,
                             self.boot.put_template, name, template)
        # A bad name in the path.
        self.assertFault(lib_exc.BadRequest, 'name', self.boot.put_template,
                         '-bad-name-', {'boot_sets': {BOOT_SET: good}})
        # Nothing was stored.
        self.assertRaises(lib_exc.NotFound, self.boot.show_template, name)
        # A PATCH that would make a stored template bad is refused too,
        # and changes nothing.
        self.create_template(group, name=name)
        self.assertFault(lib_exc.BadRequest, 'boot_sets',
                         self.boot.update_template, name,
                         {'boot_sets': {BOOT_SET: {'arch': 'PowerPC'}}})
        self.assertFault(lib_exc.BadRequest, 'boot_sets.%s' % BOOT_SET,
                         self.boot.update_template, name,
                         {'boot_sets': {BOOT_SET: {'node_groups': []}}})
        self.assertEqual([group], self.boot.show_template(name)[
            'boot_sets'][BOOT_SET]['node_groups'])
        self.assertFault(lib_exc.BadRequest, 'name',
                         self.boot.update_template, name, {'name': 'other'})


class TestBootSessions(BootTestBase):

    @decorators.idempotent_id('989778f2-3167-4f89-bdb7-c21a4b08a25e')
    def test_preview(self):
        group, nodes = self.create_group_nodes(3)
        first, second, third = (node['name'] for node in nodes)
        # The third is in maintenance: not enabled, so left out.
        self.client.set_maintenance(third, 'tempest: disabled')
        template = self.create_template(group)
        preview = self.boot.preview_session(
            operation='boot', template_name=template['name'])
        self.assertEqual(template['name'], preview['template_name'])
        self.assertEqual('boot', preview['operation'])
        self.assertEqual({BOOT_SET}, set(preview['boot_sets']))
        selection = preview['boot_sets'][BOOT_SET]
        self.assertEqual([first, second], selection['nodes'])
        self.assertEqual([{'id': third, 'reason': 'disabled'}],
                         selection['excluded'])
        # A limit: the nodes it leaves out say so.
        preview = self.boot.preview_session(
            operation='reboot', template_name=template['name'],
            limit='all,!%s' % first)
        selection = preview['boot_sets'][BOOT_SET]
        self.assertEqual([second], selection['nodes'])
        self.assertEqual([{'id': first, 'reason': 'limit'},
                          {'id': third, 'reason': 'disabled'}],
                         selection['excluded'])
        # include_disabled takes the third too.
        preview = self.boot.preview_session(
            operation='shutdown', template_name=template['name'],
            include_disabled=True)
        self.assertEqual([first, second, third],
                         preview['boot_sets'][BOOT_SET]['nodes'])
        # Nothing was changed: no session, nothing staged.
        self.assertNotIn(template['name'], [
            s['template_name'] for s in self.boot.list_sessions()])
        for component in self.boot.list_components(
                ids=[first, second, third]):
            self.assertEqual({}, component['staged_state'])
            self.assertEqual({}, component['desired_state'])
            self.assertEqual('', component['session'])

    @decorators.idempotent_id('931b3c3d-4463-4bf4-8478-4f4b8f6b3929')
    def test_staged_session(self):
        group, nodes = self.create_group_nodes(2)
        names = [node['name'] for node in nodes]
        template = self.create_template(group)
        name = base.rand_name('tempest-session')
        session = self.create_session(template['name'], name=name)
        self.assertEqual(name, session['name'])
        self.assertEqual('boot', session['operation'])
        self.assertEqual(template['name'], session['template_name'])
        self.assertTrue(session['stage'])
        self.assertFalse(session['include_disabled'])
        self.assertIn(session['status']['status'], ('pending', 'running'))
        self.assertIsNone(session['status']['error'])
        # Set up by a conductor: running, its components staged.
        session = self.wait_for_session(name, 'running')
        self.assertEqual(','.join(names), session['components'])
        self.assertIn(name, [s['name'] for s in self.boot.list_sessions()])
        self.assertIn(name, [s['name'] for s in self.boot.list_sessions(
            status='running')])
        self.assertNotIn(name, [s['name'] for s in self.boot.list_sessions(
            status='complete')])
        staged = self.boot.list_components(staged_session=name)
        self.assertEqual(names, sorted(c['id'] for c in staged))
        for component in staged:
            self.assertEqual(name, component['staged_state']['session'])
            artifacts = component['staged_state']['boot_artifacts']
            self.assertEqual(KERNEL, artifacts['kernel'])
            self.assertEqual(INITRD, artifacts['initrd'])
            self.assertIn('console=ttyS0', artifacts['kernel_parameters'])
            # Staged only: nothing desired, nothing enabled.
            self.assertFalse(component['enabled'])
            self.assertEqual({}, component['desired_state'])
        status = self.boot.show_session_status(name)
        self.assertEqual('running', status['status'])
        self.assertEqual(2, status['managed_components_count'])
        self.assertEqual(100.0, status['percent_staged'])
        self.assertEqual(0.0, status['percent_failed'])
        self.assertEqual(2, status['counts']['total'])
        self.assertEqual(2, status['counts']['staged'])
        self.assertEqual({BOOT_SET}, set(status['boot_sets']))
        self.assertEqual(2, status['boot_sets'][BOOT_SET]['total'])
        self.assertEqual([], status['failed_nodes'])
        for key in ('percent_complete', 'percent_powering_on',
                    'percent_powering_off', 'percent_configuring'):
            self.assertIn(key, status['phases'])
        self.assertIsNotNone(status['timing']['start_time'])
        # Abort: complete, error "aborted", nothing staged any more.
        aborted = self.boot.abort_session(name)
        self.assertEqual('complete', aborted['status']['status'])
        self.assertEqual('aborted', aborted['status']['error'])
        self.assertIsNotNone(aborted['status']['end_time'])
        self.assertEqual('complete',
                         self.boot.show_session(name)['status']['status'])
        self.assertEqual('complete',
                         self.boot.show_session_status(name)['status'])
        self.assertEqual([], self.boot.list_components(staged_session=name))
        self.assertRaises(lib_exc.Conflict, self.boot.abort_session, name)
        # Nothing was powered (fake-hardware nodes start off; the
        # conductors' power sync may have recorded that meanwhile).
        for node in names:
            states = self.client.show_node_states(node)
            self.assertIn(states['power_state'], (None, 'power off'))
            self.assertIsNone(states['target_power_state'])
            component = self.boot.show_component(node)
            self.assertFalse(component['enabled'])
            self.assertEqual({}, component['desired_state'])
            self.assertFalse(component['event_stats'].get(
                'power_on_attempts'))
        # Delete the record: gone.
        self.boot.delete_session(name)
        self.assertRaises(lib_exc.NotFound, self.boot.show_session, name)
        self.assertRaises(lib_exc.NotFound, self.boot.show_session_status,
                          name)
        self.assertRaises(lib_exc.NotFound, self.boot.abort_session, name)
        self.assertRaises(lib_exc.NotFound, self.boot.delete_session, name)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('88d59c25-91d2-43aa-b8ab-ce01f9dedea2')
    def test_session_bad_request_and_conflict(self):
        group, nodes = self.create_group_nodes(2)
        template = self.create_template(group)
        name = base.rand_name('tempest-session')
        unknown = base.rand_name('tempest-no-such-node')
        # A limit naming nothing known: 400 naming the token, for a
        # session and for a preview.
        for call in (self.boot.create_session, self.boot.preview_session):
            message = self.assertFault(
                lib_exc.BadRequest, 'limit', call, name=name,
                operation='boot', template_name=template['name'],
                limit='%s,%s' % (nodes[0]['name'], unknown), stage=True)
            self.assertIn(unknown, message)
        # An empty token.
        self.assertFault(lib_exc.BadRequest, 'limit',
                         self.boot.create_session, name=name,
                         operation='boot', template_name=template['name'],
                         limit='%s,' % nodes[0]['name'], stage=True)
        # An unknown template, operation or field.
        self.assertFault(lib_exc.BadRequest, 'template_name',
                         self.boot.create_session, name=name,
                         operation='boot', stage=True,
                         template_name=base.rand_name('tempest-no-such'))
        self.assertFault(lib_exc.BadRequest, 'operation',
                         self.boot.create_session, name=name,
                         operation='explode', stage=True,
                         template_name=template['name'])
        self.assertFault(lib_exc.BadRequest, 'colour',
                         self.boot.create_session, name=name,
                         operation='boot', stage=True, colour='blue',
                         template_name=template['name'])
        self.assertRaises(lib_exc.NotFound, self.boot.show_session, name)
        # A name already taken: 409.
        self.create_session(template['name'], name=name)
        message = fault(self.assertRaises(
            lib_exc.Conflict, self.boot.create_session, name=name,
            operation='boot', template_name=template['name'], stage=True))
        self.assertIn(name, message)
        self.assertEqual(1, [s['name'] for s in self.boot.list_sessions()
                             ].count(name))


class TestBootComponents(BootTestBase):

    @decorators.idempotent_id('120f7c65-390b-4138-91c4-16bf500bff88')
    def test_list_show_patch(self):
        _group, nodes = self.create_group_nodes(2)
        names = [node['name'] for node in nodes]
        unknown = base.rand_name('tempest-no-such-node')
        # ids: those components only (an unknown id matches nothing).
        listed = {c['id']: c for c in self.boot.list_components(
            ids=names + [unknown])}
        self.assertEqual(names, sorted(listed))
        self.assertEqual([], self.boot.list_components(ids=[unknown]))
        # One: its id is the node's name, whether asked by name or UUID.
        component = self.boot.show_component(names[0])
        self.assertEqual(names[0], component['id'])
        self.assertEqual(component['id'],
                         self.boot.show_component(nodes[0]['uuid'])['id'])
        for field in ('actual_state', 'desired_state', 'staged_state',
                      'last_action', 'event_stats', 'status', 'enabled',
                      'error', 'session', 'retry_policy'):
            self.assertIn(field, component)
        self.assertFalse(component['enabled'])
        self.assertEqual('', component['session'])
        # PATCH its retry policy; the other is untouched.
        patched = self.boot.update_component(names[0], {'retry_policy': 5})
        self.assertEqual(names[0], patched['id'])
        self.assertEqual(5, patched['retry_policy'])
        self.assertEqual(5, self.boot.show_component(names[0])[
            'retry_policy'])
        self.assertEqual(component['enabled'], patched['enabled'])
        self.assertEqual(listed[names[1]]['retry_policy'],
                         self.boot.show_component(names[1])['retry_policy'])
        # An id in the body is ignored: the path names the component.
        patched = self.boot.update_component(
            names[0], {'id': names[1], 'retry_policy': 2})
        self.assertEqual(names[0], patched['id'])
        self.assertEqual(2, patched['retry_policy'])
        self.assertEqual(listed[names[1]]['retry_policy'],
                         self.boot.show_component(names[1])['retry_policy'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('1533b97d-dc27-4a10-b2ce-253dec3861e9')
    def test_not_found_and_bad_request(self):
        _group, nodes = self.create_group_nodes(1)
        unknown = base.rand_name('tempest-no-such-node')
        self.assertRaises(lib_exc.NotFound, self.boot.show_component,
                          unknown)
        self.assertRaises(lib_exc.NotFound, self.boot.update_component,
                          unknown, {'retry_policy': 1})
        name = nodes[0]['name']
        self.assertFault(lib_exc.BadRequest, 'retry_policy',
                         self.boot.update_component, name,
                         {'retry_policy': -2})
        self.assertFault(lib_exc.BadRequest, 'colour',
                         self.boot.update_component, name, {'colour': 'x'})
        self.assertRaises(lib_exc.BadRequest, self.boot.update_component,
                          name, {})
        self.assertFault(lib_exc.BadRequest, 'phase',
                         self.boot.list_components, phase='exploding')


class TestBootOptions(BootTestBase):

    @decorators.idempotent_id('2c6c3a63-5627-4bce-8073-949772f3c596')
    def test_show_and_update(self):
        options = self.boot.show_options()
        for name in ('polling_frequency', 'default_retry_policy',
                     'session_limit_required', 'reject_nids',
                     'component_actual_state_ttl', OPTION):
            self.assertIn(name, options)
        old = options[OPTION]
        self.addCleanup(self.boot.update_options, **{OPTION: old})
        updated = self.boot.update_options(**{OPTION: old + 1})
        self.assertEqual(old + 1, updated[OPTION])
        # The others are as they were.
        self.assertEqual(dict(options, **{OPTION: old + 1}), dict(updated))
        self.assertEqual(old + 1, self.boot.show_options()[OPTION])
        restored = self.boot.update_options(**{OPTION: old})
        self.assertEqual(old, restored[OPTION])
        self.assertEqual(dict(options), dict(self.boot.show_options()))

    @decorators.attr(type='negative')
    @decorators.idempotent_id('7da31561-b0ab-4e28-97be-802be26e767c')
    def test_bad_request(self):
        options = self.boot.show_options()
        self.assertFault(lib_exc.BadRequest, 'tempest_no_such_option',
                         self.boot.update_options,
                         tempest_no_such_option=1)
        # Values out of range or of the wrong type, named too.
        self.assertFault(lib_exc.BadRequest, OPTION,
                         self.boot.update_options, **{OPTION: -1})
        self.assertFault(lib_exc.BadRequest, 'reject_nids',
                         self.boot.update_options, reject_nids='false')
        self.assertFault(lib_exc.BadRequest, 'component_actual_state_ttl',
                         self.boot.update_options,
                         component_actual_state_ttl='30m')
        self.assertRaises(lib_exc.BadRequest, self.boot.update_options)
        # Nothing was stored (every value is checked before any is).
        self.assertFault(lib_exc.BadRequest, 'tempest_no_such_option',
                         self.boot.update_options,
                         **{OPTION: options[OPTION] + 1,
                            'tempest_no_such_option': 1})
        self.assertEqual(dict(options), dict(self.boot.show_options()))


class TestBootPolicy(BootTestBase):
    """baremetal:boot:get is for readers of the whole fleet (system
    scope), baremetal:boot:write for admins only."""

    credentials = ['system_admin', 'system_reader', 'project_reader',
                   'project_admin']

    @classmethod
    def setup_clients(cls):
        super().setup_clients()
        cls.system_reader = cls.make_boot_client(cls.os_system_reader)
        cls.project_reader = cls.make_boot_client(cls.os_project_reader)
        cls.project_admin = cls.make_boot_client(cls.os_project_admin)

    @decorators.attr(type='negative')
    @decorators.idempotent_id('f5d8d26a-1829-4254-b0e2-72a0ab18c68f')
    def test_project_users_cannot_read(self):
        # A component shows its referral token: readers of the fleet only.
        for client in (self.project_reader, self.project_admin):
            self.assertRaises(lib_exc.Forbidden, client.list_sessions)
            self.assertRaises(lib_exc.Forbidden, client.show_version)
            self.assertRaises(lib_exc.Forbidden, client.list_templates)
            self.assertRaises(lib_exc.Forbidden, client.list_components)
            self.assertRaises(lib_exc.Forbidden, client.show_options)
        # Nor write, a project's admin being no cloud admin.
        self.assertRaises(lib_exc.Forbidden, self.project_admin.put_template,
                          base.rand_name('tempest-template'),
                          {'boot_sets': {BOOT_SET: self.boot_set('g')}})

    @decorators.attr(type='negative')
    @decorators.idempotent_id('a066b037-7001-4d7c-89a9-e7b2369d60d5')
    def test_system_reader_reads_only(self):
        group, nodes = self.create_group_nodes(1)
        template = self.create_template(group)
        reader = self.system_reader
        # Reads.
        self.assertEqual('v2', reader.show_version()['id'])
        self.assertIn(template['name'],
                      [t['name'] for t in reader.list_templates()])
        self.assertEqual(template['boot_sets'], reader.show_template(
            template['name'])['boot_sets'])
        self.assertEqual('Valid',
                         reader.validate_template(template['name']).data)
        reader.list_sessions()
        self.assertEqual(nodes[0]['name'],
                         reader.show_component(nodes[0]['name'])['id'])
        self.assertIn(OPTION, reader.show_options())
        preview = reader.preview_session(operation='boot',
                                         template_name=template['name'])
        self.assertEqual([nodes[0]['name']],
                         preview['boot_sets'][BOOT_SET]['nodes'])
        # No writes.
        name = base.rand_name('tempest-template')
        self.assertRaises(lib_exc.Forbidden, reader.put_template, name,
                          {'boot_sets': {BOOT_SET: self.boot_set(group)}})
        self.assertRaises(lib_exc.NotFound, self.boot.show_template, name)
        self.assertRaises(lib_exc.Forbidden, reader.update_template,
                          template['name'], {'description': 'no'})
        self.assertRaises(lib_exc.Forbidden, reader.delete_template,
                          template['name'])
        self.assertRaises(lib_exc.Forbidden, reader.create_session,
                          operation='boot', template_name=template['name'],
                          stage=True)
        self.assertRaises(lib_exc.Forbidden, reader.update_component,
                          nodes[0]['name'], {'retry_policy': 1})
        self.assertRaises(lib_exc.Forbidden, reader.update_options,
                          **{OPTION: 1})
        self.assertNotIn(template['name'], [
            s['template_name'] for s in self.boot.list_sessions()])
        self.assertIn(template['name'], [
            t['name'] for t in self.boot.list_templates()])


class TestBootReport(BootTestBase):
    """POST /v1/boot/components/{id}/report: public, the referral token
    issued to the component is the only credential."""

    @decorators.attr(type='negative')
    @decorators.idempotent_id('65c9737e-1cfd-4f81-9e76-ae000da128ea')
    def test_made_up_token_refused(self):
        _group, nodes = self.create_group_nodes(1)
        name = nodes[0]['name']
        token = 'f' * 32
        # Without credentials, as the booted OS sends it.
        self.assertRaises(lib_exc.Forbidden, self.boot.report, name, token)
        # An unknown component says the same (no hint of which exist).
        self.assertRaises(lib_exc.Forbidden, self.boot.report,
                          base.rand_name('tempest-no-such-node'), token)
        # Credentials do not stand in for the token.
        self.assertRaises(lib_exc.Forbidden, self.boot.report, name, token,
                          authenticated=True)
        # Nothing was recorded.
        self.assertEqual({}, self.boot.show_component(name)['actual_state'])

    @decorators.attr(type='negative')
    @decorators.idempotent_id('da85c62f-2087-4960-a5ce-e417ae9354c0')
    def test_bad_body(self):
        _group, nodes = self.create_group_nodes(1)
        self.assertRaises(lib_exc.BadRequest, self.boot.report,
                          nodes[0]['name'], '')
