"""Rescue and unrescue of a deployed node (Ironic's, API 1.38).

"rescue" from active (or rescue, rescue failed, unrescue failed): the
node boots a rescue ramdisk and waits in "rescue wait" for its agent's
first heartbeat (agent_heartbeat.py hands it here), which sends the agent
the hash of the rescue password; the node is then "rescue". "unrescue"
boots the instance again and returns to active. With the ``agent`` rescue
interface the work is the rescue flows (conductor/flows/rescue.py); a
node without a rescue interface (no-rescue) is refused (400), as Ironic
refuses it.

The password the user gave is kept in instance_info['rescue_password']
(masked by the API, as every key naming a password) until the agent has
set it; the agent is only ever sent its sha512-crypt hash, kept in
instance_info['hashed_rescue_password'] until unrescue. A node that
waits longer than [conductor]rescue_callback_timeout fails (checked with
the other agent timeouts, agent_timeouts.py).
"""

import hashlib
import os

from oslo_log import log
from oslo_utils import timeutils

from ironic_like.common import agent_info
from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conductor.flows import node_steps
from ironic_like.conductor.flows import rescue as rescue_flows
from ironic_like.conductor.flows import runner
from ironic_like.conductor import wait_deadlines
from ironic_like.conf import CONF
from ironic_like.drivers.modules import agent_rescue

LOG = log.getLogger(__name__)

EVENTS = frozenset(['rescue', 'unrescue'])

# -- the password's hash --------------------------------------------------
#
# SHA-512 crypt ("$6$", Drepper's specification, the format of
# /etc/shadow that the rescue agent writes), computed with hashlib: the
# crypt module is deprecated (gone in Python 3.13) and passlib is not a
# dependency. 5000 rounds, the specification's default, so the hash
# carries no "rounds=" field.

_ROUNDS = 5000
_SALT_CHARS = ('./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
               'abcdefghijklmnopqrstuvwxyz')
# The crypt alphabet, which is not RFC 4648's (base64 cannot do it).
_ITOA64 = _SALT_CHARS


def _repeat(digest, length):
    return (digest * (length // len(digest) + 1))[:length]


def _b64_triplet(b2, b1, b0, count):
    w = (b2 << 16) | (b1 << 8) | b0
    out = []
    for _ in range(count):
        out.append(_ITOA64[w & 0x3f])
        w >>= 6
    return ''.join(out)


def hash_password(password, salt=None):
    """The sha512-crypt hash of ``password`` with ``salt`` (16 random
    crypt characters when None)."""
    if salt is None:
        salt = ''.join(_SALT_CHARS[b % 64] for b in os.urandom(16))
    pw = password.encode('utf-8')
    s = salt[:16].encode('ascii')
    b = hashlib.sha512(pw + s + pw).digest()
    a = hashlib.sha512(pw + s)
    a.update(_repeat(b, len(pw)))
    n = len(pw)
    while n:
        a.update(b if n & 1 else pw)
        n >>= 1
    c = a.digest()
    p = _repeat(hashlib.sha512(pw * len(pw)).digest(), len(pw))
    s_seq = _repeat(hashlib.sha512(s * (16 + c[0])).digest(), len(s))
    for r in range(_ROUNDS):
        h = hashlib.sha512(p if r & 1 else c)
        if r % 3:
            h.update(s_seq)
        if r % 7:
            h.update(p)
        h.update(c if r & 1 else p)
        c = h.digest()
    encoded = []
    for k in range(21):
        i, j, m = k, k + 21, k + 42
        order = ((i, j, m), (j, m, i), (m, i, j))[k % 3]
        encoded.append(_b64_triplet(*(c[x] for x in order), count=4))
    encoded.append(_b64_triplet(0, 0, c[63], 2))
    return '$6$%s$%s' % (s.decode('ascii'), ''.join(encoded))


# -- which interface ------------------------------------------------------

def interface(task):
    """The node's rescue interface, or None when it has none."""
    return getattr(task.driver, 'rescue', None)


def validate(task, event, params):
    """Before the node moves (under the lock): refuse (400) a node that
    cannot be rescued and a rescue without a usable password, rather
    than fail them in the background."""
    iface = interface(task)
    if iface is None or not getattr(iface, 'runs_flows', False):
        raise exception.UnsupportedDriverExtension(
            driver=task.node.driver, extension=event)
    if event == 'rescue':
        password = (params or {}).get('rescue_password')
        if not isinstance(password, str) or not password.strip():
            raise exception.MissingParameterValue(
                err='A non-empty "rescue_password" is required to rescue '
                    'node %s.' % task.node.uuid, field='rescue_password')
    iface.validate(task)


# -- the work (in the provisioning worker, which holds the lock) ----------

def start_rescue(task, params):
    """The node is "rescuing": keep the password and its hash, boot the
    rescue ramdisk and wait for its agent."""
    password = params['rescue_password']
    info = dict(task.node.instance_info or {})
    info[agent_rescue.PASSWORD] = password
    info[agent_rescue.HASHED_PASSWORD] = hash_password(password)
    task.update_node({'instance_info': info})
    node_steps.set_info(task, **{agent_info.PHASE: None,
                                 agent_info.COMMAND: None})
    runner.run_chain(task, rescue_flows.BOOT_RAMDISK)


def start_unrescue(task, params):
    """The node is "unrescuing": boot the instance again."""
    runner.run_chain(task, rescue_flows.UNRESCUE)


def _back_to_wait(task, error):
    # The pool refused the work: wait again, the next heartbeat retries.
    node_steps.move(task, 'wait')


def on_heartbeat(task):
    """A heartbeat was recorded for ``task.node`` (locked) in "rescue
    wait": the first one from the rescue ramdisk finalizes the rescue (in
    a worker; the RPC thread only decides)."""
    node = task.node
    phase = (node.driver_internal_info or {}).get(agent_info.PHASE)
    if (node.maintenance or node.provision_state != states.RESCUEWAIT or
            phase != rescue_flows.PHASE_FINALIZE):
        return
    node_steps.move(task, 'resume')
    task.set_spawn_error_hook(_back_to_wait)
    task.spawn_after(runner.executor(), runner.run_chain,
                     rescue_flows.FINISH)


def abort(task):
    """An operator aborted "rescue wait" (the node is rescue failed
    now): power off, leave the ramdisk, forget the password, in a
    worker."""
    task.spawn_after(runner.executor(), _abort_cleanup)


def _abort_cleanup(task):
    try:
        node_steps.power_off(task)
    except Exception as e:
        LOG.warning('Node %s: power off after abort failed: %s',
                    task.node.uuid, e)
    node_steps.leave_ramdisk(task)
    rescue_flows.forget_password(task)


# -- [conductor]rescue_callback_timeout -----------------------------------

def wait_overdue(node, now=None):
    """Seconds the node has waited in "rescue wait" past
    [conductor]rescue_callback_timeout (None within it, or without
    one)."""
    timeout = CONF.conductor.rescue_callback_timeout
    if (not timeout or node.maintenance or
            node.provision_state != states.RESCUEWAIT):
        return None
    info = node.driver_internal_info or {}
    started = timeutils.parse_isotime(info[agent_info.PHASE_STARTED]) \
        if info.get(agent_info.PHASE_STARTED) else node.provision_updated_at
    return wait_deadlines.seconds_late(started, timeout, now)


def act_on_overdue_wait(context, node_id):
    """Fail the rescue of a node that waited too long for its agent, its
    password forgotten ('failed', or None)."""
    return wait_deadlines.fail_if_late(
        context, node_id, wait_overdue, 'rescue wait timeout',
        'Timeout reached while waiting for the rescue ramdisk: its agent '
        'did not call back within %d seconds '
        '([conductor]rescue_callback_timeout).'
        % CONF.conductor.rescue_callback_timeout,
        after=rescue_flows.forget_password)
