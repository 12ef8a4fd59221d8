"""Which conductor owns which node.

One tooz hash ring per (hardware type, conductor group), built from the
alive conductors in the database. Every process (API workers and
conductors) computes the same rings from the same rows, so they agree on
owners without talking to each other.
"""

import random
import threading
import time

from oslo_log import log
from tooz import hashring

from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.db import api as db_api

LOG = log.getLogger(__name__)


class HashRingManager(object):

    def __init__(self, db=None):
        self._db = db or db_api.get_instance()
        self._lock = threading.Lock()
        self._rings = None
        self._hosts = frozenset()
        self._built_at = 0.0
        self._key_ring = None

    @property
    def rings(self):
        with self._lock:
            if (self._rings is None or time.monotonic() - self._built_at
                    >= CONF.hash_ring_reset_interval):
                self._build()
            return self._rings

    def _build(self):
        conductors = self._db.get_alive_conductors(
            CONF.conductor.heartbeat_timeout)
        members = {}
        hosts = set()
        for conductor in conductors:
            hosts.add(conductor.hostname)
            for hw_type in conductor.hardware_types or []:
                members.setdefault((hw_type, conductor.conductor_group or ''),
                                   set()).add(conductor.hostname)
        partitions = 2 ** CONF.hash_partition_exponent
        self._rings = {key: hashring.HashRing(sorted(hosts_),
                                              partitions=partitions)
                       for key, hosts_ in members.items()}
        if frozenset(hosts) != self._hosts:
            LOG.info('Hash ring members are now: %s', ', '.join(sorted(hosts))
                     or '(none)')
        self._hosts = frozenset(hosts)
        self._built_at = time.monotonic()

    def reset(self):
        """Forget the rings; the next look-up rebuilds them from the DB."""
        with self._lock:
            self._rings = None

    @property
    def hosts(self):
        self.rings  # noqa: B018 - refresh if stale
        return self._hosts

    def get_owners(self, node_uuid, driver, conductor_group, ignore=(),
                   count=1):
        """Owners of a node, the first one first; NoValidHost if none."""
        ring = self.rings.get((driver, conductor_group or ''))
        if ring is None:
            raise exception.NoValidHost(
                reason='no alive conductor serves hardware type "%s" in '
                       'conductor group "%s"'
                       % (driver, conductor_group or ''))
        ignore = set(ignore)
        available = len(ring.nodes) - len(ignore.intersection(ring.nodes))
        if available <= 0:
            raise exception.NoValidHost(
                reason='no other alive conductor serves hardware type "%s" '
                       'in conductor group "%s"'
                       % (driver, conductor_group or ''))
        # get_nodes(replicas=n) returns a set; ask one by one to keep order.
        owners = []
        skipped = set(ignore)
        for _ in range(min(count, available)):
            found = ring.get_nodes(node_uuid.encode('utf-8'),
                                   ignore_nodes=skipped, replicas=1)
            if not found:
                break
            host = next(iter(found))
            owners.append(host)
            skipped.add(host)
        return owners

    def get_owner(self, node_uuid, driver, conductor_group, ignore=()):
        return self.get_owners(node_uuid, driver, conductor_group,
                               ignore=ignore)[0]

    def owner_of_key(self, key):
        """The alive conductor that owns ``key`` (e.g. a boot session's
        name) on a ring of all conductors, whatever they serve."""
        hosts = sorted(self.hosts)
        if not hosts:
            raise exception.NoValidHost(reason='no alive conductor')
        with self._lock:
            if self._key_ring is None or self._key_ring[0] != hosts:
                self._key_ring = (hosts, hashring.HashRing(
                    hosts, partitions=2 ** CONF.hash_partition_exponent))
            ring = self._key_ring[1]
        return next(iter(ring.get_nodes(key.encode('utf-8'))))

    def random_host_serving(self, driver):
        """Any alive conductor serving hardware type ``driver``, in any
        conductor group; NoValidHost if none."""
        hosts = sorted(set().union(*[
            ring.nodes for (hw_type, _group), ring in self.rings.items()
            if hw_type == driver]))
        if not hosts:
            raise exception.NoValidHost(
                reason='no alive conductor serves hardware type "%s"'
                       % driver)
        return random.choice(hosts)

    def random_host(self, driver=None, conductor_group=None):
        """Any alive conductor (serving ``driver`` in the group, if given)."""
        if driver is None:
            hosts = sorted(self.hosts)
        else:
            ring = self.rings.get((driver, conductor_group or ''))
            hosts = sorted(ring.nodes) if ring else []
        if not hosts:
            raise exception.NoValidHost(reason='no alive conductor')
        return random.choice(hosts)
