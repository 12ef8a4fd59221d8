"""discovery: every node has a component (created with the node); this
repairs any that are missing, e.g. nodes written by an older version. Runs
every ``discovery_frequency`` seconds."""

from oslo_log import log

from ironic_like.conductor.operators import base

LOG = log.getLogger(__name__)


class DiscoveryOperator(base.Operator):
    name = 'discovery'
    frequency_option = 'discovery_frequency'

    def run_once(self, options, node_ids=None):
        missing = self.ctx.db.node_ids_without_boot_component(
            limit=int(options['max_component_batch_size'] or 0) or None)
        if missing:
            created = self.ctx.db.create_boot_components(missing)
            LOG.info('Created %d missing boot components', created)
