"""PCI addresses (common/accelerators/pci.py): one spelling per function."""

import testtools

from ironic_like.common.accelerators import pci


class TestNormalizeAddress(testtools.TestCase):

    def test_full_address_lower_cased(self):
        self.assertEqual('0000:5e:00.1', pci.normalize_address('0000:5E:00.1'))
        self.assertEqual('abcd:ff:1f.7', pci.normalize_address('ABCD:FF:1F.7'))

    def test_short_address_gets_domain_zero(self):
        self.assertEqual('0000:5e:00.0', pci.normalize_address('5e:00.0'))
        self.assertEqual('0000:3b:1a.3', pci.normalize_address('3B:1A.3'))

    def test_invalid(self):
        for text in ('', '5e:00', '5e:00.8', '5e:20.0', '0000:5e:00',
                     '00000:5e:00.0', '000:5e:00.0', '0000:5g:00.0',
                     '0000-5e-00.0', ' 0000:5e:00.0', '0000:5e:00.0\n',
                     '0000:5e:00.0.1', '0000:5e:0.0', '0000:5e:000.0',
                     '0x00:5e:00.0', '\uff10000:5e:00.0'):
            self.assertRaises(ValueError, pci.normalize_address, text)

    def test_not_a_string(self):
        for value in (None, 5, b'0000:5e:00.0', ['0000:5e:00.0']):
            self.assertRaises(ValueError, pci.normalize_address, value)

    def test_device_and_function_bounds(self):
        self.assertEqual('0000:00:1f.7', pci.normalize_address('00:1f.7'))
        self.assertRaises(ValueError, pci.normalize_address, '00:20.7')
        self.assertRaises(ValueError, pci.normalize_address, '00:1f.8')


class TestBdfInfo(testtools.TestCase):

    def test_parts(self):
        self.assertEqual({'domain': '0000', 'bus': '5e', 'device': '00',
                          'function': '1'}, pci.bdf_info('0000:5e:00.1'))

    def test_parts_normalised(self):
        self.assertEqual({'domain': '0000', 'bus': 'af', 'device': '1f',
                          'function': '7'}, pci.bdf_info('AF:1F.7'))
        self.assertEqual({'domain': '0001', 'bus': '00', 'device': '02',
                          'function': '0'}, pci.bdf_info('0001:00:02.0'))

    def test_invalid(self):
        self.assertRaises(ValueError, pci.bdf_info, 'nope')
