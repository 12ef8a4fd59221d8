"""What the /v1/boot controllers share: policy, look-ups, validation of
bodies with more than one shape, and waking the boot operators."""

from oslo_log import log

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import validation
from ironic_like.common.boot import templates as boot_templates
from ironic_like.common import context as ctx_module
from ironic_like.common import exception
from ironic_like.common import policy
from ironic_like.conductor.boot import records

LOG = log.getLogger(__name__)

READ_RULE = 'baremetal:boot:get'
WRITE_RULE = 'baremetal:boot:write'


def authorize_read():
    policy.authorize(READ_RULE, {}, utils.context())


def authorize_write():
    policy.authorize(WRITE_RULE, {}, utils.context())


def boot_url(*parts):
    """Absolute URL of /v1/boot/<parts>."""
    return '/'.join(('%s/v1/boot' % utils.public_url(),) + parts)


def get_node(ident):
    """The node a component id names (its name or UUID); 404 naming the
    component if there is none."""
    try:
        return utils.dbapi().get_node(ident)
    except (exception.NodeNotFound, exception.InvalidUuidOrName,
            exception.InvalidUUID):
        raise exception.BootComponentNotFound(id=ident)


def get_component(ident):
    """(component, node info) of a component id; 404 if none."""
    node = get_node(ident)
    return utils.dbapi().get_boot_component(node.id)


def check_name(name, field='name'):
    """400 naming ``field`` unless ``name`` is a valid template, session
    or boot set name."""
    if not isinstance(name, str) or not boot_templates.NAME_PATTERN.match(
            name):
        raise exception.InvalidParameterValue(
            err='"%s" is not a valid name: 1-127 letters, digits, ".", "-" '
                'or "_", starting and ending with a letter or digit.'
                % str(name)[:100], field=field)


def validate_part(validator, schema, instance):
    """Validate ``instance`` against ``validator``'s schema; if it fails,
    report the error as ``schema`` (the branch of the body's schema that
    ``instance`` takes) sees it, so that the 400 names the field rather
    than saying that no branch matched."""
    if validator.is_valid(instance):
        return
    validation.validate(validator.evolve(schema=schema), instance)
    validation.validate(validator, instance)


def validate_records(validator, item_schema, records):
    """Validate an array body against ``validator``; a 400 names the field
    of the first bad record (``item_schema`` is the records' schema) and
    which record it is."""
    if validator.is_valid(records):
        return
    part = validator.evolve(schema=item_schema)
    for index, record in enumerate(records):
        try:
            validation.validate(part, record)
        except exception.InvalidParameterValue as e:
            ident = record.get('id') if isinstance(record, dict) else None
            where = 'record %d%s' % (index, ' (id %s)' % ident[:255]
                                     if isinstance(ident, str) else '')
            raise exception.InvalidParameterValue(
                err='%s (%s)' % (exception.safe_message(e), where),
                field=e.field)
    # Nothing wrong in a record: the array itself (too many records).
    validation.validate(validator, records)


def component_dict(component, node):
    return records.component_dict(component, node)


def wake(*operators, context=None, node_ids=None):
    """Ask the boot operators of every conductor to act now rather than at
    their next poll (after a session is created or aborted, a component
    written, a staged session applied, a boot reported).

    Best effort: the change is stored already and the operators poll for
    it anyway, so a message bus that cannot take the cast does not fail
    the request. ``operators``: the ones that act next (all if none);
    ``node_ids``: the nodes concerned, if known (a targeted wake)."""
    try:
        utils.rpcapi().wake_boot_operators(context or utils.context(),
                                           list(operators) or None,
                                           node_ids=node_ids)
    except Exception:
        LOG.warning('Could not wake the boot operators; they act at their '
                    'next poll.', exc_info=True)


def anonymous_context():
    """A context for a public route: identity headers there are validated
    by no one and must not be trusted."""
    request_ctx = utils.context()
    return ctx_module.RequestContext(
        request_id=getattr(request_ctx, 'request_id', None),
        overwrite=False)
