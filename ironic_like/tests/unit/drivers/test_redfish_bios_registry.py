"""The redfish BIOS interface fills the BIOS registry fields (API 1.74)
from the BMC's attribute registry, as Ironic's redfish driver does."""

from unittest import mock

import sushy

from ironic_like.drivers.modules import redfish_bios
from ironic_like.tests.unit.drivers import test_redfish


def _entry(name, **fields):
    entry = mock.Mock(spec=['name', 'attribute_type', 'allowable_values',
                            'lower_bound', 'upper_bound', 'max_length',
                            'min_length', 'read_only', 'reset_required',
                            'unique'])
    entry.name = name
    for key in ('attribute_type', 'allowable_values', 'lower_bound',
                'upper_bound', 'max_length', 'min_length', 'read_only',
                'reset_required', 'unique'):
        setattr(entry, key, fields.get(key))
    return entry


class TestRedfishBiosRegistry(test_redfish._SushyTest):

    def setUp(self):
        super().setUp()
        self.system.bios.attributes = {'BootMode': 'Uefi', 'Cores': 8}
        self.bios = redfish_bios.RedfishBIOS()

    def test_registry_fields(self):
        registry = mock.Mock()
        registry.registry_entries.attributes = [
            _entry('BootMode', attribute_type='Enumeration',
                   allowable_values=[{'ValueName': 'Bios'},
                                     {'ValueDisplayName': 'Uefi'}, {}],
                   read_only=False, reset_required=True, unique=False),
            _entry('Cores', attribute_type='Integer', lower_bound=1,
                   upper_bound=64, read_only=True),
            _entry('NotASetting', attribute_type='String'),
        ]
        self.system.bios.get_attribute_registry.return_value = registry
        found = self.bios.get_bios_settings(test_redfish._task())
        self.assertEqual(['BootMode', 'Cores'], sorted(found))
        self.assertEqual({'value': 'Uefi', 'attribute_type': 'Enumeration',
                          'allowable_values': ['Bios', 'Uefi'],
                          'lower_bound': None, 'upper_bound': None,
                          'max_length': None, 'min_length': None,
                          'read_only': False, 'reset_required': True,
                          'unique': False}, found['BootMode'])
        self.assertEqual(('8', 'Integer', 1, 64, True),
                         tuple(found['Cores'][k] for k in (
                             'value', 'attribute_type', 'lower_bound',
                             'upper_bound', 'read_only')))

    def test_no_registry_still_reads_settings(self):
        self.system.bios.get_attribute_registry.side_effect = (
            sushy.exceptions.MissingAttributeError(
                attribute='AttributeRegistry', resource='Bios'))
        self.assertEqual({'BootMode': {'value': 'Uefi'},
                          'Cores': {'value': '8'}},
                         self.bios.get_bios_settings(test_redfish._task()))
