"""``openstack baremetal boot session ...``: boot, reboot or shut down the
nodes of a session template as one session."""

import time

from osc_lib.command import command
from osc_lib import exceptions as osc_exc

from ironic_like.osc import client as http
from ironic_like.osc import common
from ironic_like.osc.v1 import boot
from ironic_like.osc.v1 import boot_status
from ironic_like.osc.v1 import progress

COLLECTION = 'sessions'
OPERATIONS = ('boot', 'reboot', 'shutdown')
STATES = ('pending', 'running', 'complete')
# Seconds between two status polls of --wait.
POLL_INTERVAL = 2.0
# Failed nodes named in the error of a --wait.
MAX_NAMED_FAILURES = 5

SHORT_FIELDS = ('name', 'operation', 'template_name', 'status.status',
                'status.start_time', 'status.end_time', 'status.error')
SHORT_TITLES = ('Name', 'Operation', 'Template', 'Status', 'Start Time',
                'End Time', 'Error')
LONG_FIELDS = SHORT_FIELDS + ('limit', 'stage', 'include_disabled',
                              'tenant', 'components')
LONG_TITLES = SHORT_TITLES + ('Limit', 'Stage', 'Include Disabled',
                              'Tenant', 'Components')


def session_body(parsed_args):
    """The body of POST sessions (and sessions/preview)."""
    body = {'operation': parsed_args.operation,
            'template_name': parsed_args.template}
    if parsed_args.name is not None:
        body['name'] = parsed_args.name
    if parsed_args.limit is not None:
        body['limit'] = parsed_args.limit
    for flag in ('stage', 'include_disabled', 'takeover'):
        if getattr(parsed_args, flag):
            body[flag] = True
    return body


def outcome_error(name, status, session):
    """The CommandError of a completed session with failed nodes or an
    error, else None."""
    problems = []
    error = status.get('error') or boot.dig(session, 'status.error')
    if error:
        problems.append('error: %s' % http.one_line(error))
    counts = boot_status.session_counts(status)
    failed_nodes = [n for n in status.get('failed_nodes') or ()
                    if isinstance(n, dict)]
    failed = max(counts['failed'], len(failed_nodes))
    if failed:
        text = '%d of %d nodes failed' % (failed, counts['total'])
        named = ['%s: %s' % (n.get('id'), http.one_line(n.get('error')
                                                        or 'failed'))
                 for n in failed_nodes[:MAX_NAMED_FAILURES]]
        if named:
            text += ' (%s%s)' % ('; '.join(named),
                                 '; and %d more' % (failed - len(named))
                                 if failed > len(named) else '')
        problems.append(text)
    if not problems:
        return None
    return osc_exc.CommandError(
        'Session %s completed with %s. See: openstack baremetal boot '
        'session status %s' % (name, ', '.join(problems), name))


def add_filter_options(parser, what):
    parser.add_argument('--status', choices=STATES,
                        help='Only %s in this state.' % what)
    parser.add_argument('--min-age', metavar='<age>',
                        help='Only %s older than this (e.g. 30m, 2h, '
                             '1d).' % what)
    parser.add_argument('--max-age', metavar='<age>',
                        help='Only %s younger than this.' % what)


def filter_params(parsed_args):
    return {'status': parsed_args.status, 'min_age': parsed_args.min_age,
            'max_age': parsed_args.max_age}


class SessionCommand(boot.BootMixin):

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('session', metavar='<session>',
                            help='Name of the session.')
        return parser


class CreateBootSession(boot.BootMixin, command.ShowOne):
    """Create a boot session: boot, reboot or shut down the nodes of a
    session template."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--template', required=True,
                            metavar='<template>',
                            help='Name of the session template.')
        parser.add_argument('--operation', required=True,
                            choices=OPERATIONS,
                            help='What to do to the nodes.')
        parser.add_argument('--name', metavar='<name>',
                            help='Name of the session (default: '
                                 'generated).')
        parser.add_argument('--limit', metavar='<limit>',
                            help='Act on these nodes only: a comma list '
                                 'of node names, groups or roles (BOS '
                                 'limit syntax).')
        parser.add_argument('--stage', action='store_true', default=False,
                            help='Stage the change only: "boot '
                                 'applystaged" applies it later.')
        parser.add_argument('--include-disabled', action='store_true',
                            default=False,
                            help='Also act on disabled nodes (in '
                                 'maintenance or retired).')
        parser.add_argument('--takeover', action='store_true',
                            default=False,
                            help='Take over nodes held by another running '
                                 'session (else that is an error).')
        parser.add_argument('--preview', action='store_true', default=False,
                            help='Create nothing: show, per boot set, the '
                                 'nodes the session would act on and the '
                                 'excluded ones with why.')
        common.add_wait_option(
            parser, 'the session is complete, showing its progress '
                    '(Ctrl-C stops waiting; the session goes on)')
        return parser

    def take_action(self, parsed_args):
        body = session_body(parsed_args)
        if parsed_args.preview:
            if parsed_args.wait_timeout is not None:
                raise osc_exc.CommandError('--preview creates no session: '
                                           'there is nothing to --wait '
                                           'for.')
            return boot_status.preview_output(
                self.boot.post(boot.path(COLLECTION, 'preview'), body))
        session = self.boot.post(COLLECTION, body)
        if parsed_args.wait_timeout is None:
            return common.show(session)
        name = session['name']
        status = self.wait(name, parsed_args.wait_timeout)
        session = self.boot.get(boot.path(COLLECTION, name))
        error = outcome_error(name, status, session)
        if error:
            raise error
        return common.show(session)

    def wait(self, name, timeout, clock=time.monotonic, sleep=time.sleep,
             width=None):
        """Poll the session's status every POLL_INTERVAL seconds until it
        is complete (``timeout`` seconds at most, if not 0 or None),
        showing the progress on stderr; the last status."""
        progress_bar = progress.CountsProgress(
            self.app.stderr, name, boot_status.PROGRESS_VIEW, width)
        status_path = boot.path(COLLECTION, name, 'status')
        start = clock()
        try:
            while True:
                status = self.boot.get(status_path) or {}
                elapsed = clock() - start
                progress_bar.update(status, elapsed)
                if boot_status.state_of(status) == boot_status.COMPLETE:
                    return status
                if timeout and elapsed >= timeout:
                    counts = boot_status.session_counts(status)
                    raise common.WaitTimeout(
                        'Timed out after %d seconds: session %s is %d%% '
                        'complete (%d of %d nodes done).'
                        % (timeout, name, counts['percent'],
                           counts['done'], counts['total']))
                delay = POLL_INTERVAL
                if timeout:
                    delay = max(0, min(delay, timeout - elapsed))
                sleep(delay)
        except KeyboardInterrupt:
            progress_bar.finish()
            self.app.stderr.write(
                'Stopped waiting; session %s goes on (see: openstack '
                'baremetal boot session status %s).\n' % (name, name))
            raise
        finally:
            progress_bar.finish()


class ListBootSession(boot.BootMixin, command.Lister):
    """List boot sessions."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        add_filter_options(parser, 'sessions')
        parser.add_argument('--long', action='store_true', default=False,
                            help='Show more fields.')
        return parser

    def take_action(self, parsed_args):
        items = self.boot.list(COLLECTION, filter_params(parsed_args))
        if parsed_args.long:
            return LONG_TITLES, boot.rows(items, LONG_FIELDS)
        return SHORT_TITLES, boot.rows(items, SHORT_FIELDS)


class ShowBootSession(SessionCommand, command.ShowOne):
    """Show a boot session."""

    def take_action(self, parsed_args):
        return common.show(self.boot.get(boot.path(COLLECTION,
                                                   parsed_args.session)))


class DeleteBootSession(boot.BootMixin, command.Command):
    """Delete the records of boot sessions, by name or by filters (this
    changes no node)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('sessions', nargs='*', metavar='<session>',
                            help='Names of the sessions.')
        add_filter_options(parser, 'sessions (instead of names)')
        return parser

    def take_action(self, parsed_args):
        params = {k: v for k, v in filter_params(parsed_args).items()
                  if v is not None}
        if bool(params) == bool(parsed_args.sessions):
            raise osc_exc.CommandError(
                'Give either the names of sessions or filters (--status, '
                '--min-age, --max-age).')
        if params:
            self.boot.delete(COLLECTION, params)
            self.app.stdout.write('Deleted the sessions with %s\n' % (
                ', '.join('%s=%s' % kv for kv in sorted(params.items()))))
            return
        common.delete_each(
            parsed_args.sessions,
            lambda name: self.boot.delete(boot.path(COLLECTION, name)),
            'session', out=self.app.stdout)


class AbortBootSession(SessionCommand, command.ShowOne):
    """Abort a boot session: its nodes are disabled (nothing further is
    powered) and it completes with the error "aborted"."""

    def take_action(self, parsed_args):
        return common.show(self.boot.post(
            boot.path(COLLECTION, parsed_args.session, 'abort'), None))


class StatusBootSession(SessionCommand, command.ShowOne):
    """Show the status of a boot session: phases, counts, boot sets,
    failed nodes and timing."""

    def take_action(self, parsed_args):
        return boot_status.status_output(self.boot.get(boot.path(
            COLLECTION, parsed_args.session, 'status')) or {})
