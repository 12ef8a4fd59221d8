"""Host OS configuration on the conductor: module verification (against
a real HTTP server on loopback), the reconciliation pass, the deletion
gate, rollout thresholds, label changes through the node update path,
and the status boot sessions read."""

import datetime
import hashlib
import http.server
import threading
from unittest import mock

import fixtures
from oslo_db import exception as db_exc
from oslo_utils import timeutils
import sqlalchemy as sa

from ironic_like.common import context
from ironic_like.common.hostos import archive
from ironic_like.conductor.hostos import modules
from ironic_like.conductor.hostos import node_status
from ironic_like.conductor.hostos import reconcile
from ironic_like.conductor.hostos import rollout
from ironic_like.conductor import nodes
from ironic_like.conductor import rpcapi
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import hostos as hostos_db
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import base
from ironic_like.tests.unit.db import test_hostos as db_test


class ArchiveServer(object):
    """Serves {path: bytes} on loopback and counts the GETs."""

    def __init__(self, files):
        self.files = files
        self.requests = []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests.append(self.path)
                body = server.files.get(self.path)
                if body is None:
                    self.send_response(403, 'Forbidden')
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0),
                                                     Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever,
                                       daemon=True)
        self.thread.start()
        self.url = 'http://127.0.0.1:%d' % self.httpd.server_address[1]

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


PLAYBOOK = '- hosts: all\n  gather_facts: false\n  tasks: []\n'


class TestVerification(db_test.HostOSTestCase):

    def setUp(self):
        super().setUp()
        self.v1 = archive.make_module('ntp', '1.0.0', PLAYBOOK,
                                      schema={'type': 'object'})
        self.v2 = archive.make_module('ntp', '2.0.0', PLAYBOOK,
                                      deprecates=['1.0.0'])
        self.server = ArchiveServer({'/ntp-1.0.0.tgz': self.v1,
                                     '/ntp-2.0.0.tgz': self.v2})
        self.addCleanup(self.server.stop)

    def register(self, version, data, path=None, sha=None):
        path = path or '/ntp-%s.tgz' % version
        return self.db.create_hostos_module({
            'name': 'ntp', 'version': version,
            'url': self.server.url + path,
            'sha256sum': sha or hashlib.sha256(data).hexdigest()})

    def test_available_with_playbook_and_schema(self):
        module = modules.verify(self.db, self.register('1.0.0', self.v1).id)
        self.assertEqual(hostos_db.MODULE_AVAILABLE, module.state)
        self.assertEqual('main.yaml', module.playbook)
        self.assertEqual({'type': 'object'}, module.values_schema)
        self.assertEqual(len(self.v1), module.archive_size)
        self.assertEqual(['/ntp-1.0.0.tgz'], self.server.requests)

    def test_hash_mismatch_names_both_hashes(self):
        module = modules.verify(self.db, self.register(
            '1.0.0', self.v1, sha='b' * 64).id)
        self.assertEqual(hostos_db.MODULE_ERROR, module.state)
        self.assertEqual("hashes are not the same: got '%s' want '%s'"
                         % (hashlib.sha256(self.v1).hexdigest(), 'b' * 64),
                         module.error)

    def test_download_failure_names_the_http_status(self):
        module = modules.verify(self.db, self.register(
            '1.0.0', self.v1, path='/missing.tgz').id)
        self.assertEqual(hostos_db.MODULE_ERROR, module.state)
        self.assertEqual('failed to perform request to fetch the module '
                         'archive: Get "%s/missing.tgz": Forbidden'
                         % self.server.url, module.error)

    def test_metadata_must_match_the_registration(self):
        wrong = archive.make_module('chrony', '1.0.0', PLAYBOOK)
        self.server.files['/ntp-1.0.0.tgz'] = wrong
        module = modules.verify(self.db, self.register('1.0.0', wrong).id)
        self.assertEqual(hostos_db.MODULE_ERROR, module.state)
        self.assertIn('chrony', module.error)

    def test_a_newer_version_deprecates_an_older_one(self):
        modules.verify(self.db, self.register('1.0.0', self.v1).id)
        modules.verify(self.db, self.register('2.0.0', self.v2).id)
        old = self.db.get_hostos_module('ntp', '1.0.0')
        self.assertEqual(hostos_db.MODULE_DEPRECATED, old.state)
        self.assertEqual('2.0.0', old.deprecated_by)

    def test_an_older_version_registered_later_is_deprecated_at_once(self):
        modules.verify(self.db, self.register('2.0.0', self.v2).id)
        old = modules.verify(self.db, self.register('1.0.0', self.v1).id)
        self.assertEqual(hostos_db.MODULE_DEPRECATED, old.state)

    def test_verified_through_rpc_by_the_owning_conductor(self):
        conductor = self.useFixture(base.ConductorFixture())
        module = self.register('1.0.0', self.v1)
        api = rpcapi.ConductorAPI(conductor.service.ring)
        self.assertTrue(api.verify_hostos_module(
            context.get_admin_context(), module.id, module.name))
        found = None
        for _ in range(200):
            found = self.db.get_hostos_module('ntp', '1.0.0')
            if found.state != hostos_db.MODULE_VERIFYING:
                break
            threading.Event().wait(0.05)
        self.assertEqual(hostos_db.MODULE_AVAILABLE, found.state)

    def test_the_periodic_pass_verifies_a_lost_verification(self):
        module = self.register('1.0.0', self.v1)
        past = timeutils.utcnow() - datetime.timedelta(minutes=5)
        self.db.update_hostos_module(module.id, {'created_at': past})
        ring = FakeRing('me')
        counts = reconcile.run(self.db, ring, 'me')
        self.assertEqual(1, counts['verified'])
        self.assertEqual(hostos_db.MODULE_AVAILABLE,
                         self.db.get_hostos_module('ntp', '1.0.0').state)


class FakeRing(object):
    def __init__(self, owner):
        self.owner = owner

    def owner_of_key(self, key):
        return self.owner


class TestDeletionAndRollout(db_test.HostOSTestCase):

    def test_delete_fails_after_the_timeout_naming_the_nodes(self):
        self.config(delete_timeout=1, group='hostos')
        self.node('n1', {'role': 'web'})
        configuration = db_test.create_configuration(self.db)
        db_test.release_all()
        self.db.start_hostos_configuration_delete(configuration.id)
        configuration = self.db.get_hostos_configuration('web')
        self.assertFalse(reconcile.finish_delete(self.db, configuration))
        self.assertEqual(hostos_db.DELETING, self.db.get_hostos_configuration(
            'web').status)
        past = timeutils.utcnow() - datetime.timedelta(seconds=5)
        self.db.update_hostos_configuration(configuration.id,
                                            {'delete_started_at': past})
        reconcile.finish_delete(self.db,
                                self.db.get_hostos_configuration('web'))
        configuration = self.db.get_hostos_configuration('web')
        self.assertEqual(hostos_db.DELETE_FAILED, configuration.status)
        self.assertIn('n1', configuration.status_reason)

    def test_failure_threshold_pauses_and_resume_lifts_it(self):
        nodes_ = [self.node('n%d' % i, {'role': 'web'}) for i in range(3)]
        configuration = db_test.create_configuration(
            self.db, failure_threshold=2)
        for node in nodes_[:2]:
            _, token, answer, _, _ = self.db.hostos_heartbeat(
                node.uuid, None, '1', [], [])
            row = answer[0][0]
            self.db.hostos_heartbeat(node.uuid, token, '1', [{
                'name': row.name, 'hash': row.spec_hash, 'state': 'failed',
                'exit_code': 2, 'finished_at': timeutils.utcnow()}], [])
            rollout.check_thresholds(self.db, [configuration.id])
        configuration = self.db.get_hostos_configuration('web')
        self.assertEqual(hostos_db.PAUSED, configuration.status)
        self.assertIn('n0, n1', configuration.status_reason)
        # A paused configuration starts on no other node.
        _, _, answer, _, _ = self.db.hostos_heartbeat(
            nodes_[2].uuid, None, '1', [], [])
        self.assertTrue(all(paused for _, _, paused in answer))
        self.assertFalse(any(row.released for row, _, _ in answer))
        rollout.resume(self.db, configuration)
        self.assertEqual(hostos_db.ACTIVE,
                         self.db.get_hostos_configuration('web').status)
        self.assertEqual([], rollout.check_thresholds(
            self.db, [configuration.id]))


class TestNodeUpdates(db_test.HostOSTestCase):

    def test_a_label_update_through_the_conductor_moves_items(self):
        node = self.node('n1', {'role': 'db'})
        db_test.create_configuration(self.db)
        self.assertEqual([], self.names(node.id))
        nodes.update_node(context.get_admin_context(), node.id,
                          {'labels': {'role': 'web'}})
        self.assertEqual(2, len(self.names(node.id)))

    def test_labels_kept_when_the_sync_keeps_failing(self):
        # The labels are stored before the sync; a database that refuses
        # the sync past its retries leaves it to the reconciliation and
        # does not fail the update that was made.
        node = self.node('n1', {'role': 'db'})
        db_test.create_configuration(self.db)
        logger = self.useFixture(fixtures.FakeLogger(level='WARNING'))
        with mock.patch.object(hostos_db.HostOSMixin, 'sync_hostos_items',
                               side_effect=db_exc.DBDeadlock()):
            nodes.update_node(context.get_admin_context(), node.id,
                              {'labels': {'role': 'web'}})
        node = self.db.get_node_by_id(node.id)
        self.assertEqual({'role': 'web'}, node.labels)
        self.assertIsNone(node.reservation)
        self.assertEqual([], self.names(node.id))
        self.assertIn('not synced', logger.output)
        # The reconciliation's sync brings the items.
        self.db.sync_hostos_items(node_ids=[node.id])
        self.assertEqual(2, len(self.names(node.id)))

    def test_a_node_created_when_its_sync_fails(self):
        db_test.create_configuration(self.db)
        logger = self.useFixture(fixtures.FakeLogger(level='WARNING'))
        with mock.patch.object(hostos_db.HostOSMixin, 'sync_hostos_items',
                               side_effect=db_exc.DBConnectionError()):
            uuid = nodes.create_node(context.get_admin_context(), {
                'name': 'n9', 'driver': 'fake-hardware',
                'labels': {'role': 'web'}})
        node = self.db.get_node(uuid)
        self.assertEqual({'role': 'web'}, node.labels)
        self.assertEqual([], self.names(node.id))
        self.assertIn('not synced', logger.output)
        # The reconciliation's pass brings the items.
        reconcile.run(self.db, FakeRing('me'), 'me')
        self.assertEqual(2, len(self.names(node.id)))

    def test_one_failed_sync_does_not_end_the_pass(self):
        node = self.node('n1', {'role': 'web', 'tier': 'db'})
        db_test.create_configuration(self.db, name='first')
        db_test.create_configuration(
            self.db, name='second',
            selector={'match_labels': {'tier': 'db'}})
        db_test.release_all()
        # The second configuration's items lost: the pass makes them again.
        second = self.db.get_hostos_configuration('second').id
        with sa_api._writer() as session:
            session.execute(sa.delete(models.HostOSItem).where(
                models.HostOSItem.configuration_id == second))
        self.assertEqual(2, len(self.names(node.id)))
        real = hostos_db.HostOSMixin.sync_hostos_items
        synced = []

        def sync(db, configuration_ids=None, node_ids=None):
            name, = [c.name for c in db.list_hostos_configurations()
                     if c.id in configuration_ids]
            if name == 'first':
                raise db_exc.DBDeadlock()
            synced.append(name)
            return real(db, configuration_ids, node_ids)
        logger = self.useFixture(fixtures.FakeLogger(level='WARNING'))
        with mock.patch.object(hostos_db.HostOSMixin, 'sync_hostos_items',
                               sync):
            counts = reconcile.run(self.db, FakeRing('me'), 'me')
        self.assertEqual(['second'], synced)
        self.assertEqual(1, counts['synced'])
        self.assertIn('first not reconciled', logger.output)
        self.assertEqual(4, len(self.names(node.id)))

    def test_a_node_created_with_labels_gets_items(self):
        db_test.create_configuration(self.db)
        uuid = nodes.create_node(context.get_admin_context(), {
            'name': 'n9', 'driver': 'fake-hardware',
            'labels': {'role': 'web'}})
        self.assertEqual(2, len(self.names(self.db.get_node(uuid).id)))


class TestBootSessionStatus(db_test.HostOSTestCase):

    def test_statuses(self):
        node = self.node('n1', {'role': 'web'})
        other = self.node('n2', {'role': 'db'})
        status = node_status.configuration_status
        self.assertEqual(node_status.FAILED,
                         status(self.db, node.id, 'nope')[0])
        db_test.create_configuration(self.db)
        self.assertEqual(node_status.FAILED,
                         status(self.db, other.id, 'web')[0])
        self.assertEqual(node_status.PENDING,
                         status(self.db, node.id, 'web')[0])
        _, token, answer, _, _ = self.db.hostos_heartbeat(
            node.uuid, None, '1', [], [])
        reports = [{'name': row.name, 'hash': row.spec_hash, 'state': 'ok',
                    'exit_code': 0} for row, _, _ in answer]
        self.db.hostos_heartbeat(node.uuid, token, '1', reports, [])
        self.assertEqual((node_status.CONFIGURED, None),
                         status(self.db, node.id, 'web'))
