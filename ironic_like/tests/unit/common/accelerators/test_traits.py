"""Trait and resource class names (common/accelerators/traits.py)."""

import testtools

from ironic_like.common.accelerators import traits

UUID = 'a1b2c3d4-0000-4000-8000-00000000abcd'
UUID_N = 'A1B2C3D4_0000_4000_8000_00000000ABCD'


class TestNormalize(testtools.TestCase):

    def test_upper_and_underscores(self):
        self.assertEqual('ABC_DEF_1', traits.normalize('abc-def.1'))
        self.assertEqual(UUID_N, traits.normalize(UUID))
        self.assertEqual('A__B', traits.normalize('a, b'))
        self.assertEqual('ALREADY_OK9', traits.normalize('ALREADY_OK9'))

    def test_non_ascii(self):
        self.assertEqual('CAF_', traits.normalize('caf\u00e9'))
        self.assertEqual('_', traits.normalize('\u0661'))


class TestVendorName(testtools.TestCase):

    def test_well_known(self):
        for vendor_id, name in (('8086', 'INTEL'), ('10de', 'NVIDIA'),
                                ('10ee', 'XILINX'), ('1002', 'AMD'),
                                ('19e5', 'HUAWEI'), ('1bd4', 'INSPUR')):
            self.assertEqual(name, traits.vendor_name(vendor_id))
        self.assertEqual('NVIDIA', traits.vendor_name('10DE'))
        self.assertEqual('INTEL', traits.vendor_name('0x8086'))
        # The well-known name wins over whatever the agent reports.
        self.assertEqual('INTEL', traits.vendor_name('8086', 'Intel Corp.'))

    def test_reported_name_normalised(self):
        self.assertEqual('ADVANCED_MICRO_DEVICES__INC___AMD_ATI_',
                         traits.vendor_name(
                             '1003', 'Advanced Micro Devices, Inc. [AMD/ATI]'))
        self.assertEqual('SOME_VENDOR', traits.vendor_name('abcd',
                                                           ' some-vendor '))

    def test_id_when_no_name(self):
        self.assertEqual('ABCD', traits.vendor_name('abcd'))
        self.assertEqual('ABCD', traits.vendor_name('0xabcd', None))
        self.assertEqual('ABCD', traits.vendor_name('abcd', '  '))


class TestTraits(testtools.TestCase):

    def test_region_trait(self):
        self.assertEqual('CUSTOM_FPGA_INTEL_REGION_' + UUID_N,
                         traits.region_trait('INTEL', UUID))

    def test_function_trait(self):
        self.assertEqual('CUSTOM_FPGA_INTEL_FUNCTION_' + UUID_N,
                         traits.function_trait('intel', UUID.upper()))

    def test_device_trait(self):
        self.assertEqual('CUSTOM_GPU_NVIDIA_1DB4',
                         traits.device_trait('GPU', 'NVIDIA', '1db4'))
        self.assertEqual('CUSTOM_FPGA_INTEL_09C4',
                         traits.device_trait('fpga', 'INTEL', '09c4'))
        self.assertEqual('CUSTOM_QAT_INTEL_37C8',
                         traits.device_trait('QAT', 'INTEL', '37c8'))
        self.assertEqual('CUSTOM_SMART_NIC_A_B_0001',
                         traits.device_trait('smart-nic', 'a.b', '0001'))

    def test_length_checked(self):
        vendor = 'V' * 239
        trait = traits.device_trait('GPU', vendor, '1234')
        self.assertEqual(255, len(trait))
        self.assertRaises(ValueError, traits.device_trait, 'GPU',
                          vendor + 'V', '1234')
        self.assertRaises(ValueError, traits.region_trait, 'V' * 250, UUID)
        self.assertRaises(ValueError, traits.function_trait, 'V' * 250,
                          UUID)

    def test_empty_part_still_valid_form(self):
        # Normalisation cannot produce a character outside [A-Z0-9_].
        self.assertEqual('CUSTOM_GPU__1234',
                         traits.device_trait('GPU', '', '1234'))


class TestResourceClass(testtools.TestCase):

    def test_resource_class(self):
        self.assertEqual('FPGA', traits.resource_class('FPGA'))
        self.assertEqual('FPGA', traits.resource_class('fpga'))
        self.assertEqual('PGPU', traits.resource_class('GPU'))
        self.assertEqual('CUSTOM_QAT', traits.resource_class('QAT'))
        self.assertEqual('CUSTOM_AICHIP', traits.resource_class('aichip'))
        self.assertEqual('CUSTOM_MY_DSP', traits.resource_class('my-dsp'))

    def test_is_accelerator_resource_class(self):
        for name in ('FPGA', 'PGPU', 'VGPU', 'CUSTOM_QAT', 'CUSTOM_AICHIP',
                     'CUSTOM_NIC', 'CUSTOM_SSD', 'CUSTOM_FPGA', 'CUSTOM_GPU'):
            self.assertTrue(traits.is_accelerator_resource_class(name), name)
        for name in ('VCPU', 'MEMORY_MB', 'CUSTOM_BAREMETAL_GOLD',
                     'CUSTOM_QAT_X', 'fpga', 'CUSTOM_', '', None, 1):
            self.assertFalse(traits.is_accelerator_resource_class(name),
                             name)


class TestIsAcceleratorTrait(testtools.TestCase):

    def test_types(self):
        self.assertEqual(('FPGA', 'GPU', 'QAT', 'AICHIP', 'NIC', 'SSD'),
                         traits.ACCELERATOR_TYPES)
        for name in ('CUSTOM_FPGA_INTEL_REGION_X', 'CUSTOM_GPU_NVIDIA_1DB4',
                     'CUSTOM_QAT_INTEL_37C8', 'CUSTOM_AICHIP_HUAWEI_D100',
                     'CUSTOM_NIC_X_1', 'CUSTOM_SSD_X_1'):
            self.assertTrue(traits.is_accelerator_trait(name), name)

    def test_operator_traits(self):
        for name in ('CUSTOM_RAID', 'CUSTOM_GPU', 'CUSTOM_FPGAX_1',
                     'HW_CPU_X86_AVX2', 'custom_gpu_x', 'CUSTOM_GPUS_X',
                     '', None, 3):
            self.assertFalse(traits.is_accelerator_trait(name), name)
