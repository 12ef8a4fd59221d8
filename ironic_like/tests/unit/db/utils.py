"""Helpers shared by the db, common, conductor and driver unit tests."""

import datetime
import itertools

from oslo_utils import timeutils
from oslo_utils import uuidutils
import sqlalchemy as sa

from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import api as sa_api
from ironic_like.db.sqlalchemy import models
from ironic_like.tests import utils as test_utils

FAKE_HW = 'fake-hardware'
_MAC_COUNTER = itertools.count(1)


def node_values(**kwargs):
    values = {'uuid': uuidutils.generate_uuid(), 'driver': FAKE_HW,
              'provision_state': 'enroll'}
    values.update(kwargs)
    return values


def create_test_node(**kwargs):
    return db_api.get_instance().create_node(node_values(**kwargs))


def create_test_port(node_id, **kwargs):
    n = next(_MAC_COUNTER)
    values = {'address': '52:54:00:%02x:%02x:%02x' % (
        (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff), 'node_id': node_id}
    values.update(kwargs)
    return db_api.get_instance().create_port(values)


def register_conductor(hostname, group='', hardware_types=(FAKE_HW,),
                       age=None):
    """Register a conductor; with ``age`` (s) its heartbeat is that old."""
    db = db_api.get_instance()
    conductor = db.register_conductor(hostname, group, list(hardware_types))
    if age is not None:
        set_conductor_age(hostname, age)
    return conductor


def set_conductor_age(hostname, seconds):
    """Make the last heartbeat of ``hostname`` ``seconds`` old."""
    stamp = timeutils.utcnow() - datetime.timedelta(seconds=seconds)
    with sa_api.main_context_manager.writer.using(sa_api._CONTEXT) as s:
        s.execute(sa.update(models.Conductor)
                  .where(models.Conductor.hostname == hostname)
                  .values(updated_at=stamp)
                  .execution_options(synchronize_session=False))


def wait_for_node(uuid, predicate, timeout=10.0, interval=0.02):
    """Poll the node until ``predicate(node)`` and its lock is released;
    return it (bounded: fails after ``timeout`` seconds)."""
    db = db_api.get_instance()
    state = {}

    def check():
        node = db.get_node_by_uuid(uuid)
        state['node'] = node
        return predicate(node) and node.reservation is None

    def describe():
        node = state['node']
        return ('node %s never reached the expected state: provision %s, '
                'power %s, reservation %s'
                % (uuid, node.provision_state, node.power_state,
                   node.reservation))

    test_utils.wait_for(check, timeout, interval, message=describe)
    return state['node']
