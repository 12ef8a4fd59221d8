"""The ``redfish`` inspect interface: out-of-band inspection, reading what
the node is made of from its Redfish BMC (sushy), as Ironic's redfish
inspect interface does; nothing boots.

inspect_hardware() builds ironic-python-agent's inventory as far as the
BMC tells (Ironic's mapping: ``cpu``, ``memory``, ``disks``,
``storage_controllers``, ``interfaces``, ``pci_devices``,
``system_vendor``, ``boot``; LLDP of the chassis' network adapters as
the plugin data ``parsed_lldp``) and the node's properties with Ironic's
rules:

* ``memory_mb``: MemorySummary.TotalSystemMemoryGiB x 1024;
* ``local_gb``: the smallest SimpleStorage disk, or Storage volume (else
  drive), of at least 4 GiB (the smaller of the two when both exist), in
  GiB minus one; 0 for a disk-less node (logged);
* ``cpu_arch``: the InstructionSet of the first processor that has a
  known one (x86-64: x86_64, ARM-A64: aarch64...); ``cpus``: the
  processors' TotalThreads, as our in-band inspection sets it (Ironic's
  ``cpus`` hook, not a default one);
* ``capabilities``: ``boot_mode`` (uefi/bios) of
  Boot.BootSourceOverrideMode, unless the node has a boot_mode
  capability already.

What the BMC does not report keeps its current value; inspection fails
(HardwareInspectionFailure) only when memory_mb stays unknown, the one of
Ironic's essential properties (memory_mb, local_gb, cpu_arch) that it
does not fill with a fallback. It returns the result to the conductor
(drivers.base.InspectedHardware), which records it as it records an
agent's inventory: properties, ports for the NICs (see
common/inspection.ports_to_add(): the BMC knows no IP addresses nor the
NIC the node boots from), the inspection rules, the inventory kept
(conductor/inspection.py, conductor/flows/inspect.py).

A failure to read the system, its processors or its NICs fails the
inspection with what the BMC answered; the other parts (storage, PCIe
devices, LLDP) are left out of the inventory when missing or unreadable,
as Ironic does.
"""

from oslo_log import log
from oslo_utils import netutils
import sushy

from ironic_like.common import exception
from ironic_like.common import inspection
from ironic_like.common import masking
from ironic_like.drivers import base
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)

# Redfish Processor.InstructionSet -> cpu_arch (Ironic's map; OEM: none).
INSTRUCTION_SET_MAP = {
    sushy.InstructionSet.ARM_A32: 'arm',
    sushy.InstructionSet.ARM_A64: 'aarch64',
    sushy.InstructionSet.IA_64: 'ia64',
    sushy.InstructionSet.MIPS32: 'mips',
    sushy.InstructionSet.MIPS64: 'mips64',
    sushy.InstructionSet.X86: 'i686',
    sushy.InstructionSet.X86_64: 'x86_64',
}

# Ironic's essential properties it does not fill with a fallback
# (local_gb is 0 without a disk, cpu_arch kept or left unknown).
REQUIRED_PROPERTIES = ('memory_mb',)


def _value(field):
    """An enum's value (sushy maps many fields to enums), else itself."""
    return getattr(field, 'value', field)


def _int(value):
    if value is None or isinstance(value, bool):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


class _Reader(object):
    """Reads the parts of one system, saying what failed."""

    def __init__(self, task, info, system):
        self.node = task.node
        self.info = info
        self.system = system

    def required(self, what, read, default=None):
        """``read()`` of a part the inspection needs: its absence (no
        link) gives ``default``, an error fails the inspection."""
        try:
            return read()
        except sushy.exceptions.MissingAttributeError as e:
            LOG.info('Node %s: its BMC reports no %s (%s)', self.node.uuid,
                     what, e)
            return default
        except sushy.exceptions.SushyError as e:
            if isinstance(e, sushy.exceptions.ConnectionError):
                redfish_utils.drop_connection(self.info)
            raise exception.HardwareInspectionFailure(masking.mask_text(
                'Node %s: %s: reading %s failed: %s'
                % (self.node.uuid, redfish_utils.describe(self.info), what,
                   e)))

    def optional(self, what, read, default=None):
        """``read()`` of a part the inspection does without: its absence
        or an error gives ``default`` (logged)."""
        return redfish_utils.read_optional(self.node.uuid, what, read,
                                           default)


def _cpu(reader):
    # Ironic's defaults, so that rules and hooks written for the agent's
    # inventory find the keys.
    cpu = {'count': 0, 'architecture': ''}
    system = reader.system
    processors = reader.required(
        'the processors', lambda: system.processors and
        system.processors.get_members(), default=[])
    if not processors:
        return cpu
    cpu['count'] = sum(_int(p.total_threads) or 0 for p in processors)
    first = processors[0]
    if first.model is not None:
        cpu['model_name'] = str(first.model)
    if first.max_speed_mhz is not None:
        cpu['frequency'] = first.max_speed_mhz
    for proc in processors:
        arch = INSTRUCTION_SET_MAP.get(proc.instruction_set)
        if arch:
            cpu['architecture'] = arch
            break
    return cpu


def _memory_mb(system):
    summary = getattr(system, 'memory_summary', None)
    size_gib = _int(getattr(summary, 'size_gib', None))
    return size_gib * 1024 if size_gib else None


def _interfaces(reader):
    system = reader.system
    members = reader.required(
        'the network interfaces', lambda: system.ethernet_interfaces and
        system.ethernet_interfaces.get_members(), default=[])
    found = []
    for eth in members or ():
        mac = eth.mac_address
        if not isinstance(mac, str) or not netutils.is_valid_mac(mac):
            LOG.warning('Node %s: ignoring network interface %s: %r is '
                        'not a valid MAC address', reader.node.uuid,
                        eth.identity, mac)
            continue
        nic = {'mac_address': mac.lower(), 'name': eth.identity}
        speed = _int(eth.speed_mbps)
        if speed is not None:
            nic['speed_mbps'] = speed
        found.append(nic)
    return found


def _first_big(sizes):
    """The first size (sushy sorts them) of at least 4 GiB, else 0."""
    for size in sizes or ():
        size = _int(size)
        if size and size >= inspection.MIN_ROOT_DISK_SIZE:
            return size
    return 0


def _local_gb(reader, simple_storage, storage):
    """Ironic's: the smallest disk (SimpleStorage) and volume (else drive,
    Storage) of at least 4 GiB, the smaller of the two, in GiB minus
    one; 0 without one."""
    simple = storage_size = 0
    if simple_storage is not None:
        simple = _first_big(reader.optional(
            'the simple storage disk sizes',
            lambda: simple_storage.disks_sizes_bytes))
    if storage is not None:
        storage_size = _first_big(reader.optional(
            'the storage volume sizes', lambda: storage.volumes_sizes_bytes))
        if not storage_size:
            storage_size = _first_big(reader.optional(
                'the storage drive sizes',
                lambda: storage.drives_sizes_bytes))
    size = (min(simple, storage_size) if simple and storage_size
            else max(simple, storage_size))
    return max(0, size // inspection.GiB - 1)


def _status(status):
    if status is None:
        return None
    found = {}
    for key in ('health', 'state', 'health_rollup'):
        value = getattr(status, key, None)
        if value is not None:
            found[key] = _value(value)
    return found or None


def _drive(drive):
    found = {'name': drive.name, 'size': drive.capacity_bytes,
             'id': drive.identity, 'media_type': _value(drive.media_type),
             'serial_number': drive.serial_number,
             'manufacturer': drive.manufacturer, 'model': drive.model,
             'revision': drive.revision}
    if drive.protocol is not None:
        found['protocol'] = _value(drive.protocol)
    status = _status(drive.status)
    if status:
        found['status'] = status
    return found


def _controller(storage, drives):
    subs = []
    for sc in storage.storage_controllers or ():
        sub = {'member_id': sc.member_id, 'name': sc.name,
               'speed_gbps': sc.speed_gbps,
               'raid_types': [_value(v) for v in sc.raid_types or ()],
               'controller_protocols': [
                   _value(v) for v in sc.controller_protocols or ()],
               'device_protocols': [
                   _value(v) for v in sc.device_protocols or ()]}
        status = _status(sc.status)
        if status:
            sub['status'] = status
        subs.append(sub)
    return {'id': str(storage.identity or ''), 'name': storage.name,
            'storage_controllers': subs,
            'drives': [_drive(d) for d in drives]}


def _storage(reader, inventory):
    """Fills the inventory's disks and storage_controllers; returns
    local_gb."""
    system = reader.system
    storage = reader.optional('the storage', lambda: system.storage)
    members = []
    if storage is not None:
        members = reader.optional('the storage subsystems',
                                  storage.get_members, default=[])
    simple_storage = reader.optional('the simple storage',
                                     lambda: system.simple_storage)
    disks, controllers = [], []
    for member in members:
        drives = reader.optional('the drives of storage %s'
                                 % member.identity,
                                 lambda: list(member.drives), default=[])
        disks.extend({'name': d.name, 'size': d.capacity_bytes}
                     for d in drives)
        controllers.append(_controller(member, drives))
    if not members and simple_storage is not None:
        for member in reader.optional('the simple storage devices',
                                      simple_storage.get_members,
                                      default=[]):
            disks.extend({'name': d.name, 'size': d.capacity_bytes}
                         for d in member.devices or ())
    if members or simple_storage is not None:
        inventory['disks'] = disks
    if controllers:
        inventory['storage_controllers'] = controllers
    return _local_gb(reader, simple_storage, storage)


def _pci_devices(reader):
    system = reader.system

    def read():
        found = []
        devices = system.pcie_devices
        for device in devices.get_members() if devices is not None else ():
            functions = getattr(device, 'pcie_functions', None)
            if not functions:
                continue
            for function in functions.get_members():
                # IPA's key names (the BMC knows no bus address).
                info = {}
                for key, attr in (('class', 'device_class'),
                                  ('product_id', 'device_id'),
                                  ('vendor_id', 'vendor_id'),
                                  ('subsystem_id', 'subsystem_id'),
                                  ('subsystem_vendor_id',
                                   'subsystem_vendor_id'),
                                  ('revision', 'revision_id')):
                    value = getattr(function, attr, None)
                    if value is not None:
                        info[key] = str(_value(value))
                if info:
                    found.append(info)
        return found
    return reader.optional('the PCIe devices', read, default=[])


def _system_vendor(system):
    found = {}
    for key, attr in (('product_name', 'model'),
                      ('serial_number', 'serial_number'),
                      ('manufacturer', 'manufacturer'),
                      ('system_uuid', 'uuid')):
        value = getattr(system, attr, None)
        if value:
            found[key] = str(value)
    return found


# Redfish LLDPReceive -> the keys of Ironic's parsed_lldp.
LLDP_FIELDS = (('switch_chassis_id', 'chassis_id'),
               ('switch_port_id', 'port_id'),
               ('switch_system_name', 'system_name'),
               ('switch_system_description', 'system_description'),
               ('switch_vlan_id', 'management_vlan_id'))


def _lldp(reader):
    """{port id: parsed LLDP} of the ports of the network adapters of the
    system's chassis (Port.Ethernet.LLDPReceive)."""
    parsed = {}
    for adapter in redfish_utils.network_adapters(reader.node.uuid,
                                                  reader.system):
        ports = reader.optional('the network adapter ports',
                                lambda: adapter.ports.get_members(),
                                default=[])
        for port in ports:
            ethernet = getattr(port, 'ethernet', None)
            received = getattr(ethernet, 'lldp_receive', None)
            if received is None or not port.identity:
                continue
            found = {key: getattr(received, attr, None)
                     for key, attr in LLDP_FIELDS}
            found = {k: v for k, v in found.items()
                     if v not in (None, '')}
            if found:
                parsed[port.identity] = found
    return parsed


def read_inventory(task, info, system):
    """(inventory, plugin data, the properties found, the boot mode or
    None) of ``system``."""
    reader = _Reader(task, info, system)
    found = {}
    inventory = {}
    memory_mb = _memory_mb(system)
    if memory_mb:
        inventory['memory'] = {'physical_mb': memory_mb}
        found['memory_mb'] = memory_mb
    inventory['cpu'] = _cpu(reader)
    if inventory['cpu']['count']:
        found['cpus'] = inventory['cpu']['count']
    if inventory['cpu']['architecture']:
        found['cpu_arch'] = inventory['cpu']['architecture']
    found['local_gb'] = _storage(reader, inventory)
    inventory['interfaces'] = _interfaces(reader)
    pci = _pci_devices(reader)
    if pci:
        inventory['pci_devices'] = pci
    vendor = _system_vendor(system)
    if vendor:
        inventory['system_vendor'] = vendor
    boot = getattr(system, 'boot', None)
    boot_mode = redfish.BOOT_MODE_MAP_REV.get(getattr(boot, 'mode', None))
    if boot_mode:
        inventory['boot'] = {'current_boot_mode': boot_mode}
    plugin_data = {}
    lldp = _lldp(reader)
    if lldp:
        plugin_data['parsed_lldp'] = lldp
    return inventory, plugin_data, found, boot_mode


def properties(node, found, boot_mode):
    """The node's properties with what inspection ``found``.

    :raises: HardwareInspectionFailure when one of REQUIRED_PROPERTIES is
        neither found nor set already.
    """
    props = dict(node.properties or {})
    props.update(found)
    if not found.get('local_gb'):
        LOG.warning('Node %s: its BMC reports no disk of at least 4 GiB; '
                    'local_gb 0 (a disk-less node)', node.uuid)
    if 'cpu_arch' not in found:
        LOG.warning('Node %s: its BMC does not report the CPU '
                    'architecture; cpu_arch %s', node.uuid,
                    'kept' if props.get('cpu_arch') else 'unknown')
    if boot_mode:
        capabilities = inspection.parse_capabilities(
            props.get('capabilities'))
        # Ironic's: a boot mode the operator chose is kept.
        if not capabilities.get('boot_mode'):
            capabilities['boot_mode'] = boot_mode
            props['capabilities'] = inspection.format_capabilities(
                capabilities)
    missing = [name for name in REQUIRED_PROPERTIES
               if props.get(name) in (None, '')]
    if missing:
        raise exception.HardwareInspectionFailure(
            'Failed to discover the following properties: %s on node %s '
            '(its BMC does not report them and the node has none)'
            % (', '.join(missing), node.uuid))
    return props


class RedfishInspect(redfish._RedfishBMC, base.InspectInterface):
    """Out-of-band inspection through the node's Redfish BMC."""

    def inspect_hardware(self, task):
        info, system = redfish_utils.get_system(
            task.node, action='reading the system for inspection',
            error_cls=exception.HardwareInspectionFailure)
        inventory, plugin_data, found, boot_mode = read_inventory(
            task, info, system)
        props = properties(task.node, found, boot_mode)
        return base.InspectedHardware(inventory, props, plugin_data)
