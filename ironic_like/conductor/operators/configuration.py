"""configuration: components ``configuring`` wait for their host OS
configuration (doc/hostos.md), BOS's CFS. The host agents apply it on
their own; this operator watches the configuration's items on each
such node and hands the node back to the status operator as soon as
they are all ok (configured) or one failed, instead of a polling period
later. While it waits, the component's error says what it waits for."""

from ironic_like.common.boot import component_status as cs
from ironic_like.conductor.hostos import node_status
from ironic_like.conductor.operators import base


class ConfigurationOperator(base.NodeOperator):
    name = 'configuration'

    def select(self, options, node_ids=None):
        return self.ctx.db.list_boot_components(
            {'enabled': True, 'status': [cs.CONFIGURING]})

    def act(self, component, node, options):
        configuration = (component.desired_state or {}).get('configuration')
        status, reason = node_status.configuration_status(
            self.ctx.db, component.node_id, configuration)
        if status != node_status.PENDING:
            # The status operator decides (configured: done; failed:
            # the component fails with the reason).
            self.ctx.wake('status', node_ids=[component.node_id])
            return True
        waiting = ('waiting for host OS configuration %s to finish on '
                   'this node' % configuration)
        if component.error == waiting:
            return False
        self.ctx.db.update_boot_component(
            component.node_id, {'error': waiting},
            expected={'status': component.status})
        return True
