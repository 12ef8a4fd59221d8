"""The simulated agent's PCI accelerators (doc/accelerators.md): the
inventory, accelerator.program / accelerator.erase and the control API."""

import copy
import hashlib
import json
import os
import threading
import time

import requests
import testtools

from ironic_like_lab import accelerators
from ironic_like_lab import virtual

from ironic_like.tests.unit.lab.test_simulator import mac
from ironic_like.tests.unit.lab.test_simulator import SimulatorTestBase

BITSTREAM = os.urandom(256 * 1024 + 17)
BITSTREAM_SHA256 = hashlib.sha256(BITSTREAM).hexdigest()
PF = '0000:5e:00.0'
REGION_TYPE = 'bfa4a2f5-6c1f-4b55-8a1c-0c1a2a9e4f11'
GZIP = {'uuid': 'c8e4a0de-0d3b-4b0e-9c5b-6f1d2a3b4c5d', 'name': 'gzip'}
AES = {'uuid': '5a1d2f3e-7b8c-4d9e-a0b1-c2d3e4f5a6b7', 'name': 'aes'}
FPGA = {
    'type': 'FPGA', 'vendor_id': '8086', 'product_id': '09c4',
    'vendor_name': 'Intel', 'model': 'PAC Arria10', 'pci_address': PF,
    'virtual_functions': ['0000:5e:00.1', '0000:5e:00.2'],
    'regions': [
        {'region_type_uuid': REGION_TYPE, 'partial_reconfiguration': True,
         'pci_addresses': ['0000:5e:00.1'], 'function': None},
        {'region_type_uuid': REGION_TYPE, 'partial_reconfiguration': True,
         'pci_addresses': ['0000:5e:00.2'], 'function': dict(GZIP)}]}
GPU = {'type': 'GPU', 'vendor_id': '10de', 'product_id': '1db4',
       'pci_address': '0000:3b:00.0', 'virtual_functions': []}


def devices():
    return [copy.deepcopy(FPGA), copy.deepcopy(GPU)]


class TestAddresses(testtools.TestCase):

    def test_normalize_address(self):
        self.assertEqual(PF, accelerators.normalize_address('5E:00.0'))
        self.assertEqual('0001:af:1f.7',
                         accelerators.normalize_address(' 0001:AF:1f.7 '))
        for bad in (None, 5, '', '5e:00', '0000:5e:00.8', 'xx:00.0'):
            self.assertIsNone(accelerators.normalize_address(bad), bad)

    def test_make_inventory(self):
        options = dict(virtual.DEFAULT_OPTIONS)
        self.assertEqual([], virtual.make_inventory(
            'a', [mac(1)], options)['accelerators'])
        options['accelerators'] = devices()
        inventory = virtual.make_inventory('a', [mac(1)], options)
        self.assertEqual(devices(), inventory['accelerators'])
        # A copy: the inventory does not share the option's objects.
        inventory['accelerators'][0]['regions'][0]['function'] = AES
        self.assertIsNone(options['accelerators'][0]['regions'][0][
            'function'])


class AcceleratorTestBase(SimulatorTestBase):

    def setUp(self):
        super(AcceleratorTestBase, self).setUp()
        self.bitstream_url = self.images.add('gzip.bit', BITSTREAM)

    def make_agent(self, index=1, not_ready=0, boot=True, **options):
        options.setdefault('accelerators', devices())
        return super(AcceleratorTestBase, self).make_agent(
            index, not_ready, boot, **options)

    def program_params(self, region_index=0, function=GZIP, **image):
        doc = {'id': 'bit-1', 'url': self.bitstream_url,
               'os_hash_algo': 'sha256', 'os_hash_value': BITSTREAM_SHA256,
               'size': len(BITSTREAM)}
        doc.update(image)
        return {'pci_address': PF, 'region_index': region_index,
                'image': doc, 'function': function}

    def program(self, agent, **kw):
        return self.command(agent, 'accelerator.program',
                            self.program_params(**kw))

    def program_in_thread(self, agent, **kw):
        """Start accelerator.program from a thread of its own (and a
        session of its own); answers ``(thread, results)``, results
        getting ``doc`` and ``took`` (seconds)."""
        results = {}
        params = self.program_params(**kw)

        def run():
            started = time.monotonic()
            with requests.Session() as session:
                resp = session.post('%s/v1/commands/' % agent.url,
                                    json={'name': 'accelerator.program',
                                          'params': params}, timeout=20)
            results['doc'] = resp.json()
            results['took'] = time.monotonic() - started
        thread = threading.Thread(target=run)
        thread.start()
        self.addCleanup(thread.join, 10)
        return thread, results

    def hardware(self, agent):
        doc = self.command(agent, 'poll.get_hardware_info')
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        return doc['command_result']

    def functions(self, agent):
        """Function names per region of the FPGA, as get_hardware_info
        reports them."""
        fpga = [d for d in self.hardware(agent)['accelerators']
                if d['pci_address'] == PF][0]
        return [(r['function'] or {}).get('name') for r in fpga['regions']]

    def bitstream_url_of(self, agent, address=PF, region=0):
        return '%s/agents/%s/accelerators/%s/%s/bitstream' % (
            self.control, agent.id, address, region)

    def detail(self, agent):
        resp = self.session.get('%s/agents/%s' % (self.control, agent.id))
        self.assertEqual(200, resp.status_code, resp.text)
        return resp.json()


class TestInventory(AcceleratorTestBase):

    def test_inventory_carries_accelerators(self):
        agent, _ = self.make_agent(api_mode='passthru')
        # The lookup's inventory, get_hardware_info and the control API.
        body = self.api.passthru_bodies[0]
        self.assertEqual(devices(), body['inventory']['accelerators'])
        inventory = self.hardware(agent)
        self.assertEqual(devices(), inventory['accelerators'])
        self.assertEqual(mac(1),
                         inventory['interfaces'][0]['mac_address'])
        self.assertIn('cpu', inventory)
        self.assertEqual('/dev/sda', inventory['disks'][0]['name'])
        detail = self.detail(agent)
        self.assertEqual(devices(), detail['accelerators'])
        self.assertEqual(devices(), detail['inventory']['accelerators'])
        self.assertEqual([], detail['records']['accelerators'])
        self.assertEqual([], detail['records']['accelerator_erases'])
        resp = self.session.get('%s/agents/agent-1/accelerators'
                                % self.control)
        self.assertEqual({'accelerators': devices()}, resp.json())

    def test_no_accelerators(self):
        agent, _ = self.make_agent(accelerators=None)
        self.assertEqual([], self.hardware(agent)['accelerators'])
        self.assertEqual([], self.detail(agent)['accelerators'])

    def test_entries_reported_as_given(self):
        # The service validates entries; the agent reports broken ones
        # too (and finds nothing to program there).
        broken = ['not an object', {'type': 'GPU'},
                  {'type': 'FPGA', 'pci_address': 'nope', 'regions': []}]
        agent, _ = self.make_agent(accelerators=broken)
        self.assertEqual(broken, self.hardware(agent)['accelerators'])
        doc = self.program(agent)
        self.assertEqual('AcceleratorNotFound',
                         doc['command_error']['type'])

    def test_fleet_and_create_take_the_option(self):
        path = os.path.join(self.sim.state_dir, 'fleet.json')
        with open(path, 'w') as f:
            json.dump({'defaults': {'options': {'accelerators': devices()}},
                       'agents': [{'id': 'f1', 'macs': [mac(11)]},
                                  {'id': 'f2', 'macs': [mac(12)],
                                   'options': {'program_delay': 1}}]}, f)
        f1, f2 = self.sim.load_fleet(path)
        self.assertEqual(devices(), f1.current_inventory()['accelerators'])
        self.assertEqual(devices(), f2.current_inventory()['accelerators'])
        self.assertEqual(1, f2.options['program_delay'])
        # Each machine has its own state.
        self.assertIsNot(f1.accelerators[0], f2.accelerators[0])
        resp = self.session.post('%s/agents' % self.control, json={
            'id': 'c1', 'macs': [mac(13)],
            'options': {'accelerators': [GPU]}})
        self.assertEqual(201, resp.status_code, resp.text)
        detail = self.session.get('%s/agents/c1' % self.control).json()
        self.assertEqual([GPU], detail['accelerators'])
        self.assertEqual([GPU], detail['inventory']['accelerators'])
        # Also at the top level of the spec, and from inventory_extra.
        self.sim.add_agent({'id': 'c2', 'macs': [mac(14)],
                            'accelerators': [GPU]})
        self.sim.add_agent({'id': 'c3', 'macs': [mac(15)],
                            'inventory_extra': {'accelerators': [GPU]}})
        for name in ('c2', 'c3'):
            self.assertEqual([GPU], self.sim.agents[name].current_inventory()[
                'accelerators'])
        resp = self.session.post('%s/agents' % self.control, json={
            'id': 'c4', 'macs': [mac(16)],
            'options': {'accelerators': {'type': 'GPU'}}})
        self.assertEqual(400, resp.status_code, resp.text)


class TestProgram(AcceleratorTestBase):

    def test_program_records_bytes_and_changes_inventory(self):
        agent, _ = self.make_agent()
        self.assertEqual([None, 'gzip'], self.functions(agent))
        # A short, upper-case address names the same device.
        params = self.program_params(function=AES)
        params['pci_address'] = '5E:00.0'
        doc = self.command(agent, 'accelerator.program', params)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual({'pci_address': PF, 'region_index': 0,
                          'sha256': BITSTREAM_SHA256,
                          'size': len(BITSTREAM)}, doc['command_result'])
        self.assertEqual(['aes', 'gzip'], self.functions(agent))
        fpga = self.hardware(agent)['accelerators'][0]
        self.assertEqual(AES, fpga['regions'][0]['function'])
        detail = self.detail(agent)
        self.assertEqual(AES, detail['accelerators'][0]['regions'][0][
            'function'])
        [record] = detail['records']['accelerators']
        programmed_at = record.pop('programmed_at')
        self.assertRegex(programmed_at, r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d')
        self.assertEqual({'pci_address': PF, 'region_index': 0,
                          'image_id': 'bit-1', 'url': self.bitstream_url,
                          'sha256': BITSTREAM_SHA256,
                          'size': len(BITSTREAM), 'function': AES}, record)
        # The bytes, in the state directory and through the control API.
        path = agent.bitstream_path((PF, 0))
        self.assertTrue(path.startswith(self.sim.state_dir))
        with open(path, 'rb') as f:
            self.assertEqual(BITSTREAM, f.read())
        resp = self.session.get(self.bitstream_url_of(agent))
        self.assertEqual(200, resp.status_code)
        self.assertEqual('application/octet-stream',
                         resp.headers['Content-Type'])
        self.assertEqual(BITSTREAM, resp.content)
        # The option is what was given; the live state is the agent's.
        self.assertIsNone(agent.options['accelerators'][0]['regions'][0][
            'function'])

    def test_program_other_algorithm_and_null_function(self):
        agent, _ = self.make_agent()
        doc = self.program(agent, region_index=1, function=None,
                           os_hash_algo='sha512',
                           os_hash_value=hashlib.sha512(
                               BITSTREAM).hexdigest())
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        # The result and the record carry the sha256 all the same.
        self.assertEqual(BITSTREAM_SHA256, doc['command_result']['sha256'])
        self.assertEqual([None, None], self.functions(agent))
        self.assertEqual(BITSTREAM, self.session.get(
            self.bitstream_url_of(agent, region=1)).content)

    def test_checksum_mismatch_leaves_region_unchanged(self):
        agent, _ = self.make_agent()
        doc = self.program(agent, region_index=1, function=AES)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        other = self.images.add('other.bit', b'other bitstream')
        doc = self.program(agent, region_index=1, function=GZIP, url=other)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('ImageChecksumError', doc['command_error']['type'])
        self.assertIn(BITSTREAM_SHA256, doc['command_error']['message'])
        self.assertEqual([None, 'aes'], self.functions(agent))
        self.assertEqual(1, len(self.detail(agent)['records'][
            'accelerators']))
        # The bytes last programmed are still there; no leftovers.
        self.assertEqual(BITSTREAM, self.session.get(
            self.bitstream_url_of(agent, region=1)).content)
        path = agent.bitstream_path((PF, 1))
        self.assertEqual([os.path.basename(path)],
                         [n for n in os.listdir(self.sim.state_dir)
                          if n.startswith(os.path.basename(path))])
        # Nothing programmed in region 0.
        self.assertEqual(404, self.session.get(
            self.bitstream_url_of(agent)).status_code)

    def test_download_errors(self):
        agent, _ = self.make_agent()
        doc = self.program(agent, url='%s/missing.bit' % self.images.url)
        self.assertEqual('ImageDownloadError', doc['command_error']['type'])
        self.assertIn('404', doc['command_error']['message'])
        doc = self.program(agent, os_hash_value=None)
        self.assertEqual('ImageChecksumError', doc['command_error']['type'])
        doc = self.command(agent, 'accelerator.program',
                           {'pci_address': PF})
        self.assertEqual('InvalidCommandParamsError',
                         doc['command_error']['type'])
        self.assertEqual([None, 'gzip'], self.functions(agent))

    def test_unknown_device_or_region(self):
        agent, _ = self.make_agent()
        for address, region, named in (('0000:af:00.0', 0, '0000:af:00.0'),
                                       (PF, 2, 'region 2'),
                                       ('0000:3b:00.0', 0, '0000:3b:00.0'),
                                       ('bogus', 0, 'bogus')):
            params = self.program_params(region_index=region)
            params['pci_address'] = address
            doc = self.command(agent, 'accelerator.program', params)
            self.assertEqual('FAILED', doc['command_status'])
            self.assertEqual('AcceleratorNotFound',
                             doc['command_error']['type'])
            self.assertIn(named, doc['command_error']['message'])
            self.assertIn(str(region), doc['command_error']['message'])
        doc = self.command(agent, 'accelerator.erase',
                           {'pci_address': PF, 'region_index': 5})
        self.assertEqual('AcceleratorNotFound',
                         doc['command_error']['type'])
        self.assertEqual([], self.detail(agent)['records']['accelerators'])

    def test_fail_program(self):
        agent, _ = self.make_agent(fail_program='bitstream rejected: PR '
                                                'region busy')
        doc = self.program(agent)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual('FPGAProgramError', doc['command_error']['type'])
        self.assertEqual('bitstream rejected: PR region busy',
                         doc['command_error']['message'])
        self.assertEqual([None, 'gzip'], self.functions(agent))
        self.assertEqual(404, self.session.get(
            self.bitstream_url_of(agent)).status_code)
        self.assertEqual([], self.detail(agent)['records']['accelerators'])
        # fail_command naming it fails it too; lifting both heals.
        self.session.patch('%s/agents/agent-1/options' % self.control,
                           json={'fail_program': None,
                                 'fail_command': 'accelerator.program'})
        doc = self.program(agent)
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual([None, 'gzip'], self.functions(agent))
        self.session.patch('%s/agents/agent-1/options' % self.control,
                           json={'fail_command': None})
        doc = self.program(agent)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual(['gzip', 'gzip'], self.functions(agent))

    def test_program_delay_does_not_hold_the_agent(self):
        agent, _ = self.make_agent(program_delay=1.0)
        thread, results = self.program_in_thread(agent, function=AES)
        time.sleep(0.3)
        # Meanwhile the agent answers its API and the control API.
        started = time.monotonic()
        self.assertEqual([None, 'gzip'], self.functions(agent))
        self.detail(agent)
        self.assertLess(time.monotonic() - started, 0.5)
        thread.join(10)
        self.assertEqual('SUCCEEDED', results['doc']['command_status'],
                         results['doc'])
        self.assertGreaterEqual(results['took'], 0.9)
        self.assertEqual(['aes', 'gzip'], self.functions(agent))

    def test_two_programs_of_one_region_take_turns(self):
        # A deploy taken over by another conductor: the dead one's
        # program is still running when the survivor sends its own.
        agent, _ = self.make_agent(program_delay=0.5)
        first, first_results = self.program_in_thread(agent, function=AES)
        second, second_results = self.program_in_thread(agent,
                                                        function=GZIP)
        first.join(10)
        second.join(10)
        for results in (first_results, second_results):
            self.assertEqual('SUCCEEDED', results['doc']['command_status'],
                             results['doc'])
        # One after the other, never overlapping.
        self.assertGreaterEqual(max(first_results['took'],
                                    second_results['took']), 0.9)
        self.assertEqual(2, len(agent.records['accelerators']))

    def test_program_while_prepare_image_runs(self):
        agent, _ = self.make_agent(prepare_image_delay=1.0)
        doc = self.command(agent, 'standby.prepare_image',
                           {'image_info': self.image_info()})
        self.assertEqual('RUNNING', doc['command_status'])
        # Synchronous commands run while the image is written.
        program = self.program(agent, function=AES)
        self.assertEqual('SUCCEEDED', program['command_status'], program)
        self.assertEqual(['aes', 'gzip'], self.functions(agent))
        self.assertEqual('RUNNING', agent.get_command(doc['id'])[
            'command_status'])
        erase = self.command(agent, 'accelerator.erase',
                             {'pci_address': PF, 'region_index': 0})
        self.assertEqual('SUCCEEDED', erase['command_status'], erase)
        doc = self.wait_command(agent, doc)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)

    def test_power_off_during_program(self):
        agent, _ = self.make_agent(program_delay=1.0)
        thread, results = self.program_in_thread(agent, function=AES)
        time.sleep(0.3)
        agent.power_off()
        thread.join(10)
        doc = results['doc']
        self.assertEqual('FAILED', doc['command_status'], doc)
        self.assertEqual('AgentPoweredOff', doc['command_error']['type'])
        self.assertEqual([], agent.records['accelerators'])
        self.assertIsNone(agent.accelerators[0]['regions'][0]['function'])
        # A powered-off machine does not answer at all.
        resp = self.session.post('%s/v1/commands/' % agent.url,
                                 json={'name': 'accelerator.program',
                                       'params': self.program_params()})
        self.assertEqual(503, resp.status_code)


class TestErase(AcceleratorTestBase):

    def test_erase(self):
        agent, _ = self.make_agent()
        doc = self.command(agent, 'accelerator.erase',
                           {'pci_address': PF, 'region_index': 1})
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual({'erased': True}, doc['command_result'])
        self.assertEqual([None, None], self.functions(agent))
        [record] = self.detail(agent)['records']['accelerator_erases']
        self.assertEqual({'pci_address': PF, 'region_index': 1},
                         {k: record[k] for k in ('pci_address',
                                                 'region_index')})
        self.assertRegex(record['erased_at'], r'^\d{4}-\d\d-\d\dT')
        # The default region is 0.
        self.program(agent, function=AES)
        self.assertEqual(['aes', None], self.functions(agent))
        doc = self.command(agent, 'accelerator.erase', {'pci_address': PF})
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual([None, None], self.functions(agent))
        self.assertEqual(2, len(agent.records['accelerator_erases']))

    def test_fail_command_fails_erase(self):
        agent, _ = self.make_agent(fail_command='accelerator.erase')
        doc = self.command(agent, 'accelerator.erase', {'pci_address': PF})
        self.assertEqual('FAILED', doc['command_status'])
        self.assertEqual([None, 'gzip'], self.functions(agent))


class TestReplaceDevices(AcceleratorTestBase):

    def set_accelerators(self, agent, value, expect=200):
        resp = self.session.patch(
            '%s/agents/%s/options' % (self.control, agent.id),
            json={'accelerators': value})
        self.assertEqual(expect, resp.status_code, resp.text)

    def test_replacement_keeps_programmed_state(self):
        agent, _ = self.make_agent()
        self.program(agent, function=AES)
        self.command(agent, 'accelerator.erase',
                     {'pci_address': PF, 'region_index': 1})
        self.assertEqual(['aes', None], self.functions(agent))
        # Same FPGA (short address form) plus a new card: the FPGA keeps
        # what the agent did, not what the option says.
        fpga = copy.deepcopy(FPGA)
        fpga['pci_address'] = '5e:00.0'
        new = {'type': 'QAT', 'vendor_id': '8086', 'product_id': '37c8',
               'pci_address': '0000:af:00.0', 'virtual_functions': []}
        self.set_accelerators(agent, [fpga, new])
        inventory = self.hardware(agent)['accelerators']
        self.assertEqual(['5e:00.0', '0000:af:00.0'],
                         [d['pci_address'] for d in inventory])
        self.assertEqual([AES, None],
                         [r['function'] for r in inventory[0]['regions']])
        self.assertEqual(inventory, self.detail(agent)['accelerators'])
        # The FPGA vanishes: its state goes with it; it comes back as the
        # option describes it.
        self.set_accelerators(agent, [new])
        self.assertEqual([new], self.hardware(agent)['accelerators'])
        self.set_accelerators(agent, [copy.deepcopy(FPGA)])
        self.assertEqual([None, 'gzip'], self.functions(agent))
        # The bytes last programmed are still served.
        self.assertEqual(BITSTREAM, self.session.get(
            self.bitstream_url_of(agent)).content)
        # null: the default (no accelerators); not a list: refused.
        self.set_accelerators(agent, None)
        self.assertEqual([], self.hardware(agent)['accelerators'])
        self.set_accelerators(agent, 'FPGA', expect=400)
        self.assertEqual([], self.hardware(agent)['accelerators'])

    def test_program_after_card_appears(self):
        agent, _ = self.make_agent(accelerators=[GPU])
        doc = self.program(agent)
        self.assertEqual('AcceleratorNotFound',
                         doc['command_error']['type'])
        self.set_accelerators(agent, devices())
        doc = self.program(agent, function=AES)
        self.assertEqual('SUCCEEDED', doc['command_status'], doc)
        self.assertEqual(['aes', 'gzip'], self.functions(agent))


class TestBitstreamEndpoint(AcceleratorTestBase):

    def test_bitstream_endpoint(self):
        agent, _ = self.make_agent()
        url = self.bitstream_url_of(agent, region=1)
        resp = self.session.get(url)
        self.assertEqual(404, resp.status_code)
        self.assertEqual('NotFound', resp.json()['type'])
        self.program(agent, region_index=1)
        for address in (PF, '5e:00.0', PF.replace(':', '%3A')):
            resp = self.session.get(self.bitstream_url_of(
                agent, address=address, region=1))
            self.assertEqual(200, resp.status_code, address)
            self.assertEqual(BITSTREAM, resp.content)
            self.assertEqual(str(len(BITSTREAM)),
                             resp.headers['Content-Length'])
        # By node UUID or MAC as the other control routes.
        resp = self.session.get(
            '%s/agents/%s/accelerators/%s/1/bitstream'
            % (self.control, mac(1), PF))
        self.assertEqual(BITSTREAM, resp.content)
        for bad in ('%s/agents/agent-1/accelerators/%s/x/bitstream',
                    '%s/agents/agent-1/accelerators/%s/1/other',
                    '%s/agents/agent-1/accelerators/%s/1',
                    '%s/agents/nope/accelerators/%s/1/bitstream'):
            resp = self.session.get(bad % (self.control, PF))
            self.assertEqual(404, resp.status_code, bad)
        resp = self.session.post(url)
        self.assertEqual(405, resp.status_code)
        # Region 0 never programmed; another, unknown device.
        self.assertEqual(404, self.session.get(
            self.bitstream_url_of(agent)).status_code)
        self.assertEqual(404, self.session.get(self.bitstream_url_of(
            agent, address='0000:af:00.0')).status_code)
