"""``openstack baremetal node children list <node>`` (API 1.83): the
UUIDs of a node's child nodes. The node list's ``--include-children``
and ``--parent-node`` are in osc/common.py."""

from osc_lib.command import command

from ironic_like.osc import client as http
from ironic_like.osc.v1 import base
from ironic_like.osc.v1.node import NODE


class ListNodeChildren(base.ResourceCommand, command.ShowOne):
    """List the UUIDs of a node's child nodes."""

    RESOURCE = NODE
    REQUIRES = (http.PARENT_CHILD_NODES, 'Child nodes')

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get(self.path(parsed_args, 'children')) or {}
        # python-ironicclient's shape (one "children" field, so that
        # ``-f json`` gives the same document), but with every child: its
        # own command shows only the first.
        return ('children',), (list(doc.get('children') or []),)
