"""Flavor extra specs as an accelerator request
(common/accelerators/specs.py)."""

import testtools

from ironic_like.common.accelerators import specs
from ironic_like.common.accelerators import traits
from ironic_like.common import exception

FN = 'abcdef01-2345-4678-9abc-def012345678'
FN_N = 'ABCDEF01_2345_4678_9ABC_DEF012345678'
RT = '11111111-2222-4333-8444-555555555555'
RT_N = '11111111_2222_4333_8444_555555555555'
FUNCTION_TRAIT = 'CUSTOM_FPGA_INTEL_FUNCTION_' + FN_N
REGION_TRAIT = 'CUSTOM_FPGA_INTEL_REGION_' + RT_N


class TestParse(testtools.TestCase):

    def assertInvalid(self, extra_specs, field, *fragments):
        exc = self.assertRaises(exception.InvalidParameterValue,
                                specs.parse, extra_specs)
        self.assertEqual(field, exc.field)
        for fragment in fragments:
            self.assertIn(fragment, str(exc))
        return exc

    def test_nothing_requested(self):
        for value in ({}, None, {'resources:VCPU': '4',
                                 'trait:CUSTOM_RAID': 'required',
                                 'trait:HW_CPU_X86_AVX2': 'forbidden',
                                 'capabilities:boot_mode': 'uefi',
                                 'resources:CUSTOM_BAREMETAL_GOLD': '1'}):
            request = specs.parse(value)
            self.assertEqual(specs.Request(0, None, [], None, None, None),
                             request)
            self.assertFalse(request.requested)

    def test_not_a_dict(self):
        for value in ('x', ['a'], 1):
            self.assertInvalid(value, 'flavor_extra_specs')

    def test_resource_count(self):
        request = specs.parse({'resources:PGPU': '2', 'resources:VCPU': '8'})
        self.assertEqual(2, request.count)
        self.assertEqual('PGPU', request.resource_class)
        self.assertTrue(request.requested)
        self.assertEqual([], request.traits)
        self.assertEqual(3, specs.parse({'resources:FPGA': 3}).count)
        self.assertEqual(1, specs.parse({'resources:CUSTOM_QAT': ' 1 '})
                         .count)

    def test_resource_count_zero(self):
        request = specs.parse({'resources:FPGA': '0',
                               'trait:' + REGION_TRAIT: 'required'})
        self.assertEqual(0, request.count)
        self.assertFalse(request.requested)

    def test_resource_count_invalid(self):
        for value in ('-1', 'two', '1.5', '', None, True, -1, 1.0):
            self.assertInvalid({'resources:FPGA': value},
                               'flavor_extra_specs/resources:FPGA')

    def test_two_accelerator_resource_classes(self):
        self.assertInvalid({'resources:FPGA': '1', 'resources:PGPU': '1'},
                           'flavor_extra_specs', 'resources:FPGA',
                           'resources:PGPU')

    def test_traits_default_count_one(self):
        request = specs.parse({'trait:CUSTOM_GPU_NVIDIA_1DB4': 'required',
                               'trait:CUSTOM_QAT_INTEL_37C8': 'required',
                               'trait:CUSTOM_RAID': 'required'})
        self.assertEqual(1, request.count)
        self.assertIsNone(request.resource_class)
        self.assertEqual(['CUSTOM_GPU_NVIDIA_1DB4', 'CUSTOM_QAT_INTEL_37C8'],
                         request.traits)

    def test_forbidden_accelerator_trait(self):
        self.assertInvalid({'trait:CUSTOM_GPU_NVIDIA_1DB4': 'forbidden'},
                           'flavor_extra_specs/trait:CUSTOM_GPU_NVIDIA_1DB4',
                           'not supported')

    def test_other_trait_value(self):
        self.assertInvalid({'trait:CUSTOM_GPU_NVIDIA_1DB4': 'yes'},
                           'flavor_extra_specs/trait:CUSTOM_GPU_NVIDIA_1DB4')

    def test_bitstream_cyborg_key(self):
        request = specs.parse({'accel:bitstream_id': 'img-1',
                               'trait:' + REGION_TRAIT: 'required'})
        self.assertEqual(('img-1', 1, [REGION_TRAIT]),
                         (request.bitstream_id, request.count,
                          request.traits))
        self.assertIsNone(request.function_uuid)

    def test_bitstream_seed_key(self):
        request = specs.parse({'bitstream:img-2': 'required'})
        self.assertEqual('img-2', request.bitstream_id)
        self.assertEqual(1, request.count)
        # The same id both ways is one bitstream.
        request = specs.parse({'bitstream:img-2': 'x',
                               'accel:bitstream_id': 'img-2'})
        self.assertEqual('img-2', request.bitstream_id)

    def test_two_bitstreams(self):
        self.assertInvalid({'bitstream:img-2': '',
                            'accel:bitstream_id': 'img-1'},
                           'flavor_extra_specs', 'img-1', 'img-2')

    def test_empty_bitstream(self):
        self.assertInvalid({'accel:bitstream_id': ''},
                           'flavor_extra_specs/accel:bitstream_id')
        self.assertInvalid({'bitstream:': 'required'},
                           'flavor_extra_specs/bitstream:')

    def test_function_id(self):
        request = specs.parse({'accel:function_id': FN.upper()})
        self.assertEqual((FN, 1), (request.function_uuid, request.count))
        self.assertIsNone(request.bitstream_id)

    def test_function_id_invalid(self):
        self.assertInvalid({'accel:function_id': 'gzip'},
                           'flavor_extra_specs/accel:function_id')

    def test_function_name(self):
        request = specs.parse({'accel:function_name': 'gzip',
                               'resources:FPGA': '2'})
        self.assertEqual(('gzip', None, 2, 'FPGA'),
                         (request.function_name, request.function_uuid,
                          request.count, request.resource_class))
        self.assertInvalid({'accel:function_name': ''},
                           'flavor_extra_specs/accel:function_name')

    def test_function_trait_gives_uuid(self):
        request = specs.parse({'trait:' + FUNCTION_TRAIT: 'required'})
        self.assertEqual(FN, request.function_uuid)
        self.assertEqual([FUNCTION_TRAIT], request.traits)
        self.assertEqual(1, request.count)

    def test_function_trait_and_same_id(self):
        request = specs.parse({'trait:' + FUNCTION_TRAIT: 'required',
                               'accel:function_id': FN})
        self.assertEqual(FN, request.function_uuid)

    def test_function_trait_and_other_id(self):
        other = '00000000-2345-4678-9abc-def012345678'
        self.assertInvalid({'trait:' + FUNCTION_TRAIT: 'required',
                            'accel:function_id': other},
                           'flavor_extra_specs', 'accel:function_id',
                           FUNCTION_TRAIT)

    def test_bitstream_and_function(self):
        for function in ({'accel:function_id': FN},
                         {'accel:function_name': 'gzip'},
                         {'trait:' + FUNCTION_TRAIT: 'required'}):
            for bitstream in ({'accel:bitstream_id': 'img-1'},
                              {'bitstream:img-1': 'required'}):
                extra = dict(function, **bitstream)
                exc = self.assertInvalid(extra, 'flavor_extra_specs')
                for key in extra:
                    self.assertIn(key, str(exc))

    def test_non_string_keys_ignored(self):
        self.assertFalse(specs.parse({1: 'x'}).requested)


class TestTraitUuids(testtools.TestCase):

    def test_function_uuid_of_trait(self):
        self.assertEqual(FN_N, specs.function_uuid_of_trait(FUNCTION_TRAIT))
        self.assertEqual(FN_N, specs.function_uuid_of_trait(
            traits.function_trait('ACME_FUNCTION_X', FN)))
        for name in (REGION_TRAIT, 'CUSTOM_FPGA_INTEL_09C4',
                     'CUSTOM_FPGA_INTEL_FUNCTION_GZIP',
                     'CUSTOM_GPU_X_FUNCTION_' + FN_N, None, ''):
            self.assertIsNone(specs.function_uuid_of_trait(name), name)

    def test_region_type_of_trait(self):
        self.assertEqual(RT_N, specs.region_type_of_trait(REGION_TRAIT))
        self.assertEqual(RT_N.replace('_', ''), specs.region_type_of_trait(
            'CUSTOM_FPGA_X_REGION_' + RT_N.replace('_', '')))
        for name in (FUNCTION_TRAIT, 'CUSTOM_FPGA_INTEL_REGION_1', None):
            self.assertIsNone(specs.region_type_of_trait(name), name)

    def test_same_uuid(self):
        self.assertTrue(specs.same_uuid(FN_N, FN))
        self.assertTrue(specs.same_uuid(FN_N, FN.upper()))
        self.assertTrue(specs.same_uuid(FN_N, FN.replace('-', '')))
        self.assertTrue(specs.trait_uuid_matches(FN_N, FN))
        self.assertFalse(specs.same_uuid(FN_N, RT))
        self.assertFalse(specs.same_uuid(None, FN))
        self.assertFalse(specs.same_uuid(FN_N, None))

    def test_round_trip_through_inventory_trait(self):
        trait = traits.function_trait('INTEL', FN)
        self.assertTrue(specs.same_uuid(specs.function_uuid_of_trait(trait),
                                        FN))
