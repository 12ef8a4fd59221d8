"""Sample accelerator inventories for the unit tests (the agent's format,
doc/accelerators.md)."""

import copy
import threading

from ironic_like.common.accelerators import inventory
from ironic_like.db import api as db_api

REGION_TYPE = '6f1e8c3a-2b4d-4e5f-9a0b-1c2d3e4f5a6b'
OTHER_REGION_TYPE = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'
GZIP = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'
AES = 'f0e1d2c3-b4a5-4968-8776-a5b4c3d2e1f0'

FPGA = {'type': 'FPGA', 'vendor_id': '8086', 'product_id': '09c4',
        'model': 'PAC Arria10', 'pci_address': '0000:5e:00.0',
        'virtual_functions': ['0000:5e:00.1', '0000:5e:00.2'],
        'regions': [{'region_type_uuid': REGION_TYPE,
                     'partial_reconfiguration': True,
                     'pci_addresses': ['0000:5e:00.1', '0000:5e:00.2'],
                     'function': None}]}

GPU = {'type': 'GPU', 'vendor_id': '10de', 'product_id': '1eb8',
       'model': 'Tesla T4', 'pci_address': '0000:3b:00.0'}


def _vfs(address, count):
    """VF addresses after the PF: bus:01.0 .. bus:01.7, bus:02.0 ..."""
    bus = address.rsplit(':', 1)[0]
    return ['%s:%02x.%d' % (bus, 1 + i // 8, i % 8) for i in range(count)]


def fpga(address='0000:5e:00.0', vfs=2, function=None,
         region_type=REGION_TYPE):
    entry = copy.deepcopy(FPGA)
    entry['pci_address'] = address
    entry['virtual_functions'] = _vfs(address, vfs)
    entry['regions'][0]['pci_addresses'] = list(entry['virtual_functions'])
    entry['regions'][0]['region_type_uuid'] = region_type
    entry['regions'][0]['function'] = function
    return entry


def gpu(address='0000:3b:00.0', vfs=0, product='1eb8'):
    entry = copy.deepcopy(GPU)
    entry['pci_address'] = address
    entry['product_id'] = product
    if vfs:
        entry['virtual_functions'] = _vfs(address, vfs)
    return entry


def apply(node, entries):
    """Record ``entries`` as the node's inventory; returns the summary."""
    return db_api.get_instance().apply_accelerator_inventory(
        node.id, inventory.parse(entries), node.name or node.uuid)


# A two-region FPGA (one function loaded) and a GPU, as the parser and
# API tests use them; their VFs unsorted on purpose.
RT1 = '11111111-2222-4333-8444-555555555555'
RT2 = '66666666-7777-4888-9999-aaaaaaaaaaaa'
FN1 = 'abcdef01-2345-4678-9abc-def012345678'


def two_region_fpga(**kw):
    entry = {'type': 'FPGA', 'vendor_id': '8086', 'product_id': '09c4',
             'vendor_name': 'Intel', 'model': 'PAC Arria10',
             'pci_address': '0000:5e:00.0',
             'virtual_functions': ['0000:5e:00.2', '0000:5e:00.1'],
             'regions': [
                 {'region_type_uuid': RT1, 'partial_reconfiguration': True,
                  'pci_addresses': ['0000:5e:00.1'],
                  'function': {'uuid': FN1, 'name': 'gzip'}},
                 {'region_type_uuid': RT2,
                  'pci_addresses': ['0000:5e:00.2'],
                  'function': None}]}
    entry.update(kw)
    return entry


def plain_gpu(**kw):
    entry = {'type': 'GPU', 'vendor_id': '10de', 'product_id': '1db4',
             'pci_address': '0000:3b:00.0'}
    entry.update(kw)
    return entry


def race(target, count, timeout=120):
    """Run ``target(i)`` for i in range(count) in threads released at
    once; returns (results, exceptions) in no particular order."""
    results, errors = [], []
    start = threading.Event()

    def run(i):
        start.wait(10)
        try:
            results.append(target(i))
        except Exception as e:
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,))
               for i in range(count)]
    for t in threads:
        t.start()
    start.set()
    for t in threads:
        t.join(timeout)
    return results, errors
