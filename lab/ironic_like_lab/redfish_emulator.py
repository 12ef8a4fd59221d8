"""A simulated BMC: sushy-tools' Redfish emulator with a fixed power delay.

Run as ``python -m ironic_like_lab.redfish_emulator [--power-delay S]
<sushy-emulator arguments>``. sushy-tools' FakeDriver (no libvirt) applies
a power change after a random, hard-coded 1-11 s; this wrapper makes that
delay ``--power-delay`` seconds (default 0) and then runs the emulator
unchanged. A change still shows only on the next GET of the system.

With ``EXTERNAL_NOTIFICATION_URL`` pointing at the agent simulator's
``/control/power``, the simulated machines follow the emulator's power and
boot device (see :func:`write_config`). sushy-tools is needed only here
(it is a test requirement, not a service one).
"""

import argparse
import inspect
import sys
import uuid as uuidlib


class _FixedRandom(object):
    """Stands for the ``random`` module inside sushy-tools' FakeDriver."""

    def __init__(self, delay):
        self.delay = delay

    def randint(self, low, high):
        return self.delay


def patch_power_delay(delay=0):
    """Make the FakeDriver apply power changes after ``delay`` seconds."""
    from sushy_tools.emulator.resources.systems import fakedriver
    source = inspect.getsource(fakedriver.FakeDriver.set_power_state)
    if 'random.randint' not in source:
        # sushy-tools changed: fail loudly rather than keep a random delay.
        raise RuntimeError('sushy-tools FakeDriver.set_power_state no longer '
                           'uses random.randint; update the wrapper in %s'
                           % __file__)
    fakedriver.random = _FixedRandom(int(delay))


def make_system(name, mac, power_state='Off', notify=True, uuid=None):
    """One FakeDriver system definition.

    ``notify``: the emulator sends the whole system to the notification
    URL on every change (power, pending power, boot device).
    """
    return {'uuid': uuid or str(uuidlib.uuid4()), 'name': name,
            'power_state': power_state, 'external_notifier': notify,
            'nics': [{'mac': mac, 'ip': '192.0.2.10'}]}


def write_config(path, systems, state_dir, notification_url=None):
    """Write the emulator's config file (Python syntax) for the FakeDriver.

    The emulator calls ``notification_url`` synchronously, without a
    timeout, and fails the Redfish request when it is down: whatever
    listens there must live as long as the emulator.
    """
    lines = ['SUSHY_EMULATOR_FAKE_DRIVER = True',
             'SUSHY_EMULATOR_FAKE_SYSTEMS = %r' % (list(systems),),
             'SUSHY_EMULATOR_STATE_DIR = %r' % (state_dir,)]
    if notification_url:
        lines.append('EXTERNAL_NOTIFICATION_URL = %r' % (notification_url,))
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def patch_state_connections():
    """Make the emulator reuse and close the SQLite connections of its
    state.

    sushy-tools' PersistentDict opens a connection per access inside
    ``with sqlite3.connect(...)``, which commits but never closes it, and
    switches it to WAL each time: with a few hundred systems polled by
    conductors the emulator ran out of file descriptors ("unable to open
    database file") and then answered "database is locked". Here the
    connections are pooled (one per concurrent request), switched to WAL
    once, and wait up to 30 s for a lock.
    """
    import contextlib
    import queue
    import sqlite3

    from sushy_tools.emulator import memoize

    pools = {}

    @contextlib.contextmanager
    def connection(self):
        if not self._dbpath:
            raise TypeError('Dict is not yet persistent')
        pool = pools.setdefault(self._dbpath, queue.LifoQueue())
        try:
            conn = pool.get_nowait()
        except queue.Empty:
            conn = sqlite3.connect(self._dbpath, timeout=30,
                                   check_same_thread=False)
            conn.execute('pragma journal_mode=wal')
        try:
            with conn:
                yield conn.cursor()
        except BaseException:
            conn.close()
            raise
        pool.put(conn)

    memoize.PersistentDict.connection = connection


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument('--power-delay', type=int, default=0)
    ours, rest = parser.parse_known_args(argv)
    patch_power_delay(ours.power_delay)
    patch_state_connections()
    from sushy_tools.emulator import main as emulator_main
    sys.argv = ['sushy-emulator'] + rest
    return emulator_main.main()


if __name__ == '__main__':
    sys.exit(main())
