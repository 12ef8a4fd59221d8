"""List responses: the items under the resource's key, and a ``next``
link when the page is full (Ironic's pagination contract: clients follow
``next`` until it is absent)."""

import urllib.parse

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
