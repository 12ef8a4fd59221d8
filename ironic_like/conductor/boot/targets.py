"""Which nodes a session acts on, per boot set, and why others are not.

BOS's order (bos-v2.md section 3): node_list, then node_groups, then
node_roles_groups; then the limit; then the arch filter; then, unless
include_disabled, only enabled nodes. Ours adds: nodes a running session
holds are left out (or taken over when the session says so), and every
node dropped carries the reason, for the preview and the logs.
"""

import collections

from ironic_like.common.boot import limit as limit_parser
from ironic_like.common.boot import templates
from ironic_like.conductor.boot import records

GROUP_LABEL_PREFIX = 'group.'
ROLE_LABEL = 'role'
SUBROLE_LABEL = 'subrole'

REASON_LIMIT = 'limit'
REASON_ARCH = 'arch'
REASON_DISABLED = 'disabled'


class Inventory(object):
    """The nodes as HSM would describe them, read from the database once."""

    def __init__(self, rows):
        self.nodes = {}          # node id -> NodeInfo
        self.components = {}     # node id -> component
        self.by_name = {}        # name or uuid -> node id
        self.groups = collections.defaultdict(set)
        self.roles = collections.defaultdict(set)
        for component, node in rows:
            self.nodes[node.id] = node
            self.components[node.id] = component
            self.by_name[node.uuid] = node.id
            if node.name:
                self.by_name[node.name] = node.id
            labels = node.labels or {}
            for key in labels:
                if key.startswith(GROUP_LABEL_PREFIX):
                    self.groups[key[len(GROUP_LABEL_PREFIX):]].add(node.id)
            role = labels.get(ROLE_LABEL)
            if role:
                self.roles[role].add(node.id)
                subrole = labels.get(SUBROLE_LABEL)
                if subrole:
                    self.roles['%s_%s' % (role, subrole)].add(node.id)

    @classmethod
    def load(cls, db):
        return cls(db.list_boot_components())

    def members(self, name):
        """Node ids a name stands for (node, group or role), or None."""
        if name in self.by_name:
            return {self.by_name[name]}
        if name in self.groups:
            return set(self.groups[name])
        if name in self.roles:
            return set(self.roles[name])
        return None

    def enabled(self, node_id):
        # HSM's "enabled". Nodes have no `retired` field yet (issue 13);
        # when they do, a retired node is disabled too.
        return not self.nodes[node_id].maintenance

    def name_of(self, node_id):
        return records.component_id(self.nodes[node_id])


class Selection(object):
    """The outcome for one boot set."""

    def __init__(self, name):
        self.name = name
        self.nodes = set()
        self.excluded = {}   # node id -> reason
        self.warnings = []

    def as_dict(self, inventory):
        return {
            'nodes': sorted(inventory.name_of(n) for n in self.nodes),
            'excluded': [{'id': inventory.name_of(n), 'reason': reason}
                         for n, reason in sorted(
                             self.excluded.items(),
                             key=lambda item: inventory.name_of(item[0]))],
            'warnings': list(self.warnings),
        }


def _boot_set_nodes(boot_set, inventory, selection):
    nodes = set()
    for name in boot_set.get('node_list') or ():
        node_id = inventory.by_name.get(name)
        if node_id is None:
            selection.warnings.append('node_list: unknown node %s' % name)
        else:
            nodes.add(node_id)
    for field, table in (('node_groups', inventory.groups),
                         ('node_roles_groups', inventory.roles)):
        for name in boot_set.get(field) or ():
            if name in table:
                nodes |= table[name]
            else:
                selection.warnings.append('%s: unknown %s %s' % (
                    field, 'group' if field == 'node_groups' else 'role',
                    name))
    return nodes


def select(template, inventory, limit=None, include_disabled=False,
           session_name=None, running_sessions=(), takeover=False):
    """{boot set name: Selection}. A node named by two boot sets goes to
    the later one (as in BOS). ``running_sessions``: names of running
    sessions other than this one; their enabled nodes are excluded with
    reason ``session <name>``, unless ``takeover``. Raises
    limit_parser.LimitError."""
    running = set(running_sessions) - {session_name}
    result = collections.OrderedDict()
    taken = {}
    for bs_name, boot_set in (template.get('boot_sets') or {}).items():
        selection = Selection(bs_name)
        candidates = _boot_set_nodes(boot_set, inventory, selection)
        chosen = limit_parser.apply(limit, set(candidates),
                                    inventory.members)
        for node_id in candidates - chosen:
            selection.excluded[node_id] = REASON_LIMIT
        wanted_arch = boot_set.get('arch') or 'X86'
        for node_id in sorted(chosen):
            node = inventory.nodes[node_id]
            component = inventory.components[node_id]
            if not templates.arch_matches(
                    wanted_arch, templates.arch_of(node.properties or {})):
                selection.excluded[node_id] = REASON_ARCH
            elif not include_disabled and not inventory.enabled(node_id):
                selection.excluded[node_id] = REASON_DISABLED
            elif (not takeover and component.enabled
                  and component.session in running):
                selection.excluded[node_id] = 'session %s' % (
                    component.session)
            else:
                selection.nodes.add(node_id)
        for node_id in selection.nodes:
            earlier = taken.get(node_id)
            if earlier is not None:
                result[earlier].nodes.discard(node_id)
            taken[node_id] = bs_name
        result[bs_name] = selection
    return result


def held_by_other_sessions(selections):
    """{session name: [node ids]} of nodes left out because a running
    session holds them."""
    held = collections.defaultdict(list)
    for selection in selections.values():
        for node_id, reason in selection.excluded.items():
            if reason.startswith('session '):
                held[reason[len('session '):]].append(node_id)
    return dict(held)
