"""Accelerators end to end, every piece a real process: the API and two
conductors (MariaDB, RabbitMQ), sushy-tools' Redfish emulator, the boot
file server, the simulated machines (their agents report simulated FPGAs
and GPUs and record every bitstream programmed into them), and a real
Glance holding the bitstreams (tools/install-glance.sh).

* cleaning takes each node's inventory: devices, deployables, attach
  handles and traits are as the machines report them;
* an allocation asking for a function trait gets the node whose FPGA has
  that function loaded; one asking for a GPU trait gets a GPU node;
* a deploy plugs: the FPGA of the machine holds the bitstream's bytes
  (compared with the image in Glance), the handle is in use, the new
  function trait is there and the old one gone; a GPU is plugged without
  programming;
* tear-down unplugs: the handle is free again; cleaning erases the
  region;
* a conductor killed with SIGKILL between program and record: after one
  reconciler period and the takeover, the node is active with exactly one
  handle held by it, no attachment half done, no handle leaked.

Every wait is bounded; every process is stopped at the end.
"""

import collections
import hashlib

import requests

from ironic_like.common.accelerators import traits as acc_traits
from ironic_like.tests.functional import glance_fixture
from ironic_like.tests.functional import test_agent_deploy

REGION_TYPE = '6f1e8c3a-2b4d-4e5f-9a0b-1c2d3e4f5a6b'
GZIP = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
AES = 'f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0'
REGION_TRAIT = acc_traits.region_trait('INTEL', REGION_TYPE)
GZIP_TRAIT = acc_traits.function_trait('INTEL', GZIP)
AES_TRAIT = acc_traits.function_trait('INTEL', AES)
GPU_TRAIT = 'CUSTOM_GPU_NVIDIA_1EB8'
ALLOCATIONS_VERSION = '1.52'
RECONCILE_INTERVAL = 2
PLUG_TIMEOUT = 30
# Seconds the killed conductor's program takes on the machine.
PROGRAM_DELAY = 10


def fpga(bus, function=None):
    return {'type': 'FPGA', 'vendor_id': '8086', 'product_id': '09c4',
            'model': 'PAC Arria10', 'pci_address': '0000:%s:00.0' % bus,
            'virtual_functions': ['0000:%s:01.0' % bus,
                                  '0000:%s:01.1' % bus],
            'regions': [{'region_type_uuid': REGION_TYPE,
                         'partial_reconfiguration': True,
                         'pci_addresses': [],
                         'function': function}]}


GPU = {'type': 'GPU', 'vendor_id': '10de', 'product_id': '1eb8',
       'model': 'Tesla T4', 'pci_address': '0000:3b:00.0'}

# The machines: (what they hold, name) by index.
MACHINES = [
    [fpga('5e')],                                        # 0: blank FPGA
    [fpga('5e')],                                        # 1: blank FPGA
    [fpga('5e', {'uuid': GZIP, 'name': 'gzip'})],        # 2: gzip loaded
    [GPU],                                               # 3: GPU
    [],                                                  # 4: nothing
]


class AcceleratorLab(test_agent_deploy.Lab):

    def node_accelerators(self, index):
        return self.api('GET', '/v1/nodes/%s/accelerators'
                        % self.nodes[index])

    def traits(self, index):
        return {t['name']: (t['total'], t['free'])
                for t in self.node_accelerators(index)['traits']}

    def held(self, index):
        return [h for h in self.node_accelerators(index)['attach_handles']
                if h['in_use']]

    def bitstream(self, index, pci_address='0000:5e:00.0', region=0):
        resp = requests.get('%s/control/agents/%s/accelerators/%s/%d/'
                            'bitstream' % (self.sim_url,
                                           self.systems[index]['uuid'],
                                           pci_address, region),
                            timeout=test_agent_deploy.HTTP_TIMEOUT)
        return resp.content if resp.status_code == 200 else None

    def set_specs(self, index, specs):
        self.api('PATCH', '/v1/nodes/%s' % self.nodes[index], [
            {'op': 'add', 'path': '/instance_info/flavor_extra_specs',
             'value': specs}])

    def allocate(self, traits):
        """An allocation (API 1.52) asking for ``traits``, once done."""
        version = {'X-OpenStack-Ironic-API-Version': ALLOCATIONS_VERSION}
        resp = self.cluster.request('POST', '/v1/allocations', json={
            'resource_class': 'baremetal', 'traits': traits},
            headers=version)
        self.test.assertEqual(201, resp.status_code, resp.text)
        path = '/v1/allocations/%s' % resp.json()['uuid']

        def done():
            seen = self.cluster.request('GET', path, headers=version).json()
            return seen if seen['state'] != 'allocating' else None
        return self.test.assertEventually(done, 60, interval=0.5)


class TestAccelerators(test_agent_deploy.AgentDeployTestCase):

    TIMEOUT = 600

    def start_lab(self):
        self.glance = self.useFixture(glance_fixture.GlanceServer())
        conf = {'accelerators': {
            'image_service': 'glance',
            'glance_endpoint': self.glance.endpoint,
            'reconcile_interval': RECONCILE_INTERVAL,
            'plug_timeout': PLUG_TIMEOUT}}
        lab = AcceleratorLab(self, len(MACHINES), conf, None)
        for index, accelerators in enumerate(MACHINES):
            lab.set_agent_options(index, accelerators=accelerators)
        for system in lab.systems:
            node = lab.api('POST', '/v1/nodes', {
                'name': system['name'], 'driver': 'redfish',
                'resource_class': 'baremetal',
                'deploy_interface': 'agent', 'boot_interface': 'ipxe',
                'driver_info': lab.emulator.driver_info(system['uuid'])})
            lab.api('POST', '/v1/ports', {
                'node_uuid': node['uuid'],
                'address': system['nics'][0]['mac']})
            lab.nodes.append(node['uuid'])
        lab.make_available()
        return lab

    def upload(self, name, data, function):
        return self.glance.upload(name, data, {
            'accel:function_uuid': function[0],
            'accel:function_name': function[1],
            'accel:region_type_uuid': REGION_TYPE,
            'accel:vendor': 'intel'})

    def test_discover_allocate_plug_unplug_and_survive_a_kill(self):
        lab = self.start_lab()
        gzip_data = b'gzip bitstream ' * 4096
        aes_data = b'aes bitstream ' * 4096
        self.upload('gzip', gzip_data, (GZIP, 'gzip'))
        aes_id = self.upload('aes', aes_data, (AES, 'aes'))

        # -- discovery (at cleaning): what the machines report.
        self.assertEqual({'FPGA': (2, 2), REGION_TRAIT: (2, 2),
                          'CUSTOM_FPGA_INTEL_09C4': (2, 2)}, lab.traits(0))
        self.assertEqual((2, 2), lab.traits(2)[GZIP_TRAIT])
        self.assertEqual({'PGPU': (1, 1), GPU_TRAIT: (1, 1)},
                         lab.traits(3))
        self.assertEqual({}, lab.traits(4))
        handles = lab.node_accelerators(0)['attach_handles']
        # The PF is not offered: its two VFs are.
        self.assertEqual(['0000:5e:01.0', '0000:5e:01.1'],
                         sorted(h['pci_address'] for h in handles))
        fpgas = lab.api('GET', '/v1/accelerators/devices?type=FPGA')
        self.assertEqual(3, len(fpgas['devices']))

        # -- allocations match accelerator traits.
        gzip_alloc = lab.allocate([GZIP_TRAIT])
        self.assertEqual('active', gzip_alloc['state'])
        self.assertEqual(lab.nodes[2], gzip_alloc['node_uuid'])
        gpu_alloc = lab.allocate([GPU_TRAIT])
        self.assertEqual(lab.nodes[3], gpu_alloc['node_uuid'])
        none = lab.allocate([AES_TRAIT])
        self.assertEqual('error', none['state'])

        # -- deploys plug: by function (programmed), preloaded, GPU.
        lab.set_image(lab.nodes[:4])
        lab.set_specs(0, {'resources:FPGA': '1',
                          'trait:%s' % REGION_TRAIT: 'required',
                          'accel:function_id': AES})
        lab.set_specs(2, {'trait:%s' % GZIP_TRAIT: 'required'})
        lab.set_specs(3, {'resources:PGPU': '1'})
        deployed = [lab.nodes[i] for i in (0, 2, 3)]
        lab.provision('active', deployed)
        nodes = lab.wait_for('active', deployed)
        self.assertEqual([{'pci_id': '0000:5e:01.0'}],
                         nodes[lab.nodes[0]]['driver_internal_info'][
                             'accelerators'])
        self.assertEqual(aes_data, lab.bitstream(0))
        glance_image = self.glance.image(aes_id)
        self.assertEqual(glance_image['os_hash_value'], hashlib.new(
            glance_image['os_hash_algo'], lab.bitstream(0)).hexdigest())
        programs = lab.agent(0)['records']['accelerators']
        self.assertEqual([aes_id], [p['image_id'] for p in programs])
        traits = lab.traits(0)
        self.assertEqual((2, 1), traits[AES_TRAIT])
        self.assertEqual((2, 1), traits['FPGA'])
        # The preloaded gzip node was not programmed; the GPU was plugged.
        self.assertEqual([], lab.agent(2)['records']['accelerators'])
        self.assertEqual(1, len(lab.held(2)))
        self.assertEqual(['0000:3b:00.0'],
                         [h['pci_address'] for h in lab.held(3)])

        # -- tear-down unplugs; cleaning erases the region.
        lab.provision('deleted', [lab.nodes[0]])
        lab.wait_for('available', [lab.nodes[0]])
        self.assertEqual([], lab.held(0))
        self.assertEqual([], lab.node_accelerators(0)['attachments'])
        self.assertEqual(1, len(lab.agent(0)['records'][
            'accelerator_erases']))
        self.assertNotIn(AES_TRAIT, lab.traits(0))

        # -- a conductor killed between program and record.
        lab.set_agent_options(1, program_delay=PROGRAM_DELAY)
        lab.set_image([lab.nodes[1]])
        lab.set_specs(1, {'accel:bitstream_id': aes_id})
        lab.provision('active', [lab.nodes[1]])

        def programming():
            atts = lab.node_accelerators(1)['attachments']
            return atts if any(a['state'] == 'programming'
                               for a in atts) else None
        at_kill = self.assertEventually(
            programming, 120, interval=0.2,
            message=lambda: 'node 1 never programs: %s'
            % lab.node_accelerators(1))
        victim = at_kill[0]['conductor']
        survivor, = set(lab.cluster.conductors) - {victim}
        lab.cluster.conductors[victim].kill9()

        nodes = lab.wait_for('active', [lab.nodes[1]], timeout=180)
        self.assertEqual(survivor, nodes[lab.nodes[1]]['conductor'])
        self.assertIsNone(nodes[lab.nodes[1]]['last_error'])

        def settled():
            atts = lab.node_accelerators(1)['attachments']
            return None if any(a['state'] not in ('attached', 'failed')
                               for a in atts) else atts
        atts = self.assertEventually(settled, 4 * RECONCILE_INTERVAL + 30,
                                     interval=0.5)
        states = collections.Counter(a['state'] for a in atts)
        self.assertEqual(1, states['attached'], atts)
        held = lab.held(1)
        self.assertEqual(1, len(held))
        attached = [a for a in atts if a['state'] == 'attached'][0]
        self.assertEqual(held[0]['uuid'], attached['attach_handle_uuid'])
        self.assertEqual(aes_data, lab.bitstream(1))

        # No handle anywhere is held by anything but an attached row.
        everything = lab.api('GET', '/v1/accelerators/attach_handles'
                             '?in_use=true')['attach_handles']
        attached_handles = set()
        for index in range(len(MACHINES)):
            attached_handles.update(
                a['attach_handle_uuid'] for a in
                lab.node_accelerators(index)['attachments']
                if a['state'] == 'attached')
        self.assertEqual(attached_handles,
                         {h['uuid'] for h in everything})
        self.note('at-kill', '%s killed with attachment %s'
                  % (victim, at_kill))
