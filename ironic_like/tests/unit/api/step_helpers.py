"""Helpers of the tests of the conductor's own steps through the API
(reserved step names, steps on child nodes)."""

from ironic_like.drivers.modules import fake


def on_children(step, *limit):
    """``step`` sent to the node's child nodes (all, or those listed)."""
    step = dict(step, execute_on_child_nodes=True)
    if limit:
        step['limit_child_node_execution'] = list(limit)
    return step


def fake_power(node):
    """The power state of a fake-hardware node as its driver sees it."""
    return (node.driver_internal_info or {}).get(fake.FAKE_POWER_KEY,
                                                 node.power_state)
