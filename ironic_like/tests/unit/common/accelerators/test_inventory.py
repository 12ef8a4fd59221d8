"""The agent's accelerators inventory (common/accelerators/inventory.py):
parse, handles, layout, digest and diff."""

import copy
import hashlib
import json

import testtools

from ironic_like.common.accelerators import inventory
from ironic_like.common import exception
from ironic_like.tests.unit import accelerator_samples as samples

RT1, RT2, FN1 = samples.RT1, samples.RT2, samples.FN1
RT1_N = RT1.upper().replace('-', '_')
RT2_N = RT2.upper().replace('-', '_')
FN1_N = FN1.upper().replace('-', '_')

fpga = samples.two_region_fpga
gpu = samples.plain_gpu


class ParseErrorMixin(object):

    def assertInvalid(self, entries, field, *fragments):
        exc = self.assertRaises(exception.InvalidParameterValue,
                                inventory.parse, entries)
        self.assertEqual(field, exc.field)
        self.assertIn(field, str(exc))
        for fragment in fragments:
            self.assertIn(fragment, str(exc))
        return exc


class TestParse(testtools.TestCase):

    def test_fpga_normalised(self):
        entry = fpga(vendor_id='0x8086', product_id='09C4',
                     pci_address='5E:00.0',
                     virtual_functions=['5e:00.2', '0000:5E:00.1'])
        entry['regions'][0]['region_type_uuid'] = RT1.upper()
        entry['regions'][0]['function']['uuid'] = FN1.replace('-', '')
        [spec] = inventory.parse([entry])
        digest = spec.pop('digest')
        self.assertEqual({
            'type': 'FPGA', 'vendor_id': '8086', 'product_id': '09c4',
            'vendor_name': 'Intel', 'model': 'PAC Arria10',
            'vendor': 'INTEL', 'resource_class': 'FPGA',
            'pci_address': '0000:5e:00.0',
            'virtual_functions': ['0000:5e:00.1', '0000:5e:00.2'],
            'regions': [
                {'index': 0, 'region_type_uuid': RT1,
                 'partial_reconfiguration': True,
                 'pci_addresses': ['0000:5e:00.1'],
                 'function': {'uuid': FN1, 'name': 'gzip'}},
                {'index': 1, 'region_type_uuid': RT2,
                 'partial_reconfiguration': False,
                 'pci_addresses': ['0000:5e:00.2'],
                 'function': None}]}, spec)
        expected = hashlib.sha256(json.dumps(
            spec, sort_keys=True, separators=(',', ':')).encode()).hexdigest()
        self.assertEqual(expected, digest)

    def test_minimal_gpu(self):
        [spec] = inventory.parse([gpu(type='gpu')])
        self.assertEqual('GPU', spec['type'])
        self.assertEqual('NVIDIA', spec['vendor'])
        self.assertEqual('PGPU', spec['resource_class'])
        self.assertIsNone(spec['vendor_name'])
        self.assertIsNone(spec['model'])
        self.assertEqual([], spec['virtual_functions'])
        self.assertEqual([], spec['regions'])

    def test_other_types(self):
        specs = inventory.parse([
            gpu(type='qat', vendor_id='8086', product_id='37c8',
                pci_address='0000:01:00.0'),
            gpu(type='MY_DSP', vendor_id='abcd', product_id='0001',
                vendor_name='Acme Inc.', pci_address='0000:02:00.0')])
        self.assertEqual(['QAT', 'MY_DSP'], [s['type'] for s in specs])
        self.assertEqual(['CUSTOM_QAT', 'CUSTOM_MY_DSP'],
                         [s['resource_class'] for s in specs])
        self.assertEqual('ACME_INC_', specs[1]['vendor'])

    def test_sorted_by_address_and_input_untouched(self):
        entries = [gpu(pci_address='0000:af:00.0'), fpga(),
                   gpu(pci_address='0000:3b:00.0')]
        before = copy.deepcopy(entries)
        specs = inventory.parse(entries)
        self.assertEqual(['0000:3b:00.0', '0000:5e:00.0', '0000:af:00.0'],
                         [s['pci_address'] for s in specs])
        self.assertEqual(before, entries)

    def test_empty(self):
        self.assertEqual([], inventory.parse([]))

    def test_null_optionals(self):
        [spec] = inventory.parse([gpu(virtual_functions=None, regions=None,
                                      vendor_name=None, model=None)])
        self.assertEqual([], spec['virtual_functions'])
        self.assertEqual([], spec['regions'])
        [spec] = inventory.parse([gpu(regions=[])])
        self.assertEqual([], spec['regions'])

    def test_region_defaults(self):
        entry = fpga(regions=[{'region_type_uuid': RT1}])
        [spec] = inventory.parse([entry])
        self.assertEqual([{'index': 0, 'region_type_uuid': RT1,
                           'partial_reconfiguration': False,
                           'pci_addresses': [], 'function': None}],
                         spec['regions'])

    def test_function_name_optional(self):
        entry = fpga()
        entry['regions'][0]['function'] = {'uuid': FN1}
        [spec] = inventory.parse([entry])
        self.assertEqual({'uuid': FN1, 'name': None},
                         spec['regions'][0]['function'])

    def test_digest_stable_and_sensitive(self):
        [one] = inventory.parse([fpga()])
        [two] = inventory.parse([fpga(virtual_functions=['0000:5e:00.1',
                                                         '0000:5e:00.2'])])
        self.assertEqual(one['digest'], two['digest'])
        entry = fpga()
        entry['regions'][1]['function'] = {'uuid': FN1, 'name': 'gzip'}
        [loaded] = inventory.parse([entry])
        self.assertNotEqual(one['digest'], loaded['digest'])


class TestParseErrors(ParseErrorMixin, testtools.TestCase):

    F = 'inventory.accelerators'

    def test_not_a_list(self):
        for value in (None, {}, 'x', 1):
            self.assertInvalid(value, self.F)

    def test_custom_field(self):
        exc = self.assertRaises(exception.InvalidParameterValue,
                                inventory.parse, [gpu(), 'x'],
                                field='lookup.inventory.accelerators')
        self.assertEqual('lookup.inventory.accelerators[1]', exc.field)

    def test_entry_not_an_object(self):
        self.assertInvalid([gpu(), ['x']], self.F + '[1]')

    def test_unknown_key(self):
        self.assertInvalid([gpu(), fpga(numa_node=1)],
                           self.F + '[1].numa_node', 'numa_node')

    def test_type(self):
        for value in (None, '', 'F-PGA', 'a b', 3, 'X' * 33):
            entry = gpu(type=value)
            self.assertInvalid([gpu(pci_address='00:01.0'), entry],
                               self.F + '[1].type')
        entry = gpu()
        del entry['type']
        self.assertInvalid([entry], self.F + '[0].type')

    def test_pci_address(self):
        entries = [gpu(pci_address='0000:0%d:00.0' % i) for i in range(3)]
        entries.append(gpu(pci_address='0000:5e:20.0'))
        self.assertInvalid(entries, self.F + '[3].pci_address',
                           '0000:5e:20.0')
        entry = gpu()
        del entry['pci_address']
        self.assertInvalid([entry], self.F + '[0].pci_address')

    def test_duplicate_pci_address(self):
        exc = self.assertInvalid(
            [gpu(), gpu(pci_address='3B:00.0')], self.F + '[1].pci_address',
            '0000:3b:00.0')
        self.assertIn(self.F + '[0].pci_address', str(exc))

    def test_duplicate_vf_across_devices(self):
        self.assertInvalid(
            [fpga(), gpu(virtual_functions=['0000:3b:00.1', '5e:00.2'])],
            self.F + '[1].virtual_functions[1]', '0000:5e:00.2')

    def test_vf_is_another_pf(self):
        self.assertInvalid(
            [gpu(virtual_functions=['0000:5e:00.0']), fpga()],
            self.F + '[1].pci_address')

    def test_vf_is_own_pf_or_twice(self):
        self.assertInvalid([gpu(virtual_functions=['0000:3b:00.0'])],
                           self.F + '[0].virtual_functions[0]')
        self.assertInvalid(
            [gpu(virtual_functions=['0000:3b:00.1', '3b:00.1'])],
            self.F + '[0].virtual_functions[1]')

    def test_vendor_and_product_ids(self):
        for key in ('vendor_id', 'product_id'):
            for value in (None, '808', '80866', '0x80', 'zzzz', 8086,
                          '0X8086x'):
                self.assertInvalid([gpu(**{key: value})],
                                   self.F + '[0].' + key)
        [spec] = inventory.parse([gpu(vendor_id='0X10DE',
                                      product_id='0x1DB4')])
        self.assertEqual(('10de', '1db4'),
                         (spec['vendor_id'], spec['product_id']))

    def test_vendor_name_and_model(self):
        self.assertInvalid([gpu(vendor_name=5)], self.F + '[0].vendor_name')
        self.assertInvalid([gpu(model='x' * 256)], self.F + '[0].model')

    def test_vendor_name_making_a_trait_too_long(self):
        self.assertInvalid([gpu(vendor_id='abcd', vendor_name='v' * 250)],
                           self.F + '[0].vendor_name')
        # A well-known id does not use the name.
        inventory.parse([gpu(vendor_name='v' * 250)])

    def test_virtual_functions(self):
        self.assertInvalid([gpu(virtual_functions='0000:3b:00.1')],
                           self.F + '[0].virtual_functions')
        self.assertInvalid([gpu(virtual_functions=['0000:3b:00.1', 'x'])],
                           self.F + '[0].virtual_functions[1]')

    def test_regions_only_for_fpga(self):
        self.assertInvalid(
            [gpu(regions=[{'region_type_uuid': RT1}])],
            self.F + '[0].regions', 'GPU')

    def test_regions_not_a_list(self):
        self.assertInvalid([fpga(regions={'region_type_uuid': RT1})],
                           self.F + '[0].regions')
        self.assertInvalid([fpga(regions=['x'])], self.F + '[0].regions[0]')

    def test_region_type_uuid(self):
        for value in (None, 'not-a-uuid', 5):
            entry = fpga()
            entry['regions'][1]['region_type_uuid'] = value
            self.assertInvalid([entry],
                               self.F + '[0].regions[1].region_type_uuid')

    def test_region_unknown_key(self):
        entry = fpga()
        entry['regions'][0]['bitstream'] = 'x'
        self.assertInvalid([entry], self.F + '[0].regions[0].bitstream')

    def test_partial_reconfiguration(self):
        entry = fpga()
        entry['regions'][0]['partial_reconfiguration'] = 'yes'
        self.assertInvalid(
            [entry], self.F + '[0].regions[0].partial_reconfiguration')

    def test_region_addresses(self):
        entry = fpga()
        entry['regions'][1]['pci_addresses'] = ['0000:5e:00.2',
                                                '0000:5e:00.3']
        self.assertInvalid([entry],
                           self.F + '[0].regions[1].pci_addresses[1]',
                           '0000:5e:00.3')
        entry['regions'][1]['pci_addresses'] = ['zz']
        self.assertInvalid([entry],
                           self.F + '[0].regions[1].pci_addresses[0]')
        entry['regions'][1]['pci_addresses'] = '0000:5e:00.2'
        self.assertInvalid([entry],
                           self.F + '[0].regions[1].pci_addresses')
        entry['regions'][1]['pci_addresses'] = ['5e:00.2', '0000:5e:00.2']
        self.assertInvalid([entry],
                           self.F + '[0].regions[1].pci_addresses[1]')

    def test_region_may_list_the_pf(self):
        entry = fpga()
        entry['regions'][1]['pci_addresses'] = ['5E:00.0']
        [spec] = inventory.parse([entry])
        self.assertEqual(['0000:5e:00.0'],
                         spec['regions'][1]['pci_addresses'])

    def test_function(self):
        cases = (('x', '.function'), ({'name': 'gzip'}, '.function.uuid'),
                 ({'uuid': 'nope'}, '.function.uuid'),
                 ({'uuid': FN1, 'name': 7}, '.function.name'),
                 ({'uuid': FN1, 'name': 'n' * 256}, '.function.name'),
                 ({'uuid': FN1, 'id': 1}, '.function.id'))
        for value, suffix in cases:
            entry = fpga()
            entry['regions'][0]['function'] = value
            self.assertInvalid([entry], self.F + '[0].regions[0]' + suffix)


def by_key(deployables):
    return {d['key']: d for d in deployables}


class TestHandleAddresses(testtools.TestCase):

    def test_pf_not_offered_when_vfs_exposed(self):
        [spec] = inventory.parse([gpu(virtual_functions=['3b:00.2',
                                                         '3b:00.1'])])
        self.assertEqual(['0000:3b:00.1', '0000:3b:00.2'],
                         inventory.handle_addresses(spec))

    def test_pf_without_vfs(self):
        [spec] = inventory.parse([gpu()])
        self.assertEqual(['0000:3b:00.0'], inventory.handle_addresses(spec))


class TestLayout(testtools.TestCase):

    def test_fpga_two_regions_one_loaded(self):
        [spec] = inventory.parse([fpga()])
        result = inventory.layout(spec, 'node-1')
        device_trait = 'CUSTOM_FPGA_INTEL_09C4'
        region1 = 'CUSTOM_FPGA_INTEL_REGION_' + RT1_N
        region2 = 'CUSTOM_FPGA_INTEL_REGION_' + RT2_N
        function = 'CUSTOM_FPGA_INTEL_FUNCTION_' + FN1_N
        root = 'node-1_0000:5e:00.0'
        self.assertEqual([
            {'key': 'device', 'parent_key': None, 'kind': 'device',
             'name': root, 'num_accelerators': 2,
             'driver_name': 'fpga_agent', 'region_type_uuid': None,
             'partial_reconfiguration': None, 'function_uuid': None,
             'function_name': None, 'resource_class': 'FPGA'},
            {'key': 'region0', 'parent_key': 'device', 'kind': 'region',
             'name': root + '_region0', 'num_accelerators': 1,
             'driver_name': 'fpga_agent', 'region_type_uuid': RT1,
             'partial_reconfiguration': True, 'function_uuid': None,
             'function_name': None, 'resource_class': 'FPGA'},
            {'key': 'region0/function', 'parent_key': 'region0',
             'kind': 'function', 'name': root + '_region0_function',
             'num_accelerators': 1, 'driver_name': 'fpga_agent',
             'region_type_uuid': RT1, 'partial_reconfiguration': None,
             'function_uuid': FN1, 'function_name': 'gzip',
             'resource_class': 'FPGA'},
            {'key': 'region1', 'parent_key': 'device', 'kind': 'region',
             'name': root + '_region1', 'num_accelerators': 1,
             'driver_name': 'fpga_agent', 'region_type_uuid': RT2,
             'partial_reconfiguration': False, 'function_uuid': None,
             'function_name': None, 'resource_class': 'FPGA'},
        ], result['deployables'])
        self.assertEqual([
            {'pci_address': '0000:5e:00.1', 'deployable_key': 'region0',
             'attach_type': 'PCI',
             'attach_info': {'bdf': '0000:5e:00.1', 'domain': '0000',
                             'bus': '5e', 'device': '00', 'function': '1'},
             'resource_class': 'FPGA',
             'traits': sorted([device_trait, region1, function])},
            {'pci_address': '0000:5e:00.2', 'deployable_key': 'region1',
             'attach_type': 'PCI',
             'attach_info': {'bdf': '0000:5e:00.2', 'domain': '0000',
                             'bus': '5e', 'device': '00', 'function': '2'},
             'resource_class': 'FPGA',
             'traits': sorted([device_trait, region2])},
        ], result['handles'])

    def test_gpu_with_vfs(self):
        [spec] = inventory.parse([gpu(virtual_functions=['3b:00.1',
                                                         '3b:00.2'])])
        result = inventory.layout(spec, 'n')
        [root] = result['deployables']
        self.assertEqual(('device', None, 'device', 'n_0000:3b:00.0', 2,
                          'pci', 'PGPU'),
                         (root['key'], root['parent_key'], root['kind'],
                          root['name'], root['num_accelerators'],
                          root['driver_name'], root['resource_class']))
        self.assertEqual(['0000:3b:00.1', '0000:3b:00.2'],
                         [h['pci_address'] for h in result['handles']])
        for handle in result['handles']:
            self.assertEqual('device', handle['deployable_key'])
            self.assertEqual(['CUSTOM_GPU_NVIDIA_1DB4'], handle['traits'])
            self.assertEqual('PGPU', handle['resource_class'])
            self.assertEqual(handle['pci_address'],
                             handle['attach_info']['bdf'])

    def test_gpu_without_vfs(self):
        [spec] = inventory.parse([gpu()])
        result = inventory.layout(spec, 'n')
        self.assertEqual(['0000:3b:00.0'],
                         [h['pci_address'] for h in result['handles']])
        self.assertEqual(1, result['deployables'][0]['num_accelerators'])

    def test_other_type(self):
        [spec] = inventory.parse([gpu(type='QAT', vendor_id='8086',
                                      product_id='37c8')])
        result = inventory.layout(spec, 'n')
        self.assertEqual('pci', result['deployables'][0]['driver_name'])
        self.assertEqual(['CUSTOM_QAT_INTEL_37C8'],
                         result['handles'][0]['traits'])
        self.assertEqual('CUSTOM_QAT', result['handles'][0]['resource_class'])

    def test_fpga_without_regions(self):
        [spec] = inventory.parse([fpga(regions=[])])
        result = inventory.layout(spec, 'n')
        self.assertEqual(['device'],
                         [d['key'] for d in result['deployables']])
        self.assertEqual(['0000:5e:00.1', '0000:5e:00.2'],
                         [h['pci_address'] for h in result['handles']])
        for handle in result['handles']:
            self.assertEqual(['CUSTOM_FPGA_INTEL_09C4'], handle['traits'])
            self.assertEqual('device', handle['deployable_key'])

    def test_region_listing_none_gets_device_handles(self):
        entry = fpga(regions=[{'region_type_uuid': RT1}])
        [spec] = inventory.parse([entry])
        result = inventory.layout(spec, 'n')
        self.assertEqual(['0000:5e:00.1', '0000:5e:00.2'],
                         [h['pci_address'] for h in result['handles']])
        self.assertEqual({'region0'},
                         {h['deployable_key'] for h in result['handles']})
        self.assertEqual(2, by_key(result['deployables'])['region0'][
            'num_accelerators'])

    def test_region_listing_none_pf_only(self):
        entry = fpga(virtual_functions=[],
                     regions=[{'region_type_uuid': RT1}])
        [spec] = inventory.parse([entry])
        result = inventory.layout(spec, 'n')
        self.assertEqual(['0000:5e:00.0'],
                         [h['pci_address'] for h in result['handles']])

    def test_address_in_two_regions_belongs_to_first(self):
        entry = fpga()
        entry['regions'][1]['pci_addresses'] = ['0000:5e:00.1',
                                                '0000:5e:00.2']
        entry['regions'][0]['pci_addresses'] = ['0000:5e:00.1']
        [spec] = inventory.parse([entry])
        result = inventory.layout(spec, 'n')
        owners = {h['pci_address']: h['deployable_key']
                  for h in result['handles']}
        self.assertEqual({'0000:5e:00.1': 'region0',
                          '0000:5e:00.2': 'region1'}, owners)
        deployables = by_key(result['deployables'])
        self.assertEqual(1, deployables['region0']['num_accelerators'])
        self.assertEqual(1, deployables['region1']['num_accelerators'])
        self.assertEqual(2, deployables['device']['num_accelerators'])

    def test_region_with_no_free_address_left(self):
        entry = fpga(regions=[{'region_type_uuid': RT1},
                              {'region_type_uuid': RT2}])
        [spec] = inventory.parse([entry])
        result = inventory.layout(spec, 'n')
        deployables = by_key(result['deployables'])
        self.assertEqual(2, deployables['region0']['num_accelerators'])
        self.assertEqual(0, deployables['region1']['num_accelerators'])
        self.assertEqual(2, len(result['handles']))

    def test_layout_does_not_change_spec(self):
        [spec] = inventory.parse([fpga()])
        before = copy.deepcopy(spec)
        inventory.layout(spec, 'n')
        self.assertEqual(before, spec)


class TestDigest(testtools.TestCase):

    def test_order_independent(self):
        specs = inventory.parse([fpga(), gpu()])
        self.assertEqual(inventory.digest(specs),
                         inventory.digest(list(reversed(specs))))
        self.assertEqual(inventory.digest(specs),
                         inventory.digest(inventory.parse([gpu(), fpga()])))

    def test_changes(self):
        specs = inventory.parse([fpga(), gpu()])
        self.assertNotEqual(inventory.digest(specs),
                            inventory.digest(specs[:1]))
        changed = inventory.parse([fpga(), gpu(virtual_functions=[
            '0000:3b:00.1'])])
        self.assertNotEqual(inventory.digest(specs),
                            inventory.digest(changed))
        self.assertEqual(64, len(inventory.digest([])))


class TestDiff(testtools.TestCase):

    def setUp(self):
        super().setUp()
        self.specs = inventory.parse([fpga(), gpu()])
        self.by_address = {s['pci_address']: s for s in self.specs}

    def stored(self, spec, status='enabled', in_use=False, digest=None):
        return {'digest': digest or spec['digest'], 'status': status,
                'in_use': in_use}

    def test_nothing_stored(self):
        result = inventory.diff({}, self.specs)
        self.assertEqual({'add': self.specs, 'update': [], 'remove': [],
                          'missing': [], 'unchanged': []}, result)

    def test_unchanged(self):
        existing = {a: self.stored(s) for a, s in self.by_address.items()}
        result = inventory.diff(existing, self.specs)
        self.assertEqual({'add': [], 'update': [], 'remove': [],
                          'missing': [],
                          'unchanged': ['0000:3b:00.0', '0000:5e:00.0']},
                         result)

    def test_added(self):
        [gpu_spec, fpga_spec] = self.specs
        existing = {fpga_spec['pci_address']: self.stored(fpga_spec)}
        result = inventory.diff(existing, self.specs)
        self.assertEqual([gpu_spec], result['add'])
        self.assertEqual(['0000:5e:00.0'], result['unchanged'])

    def test_changed(self):
        [gpu_spec, fpga_spec] = self.specs
        existing = {'0000:3b:00.0': self.stored(gpu_spec),
                    '0000:5e:00.0': self.stored(fpga_spec, digest='old')}
        result = inventory.diff(existing, self.specs)
        self.assertEqual([fpga_spec], result['update'])
        self.assertEqual(['0000:3b:00.0'], result['unchanged'])

    def test_removed_when_not_in_use(self):
        [gpu_spec, fpga_spec] = self.specs
        existing = {'0000:3b:00.0': self.stored(gpu_spec),
                    '0000:5e:00.0': self.stored(fpga_spec),
                    '0000:af:00.0': {'digest': 'x', 'status': 'enabled',
                                     'in_use': False},
                    '0000:01:00.0': {'digest': 'y', 'status': 'missing',
                                     'in_use': False}}
        result = inventory.diff(existing, self.specs)
        self.assertEqual(['0000:01:00.0', '0000:af:00.0'], result['remove'])
        self.assertEqual([], result['missing'])

    def test_vanished_in_use_becomes_missing(self):
        [gpu_spec] = inventory.parse([gpu()])
        existing = {'0000:3b:00.0': self.stored(gpu_spec),
                    '0000:5e:00.0': self.stored(self.specs[1], in_use=True)}
        result = inventory.diff(existing, [gpu_spec])
        self.assertEqual(['0000:5e:00.0'], result['missing'])
        self.assertEqual([], result['remove'])
        self.assertEqual(['0000:3b:00.0'], result['unchanged'])

    def test_already_missing_still_in_use_is_unchanged(self):
        existing = {'0000:5e:00.0': self.stored(self.specs[1],
                                                status='missing',
                                                in_use=True)}
        result = inventory.diff(existing, [])
        self.assertEqual({'add': [], 'update': [], 'remove': [],
                          'missing': [], 'unchanged': ['0000:5e:00.0']},
                         result)

    def test_missing_reappears(self):
        fpga_spec = self.specs[1]
        existing = {'0000:5e:00.0': self.stored(fpga_spec, status='missing',
                                                in_use=True)}
        result = inventory.diff(existing, [fpga_spec])
        self.assertEqual([fpga_spec], result['update'])
        self.assertEqual([], result['unchanged'])

    def test_everything_at_once_sorted(self):
        new = inventory.parse([gpu(pci_address='0000:d8:00.0'),
                               gpu(pci_address='0000:02:00.0')])
        changed = inventory.parse([gpu(pci_address='0000:c1:00.0'),
                                   gpu(pci_address='0000:03:00.0')])
        same = inventory.parse([gpu(pci_address='0000:b0:00.0'),
                                gpu(pci_address='0000:04:00.0')])
        existing = {}
        for spec in changed:
            existing[spec['pci_address']] = self.stored(spec, digest='old')
        for spec in same:
            existing[spec['pci_address']] = self.stored(spec)
        existing['0000:f0:00.0'] = {'digest': 'a', 'status': 'enabled',
                                    'in_use': False}
        existing['0000:05:00.0'] = {'digest': 'a', 'status': 'enabled',
                                    'in_use': False}
        existing['0000:f1:00.0'] = {'digest': 'a', 'status': 'enabled',
                                    'in_use': True}
        existing['0000:06:00.0'] = {'digest': 'a', 'status': 'enabled',
                                    'in_use': True}
        result = inventory.diff(existing, same + changed + new)
        self.assertEqual(['0000:02:00.0', '0000:d8:00.0'],
                         [s['pci_address'] for s in result['add']])
        self.assertEqual(['0000:03:00.0', '0000:c1:00.0'],
                         [s['pci_address'] for s in result['update']])
        self.assertEqual(['0000:05:00.0', '0000:f0:00.0'], result['remove'])
        self.assertEqual(['0000:06:00.0', '0000:f1:00.0'], result['missing'])
        self.assertEqual(['0000:04:00.0', '0000:b0:00.0'],
                         result['unchanged'])
