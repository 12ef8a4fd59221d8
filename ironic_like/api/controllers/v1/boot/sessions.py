"""/v1/boot/sessions (BOS v2's sessions) with our additions: /preview
(what a session would act on, changing nothing), /{name}/abort, and the
per-boot-set counts in /{name}/status.

Creation, preview and abort are the conductor's boot.sessions functions
(they check the template, the limit and the nodes other sessions hold);
the boot operators are woken after each change so that they act at once.
"""

import re

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.boot import common
from ironic_like.api.controllers.v1 import utils
from ironic_like.api.schemas import boot as schema
from ironic_like.api import validation
from ironic_like.common import exception
from ironic_like.conductor.boot import records
from ironic_like.conductor.boot import session_status
from ironic_like.conductor.boot import sessions as boot_sessions

FILTER_PARAMS = ('status', 'min_age', 'max_age')

_SESSION_VALIDATOR = validation.make_validator(schema.SESSION_BODY)

_AGE_RE = re.compile(schema.AGE['pattern'])
_AGE_UNITS = {'m': 60, 'h': 3600, 'd': 86400, 'w': 604800}
# Ages beyond this mean "older than every session" just as well, and keep
# the time arithmetic in range.
MAX_AGE_SECONDS = 100 * 366 * 86400


def render(boot_session):
    return records.session_dict(boot_session)


def parse_age(value, field):
    """Seconds of a BOS age ("0", "30m", "6h", "1d", "2w"); 400 naming
    ``field`` otherwise."""
    if value is None:
        return None
    if len(value) > schema.AGE['maxLength'] or not _AGE_RE.match(value):
        raise exception.InvalidParameterValue(
            err='Invalid age "%s": a number and a unit, m (minutes), h '
                '(hours), d (days) or w (weeks), such as "6h".'
                % value[:20], field=field)
    if value == '0':
        return 0
    seconds = int(value[:-1]) * _AGE_UNITS[value[-1].lower()]
    return min(seconds, MAX_AGE_SECONDS)


def list_filters(params):
    """The keyword arguments of db.list_boot_sessions from the query."""
    status = params.get('status')
    if status is not None and status not in schema.SESSION_STATUSES:
        raise exception.InvalidParameterValue(
            err='Invalid session status "%s": use one of %s.'
                % (status[:20], ', '.join(schema.SESSION_STATUSES)),
            field='status')
    return {'status': status,
            'min_age': parse_age(params.get('min_age'), 'min_age'),
            'max_age': parse_age(params.get('max_age'), 'max_age')}


def _session_values():
    body = utils.load_body()
    utils.validate(_SESSION_VALIDATOR, body)
    return dict(body)


class SessionStatusController(rest.RestController):
    """/v1/boot/sessions/{name}/status: BOS's extended status and ours."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.query()
        common.authorize_read()
        db = utils.dbapi()
        return session_status.build(db, db.get_boot_session(self.name))


class SessionAbortController(rest.RestController):
    """/v1/boot/sessions/{name}/abort: disable the session's components
    (nothing further is powered) and complete it with error "aborted"."""

    def __init__(self, name):
        self.name = name

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        common.authorize_write()
        boot_session = boot_sessions.abort_session(utils.dbapi(), self.name)
        common.wake('session_completion')
        return render(boot_session)


class SessionsController(rest.RestController):
    """/v1/boot/sessions."""

    _custom_actions = {'preview': ['POST']}

    _subcontrollers = {
        'status': SessionStatusController,
        'abort': SessionAbortController,
    }

    @pecan.expose()
    def _lookup(self, name, *remainder):
        return utils.sub_lookup(self._subcontrollers, name, remainder)

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(FILTER_PARAMS)
        common.authorize_read()
        filters = list_filters(params)
        return [render(s) for s in
                utils.dbapi().list_boot_sessions(**filters)]

    @pecan.expose('json')
    def get_one(self, name, **kwargs):
        utils.query()
        common.authorize_read()
        return render(utils.dbapi().get_boot_session(name))

    @pecan.expose('json')
    def post(self, **kwargs):
        """Create a session (201); the template is copied into it."""
        utils.query()
        common.authorize_write()
        values = _session_values()
        boot_session = boot_sessions.create_session(utils.dbapi(), values)
        common.wake('session_setup')
        utils.set_status(201)
        return render(boot_session)

    @pecan.expose('json')
    def preview(self, **kwargs):
        """What POST would act on, per boot set, and why other nodes are
        left out. Changes nothing (so a reader may ask)."""
        utils.query()
        common.authorize_read()
        return boot_sessions.preview(utils.dbapi(), _session_values())

    @pecan.expose('json')
    def delete(self, name=None, **kwargs):
        """Delete one session's record, or (without a name) those the
        filters select. Components are left as they are, as in BOS."""
        db = utils.dbapi()
        if name is None:
            params = utils.query(FILTER_PARAMS)
            common.authorize_write()
            names = [s.name for s in
                     db.list_boot_sessions(**list_filters(params))]
            db.delete_boot_sessions(names)
        else:
            utils.query()
            common.authorize_write()
            db.get_boot_session(name)
            if not db.delete_boot_sessions([name]):
                raise exception.BootSessionNotFound(name=name)
        utils.set_status(204)
