"""List responses: the items under the resource's key, and a ``next``
link when the page is full (Ironic's pagination contract: clients follow
``next`` until it is absent)."""

import urllib.parse

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import links


def next_link(path, limit, marker, params):
    """URL of the page after ``marker``, keeping the other parameters."""
    args = [(k, v) for k, v in params.items()
            if k not in ('limit', 'marker')]
    args += [('limit', limit), ('marker', marker)]
    return links.build_url(utils.public_url(), path,
                           urllib.parse.urlencode(args))


def list_body(key, items, limit, path, last_marker, params):
    body = {key: items}
    if limit and items and len(items) >= limit:
        body['next'] = next_link(path, limit, last_marker, params)
    return body


def read_only_list(list_items, keyword, doc):
    """A controller class listing what belongs to the resource named in
    its URL (GET and GET .../detail; read only, as in Ironic):
    ``list_items(detail_path, **{keyword: ident})`` builds the answer."""

    class ReadOnlyList(rest.RestController):
        _custom_actions = {'detail': ['GET']}

        def __init__(self, ident):
            self.ident = ident

        @pecan.expose('json')
        def get_all(self, **kwargs):
            return list_items(False, **{keyword: self.ident})

        @pecan.expose('json')
        def detail(self, **kwargs):
            return list_items(True, **{keyword: self.ident})

    ReadOnlyList.__doc__ = doc
    return ReadOnlyList
