"""os_acc: the seed's accelerator attach library (seed 002).

    initialize()                                   -> None
    plug(instance_info, selected_rp, flavor_extra_specs)
                                                   -> [{"pci_id": <bdf>}]
    unplug(instance_info)                          -> number released

Callers run these in a worker while doing other work, as the seed shows
(the deploy flow writes the image meanwhile)::

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
        future = executor.submit(os_acc.plug, instance_info, rp, specs)
        ...  # other work
        pci_ids = future.result()

A bare-metal node is its own resource provider: ``selected_rp`` is
``{"uuid": <node uuid>}`` (optionally ``deployable_uuid``).

Unlike the seed's pseudocode, a handle is reserved *before* the device
is programmed: programming a region that another request then takes
would hand out a device loaded for someone else. Every step is persisted
on the attachment row (pending -> programming -> programmed -> attached)
with this conductor and a deadline, so the reconciler
(conductor/accelerators.py) finishes or rolls back whatever a dead
conductor left (doc/accelerators.md).
"""

import datetime
import time

from oslo_log import log
from oslo_utils import timeutils
from oslo_utils import uuidutils

from ironic_like.accelerators import bitstreams
from ironic_like.accelerators import drivers
from ironic_like.accelerators import images
from ironic_like.common.accelerators import specs as acc_specs
from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.db import api as db_api
from ironic_like.db.sqlalchemy import accelerators as acc_db

LOG = log.getLogger(__name__)

AgentUnavailable = exception.AgentUnavailable
# The seed's name for it.
CyborgAgentUnavailable = AgentUnavailable

_POLL = 0.2


def _db():
    return db_api.get_instance()


def _node(ident):
    db = _db()
    if uuidutils.is_uuid_like(ident):
        return db.get_node_by_uuid(ident)
    return db.get_node_by_name(ident)


# -- initialize ---------------------------------------------------------------

def initialize(node_uuid=None, timeout=None):
    """Wait until accelerator discovery has finished: of ``node_uuid``,
    or with no node, of every node being discovered.

    :raises: AgentUnavailable when the node's agent could not be reached
        (or it was never asked), or discovery did not finish in
        ``timeout`` s ([accelerators]discovery_timeout).
    """
    db = _db()
    timeout = CONF.accelerators.discovery_timeout if timeout is None \
        else timeout
    deadline = time.monotonic() + timeout
    node = _node(node_uuid) if node_uuid else None
    while True:
        if node is None:
            if not db.count_accelerator_discoveries(acc_db.DISCOVERING):
                return None
        else:
            state = db.get_accelerator_discovery(node.id)
            if state is None:
                raise AgentUnavailable(
                    node=node.uuid,
                    reason='no inventory was ever taken from its agent')
            if state['state'] == acc_db.DISCOVERED:
                return None
            if state['state'] == acc_db.DISCOVERY_FAILED:
                raise AgentUnavailable(node=node.uuid,
                                       reason=state['error'])
        if time.monotonic() >= deadline:
            raise AgentUnavailable(
                node=node.uuid if node else 'any',
                reason='accelerator discovery did not finish within %s s'
                       % timeout)
        time.sleep(_POLL)


# -- plug ------------------------------------------------------------------

def _instance(instance_info):
    if not isinstance(instance_info, dict):
        raise exception.InvalidParameterValue(
            err='instance_info must be a dictionary.', field='instance_info')
    uuid = instance_info.get('uuid')
    if not uuidutils.is_uuid_like(uuid):
        raise exception.InvalidParameterValue(
            err='instance_info.uuid must be a UUID (got %r).' % (uuid,),
            field='instance_info/uuid')
    return instance_info


def _rp_node(selected_rp):
    if not isinstance(selected_rp, dict) or not selected_rp.get('uuid'):
        raise exception.InvalidParameterValue(
            err='selected_rp must be a dictionary with the node\'s "uuid".',
            field='selected_rp/uuid')
    return _node(selected_rp['uuid'])


def _dead_conductors(db):
    alive = {c.hostname for c in
             db.get_alive_conductors(CONF.conductor.heartbeat_timeout)}
    return {c.hostname for c in db.get_conductor_list()} - alive


def _take_over(db, instance_uuid):
    """Attachments of the instance a previous attempt left in progress:
    rolled back when their conductor is dead, is us (an attempt that
    failed half-way) or is past its deadline; a live conductor still
    within its deadline makes this plug wait its turn (409)."""
    rows = db.list_accelerator_attachments(instance_uuid=instance_uuid,
                                           states=acc_db.IN_PROGRESS)
    if not rows:
        return
    dead = _dead_conductors(db)
    now = timeutils.utcnow()
    for row in rows:
        if row['conductor'] not in dead and row['conductor'] != CONF.host \
                and row['deadline'] and row['deadline'] > now:
            raise exception.AcceleratorPlugInProgress(
                instance=instance_uuid, conductor=row['conductor'],
                deadline=row['deadline'].isoformat())
    for row in rows:
        db.release_accelerator_attachment(
            row['id'], state=acc_db.FAILED,
            error='rolled back: plug taken over by %s' % CONF.host)


def _wants_program(request, candidate):
    """Whether ``candidate`` must be programmed for ``request``."""
    if request.bitstream_id:
        return candidate['bitstream_id'] != request.bitstream_id
    if request.function_uuid:
        return (candidate['function_uuid'] or '').lower() != \
            request.function_uuid
    if request.function_name:
        return candidate['function_name'] != request.function_name
    return False


def _matches(request, candidate, program):
    if request.resource_class and \
            candidate['resource_class'] != request.resource_class:
        return False
    have = set(candidate['traits'])
    for trait in request.traits:
        if trait in have:
            continue
        # A function trait a program will provide.
        if program and acc_specs.function_uuid_of_trait(trait):
            continue
        return False
    if program and not drivers.get_driver(
            candidate['driver_name']).programmable:
        return False
    return True


def _choose(request, candidates, selected_rp):
    """Free candidates for ``request``, those needing no program first;
    a region is only reprogrammed when no other handle of it is held."""
    pinned = (selected_rp or {}).get('deployable_uuid')
    held = {c['deployable_id'] for c in candidates if not c['free']}
    chosen = []
    for c in candidates:
        if not c['free']:
            continue
        if pinned and c['deployable_uuid'] != pinned:
            continue
        program = _wants_program(request, c)
        if program and c['deployable_id'] in held:
            continue
        if _matches(request, c, program):
            chosen.append((program, c['pci_address'], c))
    chosen.sort(key=lambda item: (item[0], item[1]))
    return [c for _program, _address, c in chosen]


def _bitstream(request, target):
    """The image to program into ``target``: by id, or the one image of
    the requested function for the target's region type and vendor."""
    service = images.get_service()
    if request.bitstream_id:
        return service.get(request.bitstream_id)
    found = service.find(function_uuid=request.function_uuid,
                         function_name=request.function_name,
                         region_type_uuid=target['region_type_uuid'],
                         vendor=target['vendor'])
    function = request.function_uuid or request.function_name
    if not found:
        raise exception.BitstreamSelectionError(
            err='No bitstream provides function %s for region type %s '
                '(vendor %s).' % (function, target['region_type_uuid'],
                                  target['vendor']))
    if len(found) > 1:
        raise exception.BitstreamSelectionError(
            err='%d bitstreams provide function %s for region type %s: '
                '%s; the choice is the operator\'s (ask for one with '
                'accel:bitstream_id).' % (
                    len(found), function, target['region_type_uuid'],
                    ', '.join(sorted(r.id for r in found))))
    return found[0]


def _check_bitstream(record, target):
    """A bitstream by id must fit the region it goes into."""
    region_type = record.region_type_uuid
    if region_type and target['region_type_uuid'] and \
            region_type.lower() != target['region_type_uuid'].lower():
        raise exception.BitstreamSelectionError(
            err='Bitstream %s is for region type %s; deployable %s is of '
                'region type %s.' % (record.id, region_type,
                                     target['deployable_name'],
                                     target['region_type_uuid']))


def _function_of(record, request):
    uuid = record.function_uuid or request.function_uuid
    if not uuid:
        return None
    return {'uuid': uuid.lower(),
            'name': record.function_name or request.function_name}


def _program(db, node, attachment, target, request):
    record = _bitstream(request, target)
    _check_bitstream(record, target)
    if not db.update_accelerator_attachment(
            attachment['id'], (acc_db.PENDING,), state=acc_db.PROGRAMMING,
            bitstream_id=record.id):
        raise exception.AcceleratorProgramFailed(
            image=record.id, deployable=target['deployable_name'],
            node=node.uuid, error='the attachment was rolled back')
    staged = bitstreams.stage(record)
    function = _function_of(record, request)
    drivers.get_driver(target['driver_name']).program(node, target, staged,
                                                      function)
    if not db.record_accelerator_program(attachment['id'],
                                         target['deployable_id'], function,
                                         record.id):
        raise exception.AcceleratorProgramFailed(
            image=record.id, deployable=target['deployable_name'],
            node=node.uuid,
            error='the attachment was rolled back while programming '
                  '(past its deadline)')


def _describe(request):
    parts = ['%d x %s' % (request.count, request.resource_class or 'any')]
    parts += list(request.traits)
    if request.bitstream_id:
        parts.append('bitstream %s' % request.bitstream_id)
    if request.function_uuid or request.function_name:
        function = request.function_uuid or request.function_name
        parts.append('function %s' % function)
    return ', '.join(parts)


def _plug_one(db, node, instance_info, request, index, selected_rp):
    candidates = _choose(request, db.list_accelerator_candidates(node.id),
                         selected_rp)
    if not candidates:
        raise exception.NoFreeAcceleratorHandle(
            node=node.uuid, request=_describe(request))
    deadline = timeutils.utcnow() + datetime.timedelta(
        seconds=CONF.accelerators.plug_timeout)
    attachment = db.reserve_accelerator_handle(
        node.id, {'instance_uuid': instance_info['uuid'],
                  'instance_name': instance_info.get('name'),
                  'project_id': instance_info.get('project_id'),
                  'request_index': index, 'conductor': CONF.host},
        [c['handle_id'] for c in candidates], deadline)
    target = next(c for c in candidates
                  if c['handle_id'] == attachment['attach_handle_id'])
    try:
        expect = (acc_db.PENDING,)
        if _wants_program(request, target):
            _program(db, node, attachment, target, request)
            expect = (acc_db.PROGRAMMED,)
        if not db.update_accelerator_attachment(
                attachment['id'], expect, state=acc_db.ATTACHED,
                deadline=None):
            raise exception.NoFreeAcceleratorHandle(
                node=node.uuid, request='%s (rolled back meanwhile)'
                % _describe(request))
    except Exception as e:
        db.release_accelerator_attachment(
            attachment['id'], state=acc_db.FAILED,
            error=exception.safe_message(e))
        raise
    LOG.info('Instance %s (%s) on node %s: accelerator %d attached at %s',
             instance_info['uuid'], instance_info.get('name') or '-',
             node.uuid, index, target['pci_address'])
    return {'pci_id': target['pci_address']}


def plug(instance_info, selected_rp, flavor_extra_specs):
    """Attach the accelerators ``flavor_extra_specs`` asks for; returns
    one {"pci_id": <bdf>} per requested accelerator. Attachments the
    instance already has on the node are kept and counted (a rebuild).
    On any error, what this call attached is released again."""
    instance_info = _instance(instance_info)
    node = _rp_node(selected_rp)
    request = acc_specs.parse(flavor_extra_specs)
    if not request.requested:
        return []
    db = _db()
    _take_over(db, instance_info['uuid'])
    kept = db.list_accelerator_attachments(
        instance_uuid=instance_info['uuid'], node_id=node.id,
        states=(acc_db.ATTACHED,))
    results = [{'pci_id': a['pci_address']} for a in kept][:request.count]
    made = []
    try:
        for index in range(len(results), request.count):
            results.append(_plug_one(db, node, instance_info, request,
                                     index, selected_rp))
            made.append(index)
    except Exception:
        if made:
            for row in db.list_accelerator_attachments(
                    instance_uuid=instance_info['uuid'], node_id=node.id):
                if row['request_index'] in made:
                    db.release_accelerator_attachment(row['id'])
        raise
    return results


# -- unplug ----------------------------------------------------------------

def unplug(instance_info):
    """Release every accelerator of the instance; returns how many were
    released (0 on a second call). Programmed regions are left for the
    driver to clean at the node's next cleaning."""
    instance_info = _instance(instance_info)
    db = _db()
    released = 0
    for row in db.list_accelerator_attachments(
            instance_uuid=instance_info['uuid']):
        if db.release_accelerator_attachment(row['id']):
            released += 1
    if released:
        LOG.info('Instance %s (%s): %d accelerator(s) released',
                 instance_info['uuid'], instance_info.get('name') or '-',
                 released)
    return released
