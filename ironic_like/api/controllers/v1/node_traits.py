"""/v1/nodes/{id}/traits (microversion 1.37 and later).

/traits itself lists, replaces or clears; /traits/{trait} adds or removes
one. The single trait is its own controller so that the trait always
comes from the path (pecan would also fill a ``trait`` argument from a
JSON body key).
"""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links
from ironic_like.api.schemas import node as schema
from ironic_like.api import validation
from ironic_like.common import exception

_VALIDATOR = validation.make_validator(schema.TRAITS_BODY)


def _traits(node):
    return [t.trait for t in node.traits]


def _no_content(node_ident, path):
    utils.set_status(204)
    utils.set_location(links.build_url(
        utils.public_url(), 'nodes/%s/%s' % (node_ident, path)))


class NodeTraitController(rest.RestController):
    """/v1/nodes/{id}/traits/{trait}"""

    def __init__(self, node_ident, trait):
        self.node_ident = node_ident
        self.trait = trait

    @pecan.expose('json')
    def put(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:traits:set')
        trait = self.trait
        if not validation.is_trait(trait):
            raise exception.InvalidParameterValue(
                err='Invalid trait "%s": use upper-case letters, digits '
                    'and underscores, at most 255 characters.' % trait,
                field='trait')
        current = _traits(node)
        if trait not in current and len(current) >= schema.MAX_TRAITS:
            raise exception.InvalidParameterValue(
                err='Node %s already has %d traits, the most a node may '
                    'have.' % (node.uuid, schema.MAX_TRAITS),
                field='trait')
        utils.rpcapi().add_node_trait(utils.context(), node, trait)
        _no_content(self.node_ident, 'traits/%s' % trait)

    @pecan.expose('json')
    def delete(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:traits:delete')
        if self.trait not in _traits(node):
            raise exception.NodeTraitNotFound(node_id=node.uuid,
                                              trait=self.trait)
        utils.rpcapi().remove_node_traits(utils.context(), node,
                                          [self.trait])
        utils.set_status(204)


class NodeTraitsController(rest.RestController):
    """/v1/nodes/{id}/traits"""

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose()
    def _lookup(self, trait, *remainder):
        if remainder:
            return None
        return NodeTraitController(self.node_ident, trait), []

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:traits:list')
        return {'traits': _traits(node)}

    @pecan.expose('json')
    def put(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:traits:set')
        body = utils.load_body()
        utils.validate(_VALIDATOR, body)
        traits = list(dict.fromkeys(body['traits']))
        utils.rpcapi().set_node_traits(utils.context(), node, traits)
        _no_content(self.node_ident, 'traits')

    @pecan.expose('json')
    def delete(self, **kwargs):
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:traits:delete')
        utils.rpcapi().remove_node_traits(utils.context(), node, None)
        utils.set_status(204)
