"""``openstack baremetal shard list`` (API 1.82): the shards and how many
nodes each has."""

from osc_lib.command import command

from ironic_like.osc import client as http
from ironic_like.osc import common


class ListShard(common.BaremetalMixin, command.Lister):
    """List the shards and the number of nodes in each."""

    REQUIRES = (http.NODE_SHARD, 'Shards')

    def take_action(self, parsed_args):
        self.check_version()
        doc = self.client.get('shards') or {}
        # Lower-case column names, as python-ironicclient prints them.
        return common.listing(doc.get('shards') or [], ['name', 'count'],
                              labels=['name', 'count'])
