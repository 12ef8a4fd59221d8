"""Request helpers shared by the v1 controllers."""

import json

from oslo_utils import strutils
from oslo_utils import uuidutils
import pecan

from ironic_like.api.middleware import version as version_middleware
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.conf import CONF

# Query parameters every list understands.
PAGING_PARAMS = ('limit', 'marker', 'sort_key', 'sort_dir')


def version():
    return pecan.request.version


def allowed(feature):
    return pecan.request.version >= feature


def require_version(feature, what):
    """NotAcceptable (406) if the request's version predates ``feature``."""
    if not allowed(feature):
        raise exception.NotAcceptable(
            '%s needs API version %s or later; the request uses %s.'
            % (what, versions.to_string(feature),
               versions.to_string(pecan.request.version)))


def hide_below(feature):
    """NotFound (404) below ``feature``: the endpoint did not exist."""
    if not allowed(feature):
        raise exception.NotFound()


def unavailable_below(feature):
    """Below ``feature``, a collection Ironic added later answers 404 to
    GET and 405 to the other methods, as Ironic's do (runbooks,
    inspection rules)."""
    if allowed(feature):
        return
    if pecan.request.method == 'GET':
        raise exception.NotFound()
    raise exception.MethodNotAllowed(
        'Method %s is not allowed on %s below API version %s.'
        % (pecan.request.method, pecan.request.path,
           versions.to_string(feature)))


def require_ident(ident):
    """MethodNotAllowed (405) when a method that acts on one resource is
    sent to its collection: pecan calls it without the identifier."""
    if ident is None:
        raise exception.MethodNotAllowed(
            'Method %s is not allowed on %s.' % (pecan.request.method,
                                                 pecan.request.path))


def context():
    return pecan.request.context


def dbapi():
    return pecan.request.dbapi


def rpcapi():
    """The process's ConductorAPI (see hooks.RPCHook)."""
    return pecan.request.get_rpcapi()


def public_url():
    return pecan.request.public_url


def set_status(code):
    pecan.response.status = code


def set_location(url):
    pecan.response.location = url


# -- query parameters -----------------------------------------------------

def query(allowed_names=()):
    """The query parameters (last value wins), refusing those the endpoint
    does not know, as Ironic does: a typo must not silently widen a query.

    Read from the query string only: pecan also merges JSON body keys
    into a controller's keyword arguments.
    """
    params = dict(pecan.request.GET)
    unknown = sorted(set(params) - set(allowed_names))
    if unknown:
        raise exception.InvalidParameterValue(
            err='Unknown argument: "%s"' % unknown[0], field=unknown[0])
    return params


def parse_bool(name, value):
    if value is None:
        return None
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError:
        raise exception.InvalidParameterValue(
            err='Invalid boolean value for %s: "%s"' % (name, value),
            field=name)


def parse_shards(value, name='shard'):
    """The shards of a ``shard`` filter (Ironic 1.82): a comma-separated
    list, each a non-empty name."""
    shards = [part.strip() for part in value.split(',')]
    if not all(shards):
        raise exception.InvalidParameterValue(
            err='Invalid shard list "%s": give shard names separated by '
                'commas.' % value, field=name)
    return shards


def parse_limit(value):
    """The page size: at most [api]max_limit, which is also the default
    (so a client that pages by the next link always gets one)."""
    max_limit = CONF.api.max_limit
    if value is None:
        return max_limit
    try:
        limit = int(value)
    except ValueError:
        limit = 0
    if limit <= 0:
        raise exception.InvalidParameterValue(
            err='Limit must be a positive integer, not "%s".' % value,
            field='limit')
    return min(limit, max_limit)


def parse_sort_dir(value):
    if value is None:
        return 'asc'
    if value not in ('asc', 'desc'):
        raise exception.InvalidParameterValue(
            err='Invalid sort direction: %s. Acceptable values are '
                '\'asc\' or \'desc\'' % value, field='sort_dir')
    return value


def parse_sort_key(value, allowed_keys, default):
    if value is None:
        return default
    if value not in allowed_keys:
        raise exception.InvalidParameterValue(
            err='The sort_key value "%s" is an invalid field for sorting'
                % value, field='sort_key')
    return value


def parse_marker(params):
    """The ``marker`` of a list request (the UUID of the last item of the
    previous page), or None."""
    marker = params.get('marker')
    if marker is not None and not uuidutils.is_uuid_like(marker):
        raise exception.InvalidUUID(uuid=marker, field='marker')
    return marker


def parse_page(params, sort_keys, default_sort_key='id'):
    """(limit, sort_key, sort_dir, marker) of a list request, each checked
    as every list endpoint checks them (400 naming the parameter)."""
    limit = parse_limit(params.get('limit'))
    sort_key = parse_sort_key(params.get('sort_key'), sort_keys,
                              default_sort_key)
    sort_dir = parse_sort_dir(params.get('sort_dir'))
    return limit, sort_key, sort_dir, parse_marker(params)


def parse_detail(params, is_detail_path):
    """True if the full representation is wanted (/detail or
    ?detail=True, the latter from 1.43, never with ``fields``)."""
    detail = params.get('detail')
    if detail is None:
        return is_detail_path
    require_version(versions.DETAIL_PARAM, 'The detail parameter')
    if is_detail_path:
        raise exception.InvalidParameterValue(
            err='The detail parameter cannot be used on /detail.',
            field='detail')
    detail = parse_bool('detail', detail)
    if detail and params.get('fields') is not None:
        raise exception.InvalidParameterValue(
            err='Can not specify ?detail=True and fields in the same '
                'request.', field='detail')
    return detail


def fields_param(params, is_detail_path=False):
    value = params.get('fields')
    if value is None:
        return None
    require_version(versions.FIELDS_PARAM, 'The fields parameter')
    if is_detail_path:
        raise exception.InvalidParameterValue(
            err='The fields parameter cannot be used on /detail.',
            field='fields')
    return value


# -- request bodies -------------------------------------------------------

def load_body(expect=dict):
    """The JSON request body; 400 if missing, malformed or not ``expect``.
    """
    raw = pecan.request.body
    if not raw or not raw.strip():
        raise exception.InvalidParameterValue(
            err='The request body is empty; a JSON document is expected.')
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise exception.InvalidParameterValue(
            err='The request body is not valid JSON: %s' % e)
    except RecursionError:
        validation.refuse_deep_body()
    validation.check_depth(body)
    if not isinstance(body, expect):
        raise exception.InvalidParameterValue(
            err='The request body must be a JSON %s.'
                % ('object' if expect is dict else 'array'))
    return body


def load_optional_body():
    """Like load_body, but an empty body is an empty object."""
    raw = pecan.request.body
    if not raw or not raw.strip():
        return {}
    return load_body(dict)


def check_body_fields(body, writable, fields, what):
    """Refuse unknown body fields (400) and fields newer than the request
    (406), naming the field."""
    for name in body:
        if name not in writable:
            raise exception.InvalidParameterValue(
                err='Unknown or read-only attribute "%s" for a %s.'
                    % (name, what), field=name)
        field = fields.get(name)
        if field is not None and field.since > version():
            raise exception.NotAcceptable(
                'Attribute "%s" needs API version %s or later.'
                % (name, versions.to_string(field.since)), field=name)


def validate(validator, body, string_booleans=False):
    """Check ``body`` against ``validator``'s schema (400 naming the
    field) and return it. With ``string_booleans`` (Ironic's resources),
    boolean fields given as strings ("True", "false", "1": what
    python-ironicclient sends for --retired and the like, and Ironic
    accepts) are turned into booleans first."""
    if string_booleans and isinstance(body, dict):
        properties = validator.schema.get('properties', {})
        for name, value in body.items():
            if isinstance(value, str) and _allows_boolean(
                    properties.get(name)):
                try:
                    body[name] = strutils.bool_from_string(value,
                                                           strict=True)
                except ValueError:
                    pass  # the schema names the field
    validation.validate(validator, body)
    return body


def _allows_boolean(schema):
    kind = (schema or {}).get('type')
    return kind == 'boolean' or (isinstance(kind, list)
                                 and 'boolean' in kind)


class Normalizer(object):
    """Gives request values of a resource their stored form, in place.

    ``dict_fields`` are object-valued: null is stored as an empty dict, so
    readers need not tell the two apart. ``converters`` maps other fields
    to a function of the value giving its stored form. ``defaults`` is
    what each of ``fields`` becomes when a PATCH removes it: an empty dict
    for the object-valued ones, null for the others.
    """

    def __init__(self, fields, dict_fields, converters=None):
        self.dict_fields = frozenset(dict_fields)
        self.converters = dict(converters or {})
        self.defaults = {name: ({} if name in self.dict_fields else None)
                         for name in fields}

    def __call__(self, values):
        for name in self.dict_fields.intersection(values):
            if values[name] is None:
                values[name] = {}
        for name, convert in self.converters.items():
            if name in values:
                values[name] = convert(values[name])
        return values


def by_name(lookup, name):
    """``lookup(name)``; when the request's path lost a ".json" suffix
    (below 1.91, see the version middleware) and there is no such
    resource, ``lookup(name + '.json')``: the name may have been
    "x.json" itself, as Ironic tries."""
    try:
        return lookup(name)
    except exception.NotFound:
        if not pecan.request.environ.get(
                version_middleware.JSON_SUFFIX_KEY):
            raise
        return lookup(name + '.json')


def conductor_groups_filter(params, exclusive):
    """The ``conductor_groups`` filter of a port or port group list (API
    1.99): a comma-separated list of groups, lower case as stored; None
    without one. Not with the ``exclusive`` filters (400, Ironic's)."""
    value = params.get('conductor_groups')
    if value is None:
        return None
    require_version(versions.CONDUCTOR_GROUPS_FILTER,
                    'The conductor_groups filter')
    used = [name for name in exclusive if params.get(name) is not None]
    if used:
        raise exception.InvalidParameterValue(
            err='Filtering by conductor_groups cannot be combined with the '
                '%s filter.' % used[0], field='conductor_groups')
    groups = [g.strip().lower() for g in value.split(',')]
    if not all(groups):
        raise exception.InvalidParameterValue(
            err='conductor_groups must be a comma-separated list of '
                'conductor groups.', field='conductor_groups')
    return groups


# -- nodes ----------------------------------------------------------------

def get_node(ident):
    """A node by UUID, or by name from 1.5 on (404 if none)."""
    db = dbapi()
    if uuidutils.is_uuid_like(ident):
        return db.get_node_by_uuid(ident)
    if allowed(versions.NODE_NAME):
        if not validation.is_logical_name(ident):
            raise exception.InvalidUuidOrName(name=ident)
        return by_name(db.get_node_by_name, ident)
    raise exception.InvalidUUID(uuid=ident)


def get_node_route(ident, reader=None):
    """As get_node(), but only what routing a call about the node needs
    (id, uuid, name, driver, conductor_group): for calls the conductor
    reads the node for anyway. ``reader(column, value)`` reads another
    partial row instead (db.get_node_heartbeat_row for heartbeats)."""
    reader = reader or dbapi().get_node_route
    if uuidutils.is_uuid_like(ident):
        return reader('uuid', ident)
    if allowed(versions.NODE_NAME):
        if not validation.is_logical_name(ident):
            raise exception.InvalidUuidOrName(name=ident)
        return by_name(lambda name: reader('name', name), ident)
    raise exception.InvalidUUID(uuid=ident)


def authorize_hiding(rule, read_rule, target, not_found):
    """Apply ``rule`` to ``target``. A user who may not even read the
    resource (``read_rule``) gets ``not_found`` (404), not 403, so the
    existence of other projects' resources does not leak."""
    ctx = context()
    if policy.check(rule, target, ctx):
        return
    if rule != read_rule and policy.check(read_rule, target, ctx):
        raise exception.HTTPForbidden(resource=rule)
    raise not_found


def authorize_node(rule, node, ident=None):
    """authorize_hiding() for a node; ``ident`` is how the request named
    it."""
    authorize_hiding(rule, 'baremetal:node:get', policy.node_target(node),
                     exception.NodeNotFound(node=ident or node.uuid))


def get_authorized_node(ident, rule):
    node = get_node(ident)
    authorize_node(rule, node, ident)
    return node


def owner_lookup():
    """A function node -> the conductor owning it on the hash ring (or
    None), bound once per request.

    The rings are fetched once and read directly (one tooz ring per
    (hardware type, conductor group), as HashRingManager keeps them): a
    list calls this a thousand times, and the manager's per-call locking
    and bookkeeping cost more than the look-up itself. No query per node.
    """
    rings = rpcapi().ring.rings

    def owner_of(node):
        ring = rings.get((node.driver, node.conductor_group or ''))
        if ring is None:
            return None
        hosts = ring.get_nodes(node.uuid.encode('utf-8'), replicas=1)
        return next(iter(hosts), None)
    return owner_of


def sub_lookup(subcontrollers, ident, remainder):
    """pecan's _lookup for ``/<ident>/<action>``: the controller class
    ``subcontrollers[action]`` built for ``ident``, or None (404)."""
    if len(remainder) != 1:
        return None
    sub = subcontrollers.get(remainder[0])
    if sub is None:
        return None
    return sub(ident), []
