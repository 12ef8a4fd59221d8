"""Who may do what on nodes under the default policy: one table shared by
the unit tests (identity headers) and the keystone functional test (real
tokens), so both check the same promise.

The nodes: ``mine`` and ``spare`` are owned by project p1 (the "owner"),
``theirs`` by p2 (the "other" project), ``leased`` by a third project and
leased to p1. Columns, in order:

* ``list``: which nodes ``GET /v1/nodes`` shows: ``all``, or those of one
  project (owned or leased);
* ``show_mine``, ``show_theirs``: ``GET`` of ``mine`` / ``theirs``;
* ``create``: ``POST /v1/nodes``;
* ``patch``: ``PATCH`` of ``mine`` (its ``extra``);
* ``power``: ``PUT .../states/power`` (power on) on ``mine``;
* ``provision``: ``PUT .../states/provision`` (manage) on ``mine``;
* ``delete``: ``DELETE`` of ``spare``.

A user who may not even read a node gets 404 for it, never 403.
"""

OWNER = 'p1'
OTHER = 'p2'

COLUMNS = ('list', 'show_mine', 'show_theirs', 'create', 'patch', 'power',
           'provision', 'delete')

# persona: (scope, role); the scope is 'system', a project, or 'service'
# (the service project, [DEFAULT]rbac_service_project_name).
PERSONAS = {
    'system-admin': ('system', 'admin'),
    'system-member': ('system', 'member'),
    'system-reader': ('system', 'reader'),
    'owner-admin': (OWNER, 'admin'),
    'owner-member': (OWNER, 'member'),
    'owner-reader': (OWNER, 'reader'),
    'other-admin': (OTHER, 'admin'),
    'service': ('service', 'service'),
}

TABLE = {
    #                 list  mine theirs create patch power prov delete
    'system-admin': ('all', 200, 200, 201, 200, 202, 202, 204),
    'system-member': ('all', 200, 200, 403, 200, 202, 202, 403),
    'system-reader': ('all', 200, 200, 403, 403, 403, 403, 403),
    # A project admin is not a cloud admin: a member's rights, and
    # (Ironic's self-owned nodes, [api]project_admin_can_manage_own_nodes)
    # it enrols nodes its project owns and deletes them.
    # Their members fill in what the node's extra says (Ironic's
    # baremetal:node:update_extra), as do the lessee's.
    'owner-admin': (OWNER, 200, 404, 201, 200, 202, 202, 204),
    'owner-member': (OWNER, 200, 404, 403, 200, 202, 202, 403),
    'owner-reader': (OWNER, 200, 404, 403, 403, 403, 403, 403),
    'other-admin': (OTHER, 404, 200, 201, 404, 404, 404, 404),
    # Nova's kind of user: a system member's rights; a service user also
    # enrols nodes (owned by its project), as in Ironic.
    'service': ('all', 200, 200, 201, 200, 202, 202, 403),
}


def expected(persona):
    """{column: expected value} of ``persona``."""
    return dict(zip(COLUMNS, TABLE[persona]))


def created_owner(persona):
    """The owner (a scope of PERSONAS) of a node ``persona`` creates: its
    project when the token is project-scoped (a self-owned node), none
    for a system-scoped one."""
    scope = PERSONAS[persona][0]
    return None if scope == 'system' else scope


def visible(list_value, nodes):
    """Names of ``nodes`` ([(name, owner, lessee)]) that the ``list``
    column's value allows, sorted."""
    return sorted(name for name, owner, lessee in nodes
                  if list_value == 'all' or list_value in (owner, lessee))
