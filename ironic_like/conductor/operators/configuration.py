"""configuration: components ``configuring`` need their host OS
configuration applied. Host OS configuration (seed 001) is not built
yet, so this operator can only say so on the component: it stays
``configuring`` (enabled, not failed) and its error names the missing
piece, instead of waiting silently."""

from ironic_like.common.boot import component_status as cs
from ironic_like.conductor.operators import base

NOT_AVAILABLE = ('host OS configuration is not available yet: '
                 'configuration %r cannot be applied; the node stays '
                 'configuring')


class ConfigurationOperator(base.NodeOperator):
    name = 'configuration'

    def select(self, options, node_ids=None):
        return self.ctx.db.list_boot_components(
            {'enabled': True, 'status': [cs.CONFIGURING]})

    def act(self, component, node, options):
        configuration = (component.desired_state or {}).get('configuration')
        error = NOT_AVAILABLE % configuration
        if component.error == error:
            return False
        self.ctx.db.update_boot_component(
            component.node_id, {'error': error},
            expected={'status': component.status})
        return True
