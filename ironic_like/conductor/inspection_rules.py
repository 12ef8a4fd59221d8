"""Inspection rules (API 1.96) applied to a node at the end of its
inspection, once its properties and ports are recorded: the rules of the
API (phase "main") and the built-in ones of [inspection_rules]
built_in_rules, highest priority first.

The engine (common/inspection_rules) works on a copy of what rules may
change; only the differences are written, under the node's lock, so a
rule that fails leaves the node as inspection made it. A "fail" action
or any error fails the inspection with its message.
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.common.inspection_rules import engine
from ironic_like.conf import CONF

LOG = log.getLogger(__name__)

PHASE_MAIN = 'main'
# What rules may change: the node fields the API lets callers set, less
# those that would move the node (driver, interfaces, conductor group)
# or its instance while it is being inspected.
NODE_FIELDS = ('name', 'description', 'properties', 'extra', 'driver_info',
               'instance_info', 'labels', 'resource_class', 'owner',
               'lessee', 'network_data', 'automated_clean', 'retired',
               'retired_reason', 'shard')
PORT_FIELDS = ('extra', 'pxe_enabled', 'local_link_connection',
               'physical_network', 'is_smartnic')
_RULE_FIELDS = ('uuid', 'description', 'priority', 'sensitive', 'phase',
                'conditions', 'actions')


def _rules(db):
    stored = [{name: getattr(row, name) for name in _RULE_FIELDS}
              for row in db.get_inspection_rule_list(
                  filters={'phase': PHASE_MAIN})]
    path = CONF.inspection_rules.built_in_rules
    built_in = engine.load_rules_file(path) if path else []
    return stored + [r for r in built_in if r['phase'] == PHASE_MAIN]


def _port_doc(port):
    doc = {name: getattr(port, name) for name in PORT_FIELDS}
    doc.update(uuid=port.uuid, address=port.address)
    return doc


def apply(task, inventory, plugin_data):
    """Run the rules on ``task``'s node (locked); ``plugin_data`` is
    changed in place by the plugin-data actions.

    :raises: InspectionRulesFailed with the rule's message.
    """
    node = task.node
    ports = task.db.get_ports_by_node_id(node.id)
    changes = engine.NodeChanges(
        {name: getattr(node, name) for name in NODE_FIELDS},
        [t.trait for t in node.traits], [_port_doc(p) for p in ports])
    try:
        rules = _rules(task.db)
        if not rules:
            return
        LOG.info('Node %s: applying %d inspection rules', node.uuid,
                 len(rules))
        engine.apply_rules(rules, changes, node, inventory, plugin_data,
                           CONF.inspection_rules.mask_secrets)
    except exception.IronicLikeException as e:
        # Raised afresh, without its cause: the flow keeps the failure in
        # its saved progress, and a cause (a YAML parser's mark, an HTTP
        # connection pool) cannot be saved.
        raise exception.InspectionRulesFailed(
            exception.safe_message(e)) from None
    node_values = changes.changed_fields()
    if changes.traits_changed():
        node_values['traits'] = list(changes.traits)
    if node_values:
        task.update_node(node_values)
    by_uuid = {p.uuid: p for p in ports}
    changed_ports = changes.changed_ports()
    for port_uuid, port_values in changed_ports.items():
        task.db.update_port(by_uuid[port_uuid].id, port_values)
    LOG.info('Node %s: inspection rules applied; changed: %s; ports '
             'changed: %d', node.uuid, ', '.join(sorted(node_values)) or
             'nothing', len(changed_ports))
