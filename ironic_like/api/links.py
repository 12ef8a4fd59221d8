"""Links in Ironic's shape: a "self" link under /v1 and a "bookmark" link
without the version prefix.

Lists of a thousand nodes build three link pairs per node, so these are
plain string formatting, not URL objects.
"""


def make_links(base_url, resource, ident):
    """[self, bookmark] links of ``<resource>/<ident>``."""
    return [
        {'href': '%s/v1/%s/%s' % (base_url, resource, ident),
         'rel': 'self'},
        {'href': '%s/%s/%s' % (base_url, resource, ident),
         'rel': 'bookmark'},
    ]


def make_collection_links(base_url, resource):
    """[self, bookmark] links of a collection, as in the /v1 document."""
    return [
        {'href': '%s/v1/%s/' % (base_url, resource), 'rel': 'self'},
        {'href': '%s/%s/' % (base_url, resource), 'rel': 'bookmark'},
    ]


def build_url(base_url, path, query=''):
    """Absolute URL of ``/v1/<path>``, for Location headers and next
    links."""
    url = '%s/v1/%s' % (base_url, path)
    if query:
        url += '?' + query
    return url


def version_links(base_url):
    """The link of the v1 version document, as in version discovery."""
    return [{'href': '%s/v1/' % base_url, 'rel': 'self'}]
