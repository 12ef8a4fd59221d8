"""Boot sessions end to end, every piece a real process: the API and two
conductors (MariaDB, RabbitMQ), sushy-tools' Redfish emulator (the BMCs),
the simulated machines (they network-boot the session's kernel and
initrd from the boot file server, read the referral token from their
kernel command line and report it) and the boot file server.

* A reboot of 200 nodes chosen by group and role with a limit: every
  chosen component ends stable with its actual boot artifacts equal to
  the desired ones, each machine booted the image exactly once, the
  others were not touched.
* Faults: machines that never report are retried, then failed with the
  cause; machines that ignore a graceful shutdown are forced off; a staged
  session waits for applystaged.
* A conductor killed with SIGKILL mid-session: the session completes
  through the survivor, and no machine was powered on twice for one
  attempt.

Every wait is bounded; every process is stopped at the end.
"""

import collections
import hashlib
import json
import os
import signal

from ironic_like.tests.functional import test_agent_deploy

SESSION_BOUND = 300
KERNEL_BYTES = 256 * 1024


def _write(path, data):
    with open(path, 'wb') as f:
        f.write(data)
    return hashlib.sha256(data).hexdigest()


class BootLab(test_agent_deploy.Lab):
    """The deploy tests' lab, its machines powered on, with a kernel, an
    initrd and a boot manifest on the boot file server."""

    def __init__(self, test, count, conf=None, agent_options=None):
        super().__init__(test, count, conf, agent_options, power_state='On')
        images = os.path.join(self.http_root, 'images')
        kernel_sha = _write(os.path.join(images, 'vmlinuz'),
                            os.urandom(KERNEL_BYTES))
        initrd_sha = _write(os.path.join(images, 'initrd.img'),
                            os.urandom(KERNEL_BYTES))
        self.kernel = self.http_url + '/images/vmlinuz'
        self.initrd = self.http_url + '/images/initrd.img'
        manifest = {'kernel': {'path': self.kernel, 'sha256': kernel_sha},
                    'initrd': {'path': self.initrd, 'sha256': initrd_sha},
                    'kernel_parameters': 'console=ttyS0 root=live'}
        with open(os.path.join(images, 'manifest.json'), 'w') as f:
            json.dump(manifest, f)
        self.manifest = self.http_url + '/images/manifest.json'

    def enrol_with_labels(self, labels_of):
        """Enrol every machine; ``labels_of(index)`` gives its labels."""
        self.names = []
        for index, system in enumerate(self.systems):
            node = self.api('POST', '/v1/nodes', {
                'name': system['name'], 'driver': 'redfish',
                'deploy_interface': 'agent', 'boot_interface': 'ipxe',
                'properties': {'cpu_arch': 'x86_64'},
                'labels': labels_of(index),
                'driver_info': self.emulator.driver_info(system['uuid'])})
            self.api('POST', '/v1/ports', {
                'node_uuid': node['uuid'],
                'address': system['nics'][0]['mac']})
            self.nodes.append(node['uuid'])
            self.names.append(system['name'])

    def boot(self, path, body=None, expect=(200, 201, 204)):
        return self.api(body is None and 'GET' or 'POST', '/v1/boot' + path,
                        body, expect=expect)

    def wait_complete(self, name, timeout=SESSION_BOUND):
        seen = {}

        def complete():
            seen['status'] = self.api('GET', '/v1/boot/sessions/%s/status'
                                      % name)
            return seen['status']['status'] == 'complete'
        self.test.assertEventually(
            complete, timeout, interval=1,
            message=lambda: 'session %s did not complete: %s; not done: %s'
            % (name, json.dumps(seen.get('status'))[:2000],
               self.describe_unfinished(name)))
        return seen['status']

    def describe_unfinished(self, name):
        """The components of a session not stable yet, each with what
        its machine says (for a failure message)."""
        lines = []
        for ident, component in sorted(self.components(
                session=name).items()):
            if component['status']['status'] in ('stable', 'failed'):
                continue
            lines.append('%s: %s; machine: %s' % (
                ident, json.dumps(component), json.dumps(
                    self.machine_summary(self.names.index(ident)))))
        return '\n'.join(lines[:5])

    def machine_summary(self, index):
        """What machine ``index`` says of itself, for a failure
        message."""
        machine = self.machine(index)
        summary = {k: machine.get(k) for k in (
            'state', 'counters', 'last_report_status')}
        summary['os_boot'] = (machine.get('records') or {}).get('os_boot')
        return summary

    def components(self, **filters):
        query = '&'.join('%s=%s' % kv for kv in sorted(filters.items()))
        return {c['id']: c for c in self.api(
            'GET', '/v1/boot/components' + ('?' + query if query else ''))}

    def machine(self, index):
        return self.agent(index)

    def os_boots(self):
        return [self.machine(i)['counters'].get('os_boots', 0)
                for i in range(len(self.systems))]


class BootSessionTestCase(test_agent_deploy.AgentDeployTestCase):
    TIMEOUT = 600

    def start_boot_lab(self, count, conf=None, agent_options=None):
        return BootLab(self, count, conf, agent_options)

    def template(self, lab, name, boot_sets):
        self.assertEqual(name, lab.api(
            'PUT', '/v1/boot/sessiontemplates/%s' % name,
            {'boot_sets': boot_sets, 'enable_cfs': False})['name'])

    def check_booted(self, lab, component):
        desired = component['desired_state']['boot_artifacts']
        self.assertEqual('stable', component['status']['status'],
                         component)
        self.assertEqual(desired, component['actual_state']['boot_artifacts'])
        self.assertEqual(component['desired_state']['bss_token'],
                         component['actual_state']['bss_token'])


class TestFleetReboot(BootSessionTestCase):

    def test_reboot_200_by_group_and_role_with_limit(self):
        lab = self.start_boot_lab(200)

        def labels(index):
            if index < 150:
                return {'group.compute': 'yes', 'role': 'Compute'}
            return {'role': 'Application', 'subrole': 'UAN'}
        lab.enrol_with_labels(labels)
        self.template(lab, 'fleet', {
            'compute': {'name': 'compute', 'type': 'http',
                        'path': lab.manifest,
                        'kernel_parameters': 'quiet',
                        'node_groups': ['compute']},
            'uan': {'name': 'uan', 'kernel': lab.kernel,
                    'initrd': lab.initrd,
                    'node_roles_groups': ['Application_UAN']}})
        # A machine whose boot failed on a busy machine (a download cut
        # short) is power-cycled within the test's bound, not BOS's 20 min.
        lab.api('PATCH', '/v1/boot/options', {'max_boot_wait_time': 120})
        excluded = {lab.names[0], lab.names[199]}
        session = lab.api('POST', '/v1/boot/sessions', {
            'name': 'reboot-all', 'operation': 'reboot',
            'template_name': 'fleet',
            'limit': 'compute,Application_UAN,!%s,!%s' % tuple(
                sorted(excluded))}, expect=(201,))
        self.assertEqual('pending', session['status']['status'])
        status = lab.wait_complete('reboot-all')
        self.note('status', json.dumps(status, indent=1))
        self.assertEqual(198, status['managed_components_count'])
        self.assertEqual(100.0, status['percent_successful'])
        self.assertEqual({'stable': 198}, status['counts']['status'])
        self.assertEqual(149, status['boot_sets']['compute']['total'])
        self.assertEqual(49, status['boot_sets']['uan']['total'])
        components = lab.components(session='reboot-all')
        self.assertEqual(198, len(components))
        for ident, component in components.items():
            self.check_booted(lab, component)
            params = component['desired_state']['boot_artifacts'][
                'kernel_parameters']
            if ident in lab.names[:150]:
                self.assertIn('console=ttyS0 root=live quiet', params)
            else:
                self.assertNotIn('root=live', params)
        boots = lab.os_boots()
        for index, name in enumerate(lab.names):
            self.assertEqual(0 if name in excluded else 1, boots[index], (
                name, components.get(name), lab.machine_summary(index)))
        for index in (0, 199):
            self.assertEqual('On', lab.bmc_power(index))
        # The frozen status stays as it was.
        self.assertEqual(status, lab.api(
            'GET', '/v1/boot/sessions/reboot-all/status'))


class TestFaults(BootSessionTestCase):

    def test_retries_forceful_off_and_staged(self):
        lab = self.start_boot_lab(6)
        lab.enrol_with_labels(lambda index: {'group.all': ''})
        # 20 s: long enough for a machine to boot on a busy 2-core CI
        # machine running another functional test beside this one (a
        # boot slower than the bound is power-cycled and boots twice),
        # short enough that two attempts fail well within the bound.
        lab.api('PATCH', '/v1/boot/options', {
            'max_boot_wait_time': 20, 'max_power_off_wait_time': 10,
            'default_retry_policy': 2})
        for index in (0, 1):
            lab.set_agent_options(index, never_report=True)
        for index in (2, 3):
            lab.set_agent_options(index, ignore_graceful_shutdown=True)
        self.template(lab, 'all', {'all': {
            'name': 'all', 'kernel': lab.kernel, 'initrd': lab.initrd,
            'node_groups': ['all']}})
        lab.api('POST', '/v1/boot/sessions', {
            'name': 'faults', 'operation': 'reboot', 'template_name': 'all',
            'limit': ','.join(lab.names[:5])}, expect=(201,))
        status = lab.wait_complete('faults')
        self.note('status', json.dumps(status, indent=1))
        components = lab.components(session='faults')
        for name in lab.names[:2]:
            component = components[name]
            self.assertEqual('failed', component['status']['status'],
                             component)
            self.assertIn('did not report within max_boot_wait_time (20 s)',
                          component['error'])
            self.assertEqual(2, component['event_stats'][
                'power_on_attempts'], component)
        # They ignored the graceful shutdown, so only a forced power off
        # can have let them boot the image (once).
        boots = lab.os_boots()
        for index in (2, 3, 4):
            self.check_booted(lab, components[lab.names[index]])
            self.assertEqual(1, boots[index], (
                components[lab.names[index]], lab.machine_summary(index)))
        self.assertEqual(40.0, status['percent_failed'])
        self.assertEqual(2, len(status['failed_nodes']))
        self.assertNotIn('retry limit', json.dumps(status['error_summary']))

        # Staged: nothing happens until applystaged.
        lab.api('POST', '/v1/boot/sessions', {
            'name': 'staged', 'operation': 'reboot', 'template_name': 'all',
            'stage': True, 'limit': lab.names[5]}, expect=(201,))

        def staged():
            component = lab.components(staged_session='staged')
            return lab.names[5] in component
        self.assertEventually(staged, 60, interval=0.5)
        before = lab.os_boots()[5]
        session = lab.api('GET', '/v1/boot/sessions/staged')
        self.assertEqual('running', session['status']['status'], session)
        lab.api('PATCH', '/v1/boot/options', {'clear_stage': True})
        outcome = lab.api('POST', '/v1/boot/applystaged',
                          {'xnames': [lab.names[5]]})
        self.assertEqual([lab.names[5]], outcome['succeeded'], outcome)
        lab.wait_complete('staged')
        self.check_booted(lab, lab.api('GET', '/v1/boot/components/%s'
                                       % lab.names[5]))
        self.assertEqual(before + 1, lab.os_boots()[5],
                         lab.machine_summary(5))


class TestConductorKilledMidSession(BootSessionTestCase):

    def test_sigkill_mid_session_survivor_completes(self):
        lab = self.start_boot_lab(40, agent_options={'os_boot_delay': 3})
        lab.enrol_with_labels(lambda index: {'group.all': ''})
        self.template(lab, 'all', {'all': {
            'name': 'all', 'kernel': lab.kernel, 'initrd': lab.initrd,
            'node_groups': ['all']}})
        # A power-on the victim had recorded but not sent is seen as
        # failed this soon, and retried by the survivor.
        # A machine whose boot failed on a busy machine (a download cut
        # short) is power-cycled within the test's bound, not BOS's 20 min.
        # Likewise a graceful power-off the victim had recorded but not
        # sent: forced off after 20 s, not BOS's 300 s (the test's whole
        # bound).
        lab.api('PATCH', '/v1/boot/options', {'max_power_on_wait_time': 20,
                                              'max_power_off_wait_time': 20,
                                              'max_boot_wait_time': 60})
        lab.api('POST', '/v1/boot/sessions', {
            'name': 'kill', 'operation': 'reboot', 'template_name': 'all'},
            expect=(201,))

        def booting():
            counts = collections.Counter(
                c['status']['status'] for c in
                lab.components(session='kill').values())
            return counts['power_on_called'] >= 10
        self.assertEventually(booting, 120, interval=0.2)
        victim = sorted(lab.cluster.conductors)[0]
        lab.cluster.conductors[victim].send(signal.SIGKILL)
        status = lab.wait_complete('kill')
        self.note('status', json.dumps(status, indent=1))
        self.assertEqual(100.0, status['percent_successful'])
        components = lab.components(session='kill')
        boots = lab.os_boots()
        for index, name in enumerate(lab.names):
            self.check_booted(lab, components[name])
            # The survivor waited for the boots the dead one had started
            # instead of powering those machines on again.
            self.assertEqual(1, boots[index], name)
