"""All boot-session operators of one conductor, and what they share:
the database, which nodes and sessions this conductor owns, and how to
wake an operator here or on every conductor."""

from oslo_log import log

from ironic_like.common import context as ctx
from ironic_like.common import exception
from ironic_like.conductor.operators import actual_state_cleanup
from ironic_like.conductor.operators import configuration
from ironic_like.conductor.operators import discovery
from ironic_like.conductor.operators import power_off
from ironic_like.conductor.operators import power_on
from ironic_like.conductor.operators import session_cleanup
from ironic_like.conductor.operators import session_completion
from ironic_like.conductor.operators import session_setup
from ironic_like.conductor.operators import status
from ironic_like.conductor import rpcapi

LOG = log.getLogger(__name__)

OPERATOR_CLASSES = (
    discovery.DiscoveryOperator,
    session_setup.SessionSetupOperator,
    status.StatusOperator,
    power_on.PowerOnOperator,
    power_off.PowerOffGracefulOperator,
    power_off.PowerOffForcefulOperator,
    configuration.ConfigurationOperator,
    session_completion.SessionCompletionOperator,
    session_cleanup.SessionCleanupOperator,
    actual_state_cleanup.ActualStateCleanupOperator,
)


class OperatorContext(object):

    def __init__(self, host, ring, db, operators=None):
        self.host = host
        self.ring = ring
        self.db = db
        self.admin = ctx.get_admin_context()
        self.operators = operators if operators is not None else {}
        self._rpc = None

    def owns(self, node):
        try:
            return self.ring.get_owner(node.uuid, node.driver,
                                       node.conductor_group) == self.host
        except exception.NoValidHost:
            return False

    def owns_session(self, key):
        try:
            return self.ring.owner_of_key(key) == self.host
        except exception.NoValidHost:
            return False

    def wake(self, *names, node_ids=None):
        """Wake operators of this conductor (all when none named); for
        ``node_ids`` only, where the operator can do that."""
        for name in names or list(self.operators):
            operator = self.operators.get(name)
            if operator is not None:
                operator.wake(node_ids)

    def wake_everywhere(self, *names):
        """Wake operators here and, by RPC, on every other conductor."""
        self.wake(*names)
        try:
            if self._rpc is None:
                self._rpc = rpcapi.ConductorAPI(self.ring)
            self._rpc.wake_boot_operators(self.admin, list(names) or None)
        except Exception as e:
            # Polling still finds the work; a lost wake-up only delays it.
            LOG.warning('Could not wake the other conductors\' boot '
                        'operators: %s', e)


class BootOperators(object):

    def __init__(self, host, ring, db):
        self.ctx = OperatorContext(host, ring, db)
        for cls in OPERATOR_CLASSES:
            self.ctx.operators[cls.name] = cls(self.ctx)

    def start(self):
        for operator in self.ctx.operators.values():
            operator.start()

    def stop(self):
        for operator in self.ctx.operators.values():
            operator.stop()
        for operator in self.ctx.operators.values():
            operator.join(timeout=30)

    def wake(self, names=None, node_ids=None):
        self.ctx.wake(*(names or ()), node_ids=node_ids)

    def stats(self):
        return {name: {'loops': op.loops, 'targeted_loops': op.targeted_loops,
                       'cpu_seconds': op.cpu_seconds}
                for name, op in self.ctx.operators.items()}
