"""What in-band inspection learns from an agent's inventory.

The agent answers ``poll.get_hardware_info`` with ironic-python-agent's
inventory (cpu, memory, disks, interfaces, boot, ...). This module turns
it into the node's scheduling properties and the ports to create, without
touching the database, so that the rules are tested on their own and the
conductor only applies the result.

The rules are Ironic's, so that a node inspected here is scheduled as one
inspected by Ironic:

* ``local_gb`` is the size of the root disk, the smallest disk of at least
  4 GiB (smaller ones are USB sticks, virtual media...), in whole GiB
  minus one (room for the partition table and the config drive); 0 when
  there is no such disk;
* ``capabilities`` gains ``boot_mode`` (the mode the ramdisk booted in);
* ports follow [inspector]add_ports: ``all`` NICs with a MAC address,
  the ``active`` ones (with an IP address), the ``pxe`` one (the NIC the
  node booted from, boot.pxe_interface; the active ones when the agent
  does not say), or none (``disabled``). An inventory read from the BMC
  (out-of-band inspection) has neither IP addresses nor a boot NIC:
  see ports_to_add().
"""

from oslo_utils import netutils

from ironic_like.common import exception
from ironic_like.conf import inspector as inspector_opts

GiB = 1024 ** 3
MiB = 1024 ** 2
# Disks smaller than this are not root disk candidates (as Ironic).
MIN_ROOT_DISK_SIZE = 4 * GiB

ADD_PORTS_CHOICES = (inspector_opts.ADD_PORTS_ALL,
                     inspector_opts.ADD_PORTS_ACTIVE,
                     inspector_opts.ADD_PORTS_PXE,
                     inspector_opts.ADD_PORTS_DISABLED)


def _bad(reason):
    return exception.InvalidParameterValue(
        err='The agent\'s inventory cannot be used: %s.' % reason,
        field='inventory')


def _section(inventory, key, kind):
    value = inventory.get(key)
    if not isinstance(value, kind):
        raise _bad('"%s" is missing or is not a %s' % (
            key, 'list' if kind is list else 'mapping'))
    return value


def _positive_int(value, what):
    # bool is an int to Python, never a count or a size here.
    if isinstance(value, bool):
        raise _bad('%s is not a number' % what)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise _bad('%s is not a number' % what)
    if number <= 0:
        raise _bad('%s is not positive' % what)
    return number


def root_disk(disks):
    """The smallest disk of at least 4 GiB, or None."""
    candidates = []
    for disk in disks:
        if not isinstance(disk, dict):
            continue
        try:
            size = int(disk.get('size') or 0)
        except (TypeError, ValueError):
            continue
        if size >= MIN_ROOT_DISK_SIZE:
            candidates.append((size, disk.get('name') or '', disk))
    if not candidates:
        return None
    return min(candidates, key=lambda c: (c[0], c[1]))[2]


def local_gb(disks):
    disk = root_disk(disks)
    if disk is None:
        return 0
    return int(disk['size']) // GiB - 1


def _memory_mb(memory):
    # physical_mb is what the DIMMs hold; total (bytes) is what the kernel
    # sees, a little less: the fallback of agents that cannot read DIMMs.
    if memory.get('physical_mb'):
        return _positive_int(memory['physical_mb'], 'memory.physical_mb')
    if memory.get('total'):
        return _positive_int(memory['total'], 'memory.total') // MiB
    raise _bad('memory has neither physical_mb nor total')


def parse_capabilities(text):
    """Ironic's capabilities string ("k1:v1,k2:v2") as a dict; entries
    without a colon are kept as keys with an empty value."""
    found = {}
    if isinstance(text, dict):
        return {str(k): str(v) for k, v in text.items()}
    for item in (text or '').split(','):
        item = item.strip()
        if not item:
            continue
        key, _sep, value = item.partition(':')
        found[key.strip()] = value.strip()
    return found


def format_capabilities(capabilities):
    return ','.join('%s:%s' % (k, v) for k, v in capabilities.items())


def properties(inventory, current=None):
    """The node's properties after inspection: ``current`` (kept where
    inspection has nothing to say) updated with cpus, cpu_arch,
    memory_mb, local_gb and capabilities' boot_mode.

    :raises: InvalidParameterValue for an inventory without usable cpu or
        memory information.
    """
    if not isinstance(inventory, dict):
        raise _bad('it is not a mapping')
    cpu = _section(inventory, 'cpu', dict)
    memory = _section(inventory, 'memory', dict)
    disks = inventory.get('disks') or []
    if not isinstance(disks, list):
        raise _bad('"disks" is not a list')
    arch = cpu.get('architecture')
    if not arch or not isinstance(arch, str):
        raise _bad('cpu.architecture is missing')
    result = dict(current or {})
    result.update({
        'cpus': _positive_int(cpu.get('count'), 'cpu.count'),
        'cpu_arch': arch,
        'memory_mb': _memory_mb(memory),
        'local_gb': local_gb(disks),
    })
    boot = inventory.get('boot')
    mode = boot.get('current_boot_mode') if isinstance(boot, dict) else None
    if mode:
        capabilities = parse_capabilities(result.get('capabilities'))
        capabilities['boot_mode'] = mode
        result['capabilities'] = format_capabilities(capabilities)
    return result


def _normalized_mac(value):
    if not isinstance(value, str) or not value:
        return None
    mac = value.strip().lower()
    # The PXE firmware's BOOTIF form: "01-" (Ethernet) then the MAC with
    # dashes, which agents pass on as they got it.
    if len(mac) == 20 and mac.startswith('01-'):
        mac = mac[3:].replace('-', ':')
    return mac if netutils.is_valid_mac(mac) else None


def pxe_mac(inventory):
    """The MAC address of the NIC the node booted from, if given."""
    boot = inventory.get('boot') if isinstance(inventory, dict) else None
    if not isinstance(boot, dict):
        return None
    return _normalized_mac(boot.get('pxe_interface'))


def nics(inventory):
    """(mac, has an IP address) of the inventory's NICs with a valid MAC
    address, in the inventory's order, each MAC once."""
    interfaces = _section(inventory, 'interfaces', list)
    found, seen = [], set()
    for nic in interfaces:
        if not isinstance(nic, dict):
            continue
        mac = _normalized_mac(nic.get('mac_address'))
        if mac is None or mac in seen:
            continue  # loopback, InfiniBand GUIDs, garbage
        seen.add(mac)
        active = bool(nic.get('ipv4_address') or nic.get('ipv6_address'))
        found.append((mac, active))
    return found


def _bmc_inventory_error(reason):
    return exception.HardwareInspectionFailure(error=reason)


def _selected(found, boot_mac, add_ports, from_bmc):
    """The MACs of ``found`` (nics()) that ``add_ports`` selects."""
    if add_ports == inspector_opts.ADD_PORTS_DISABLED:
        return []
    if add_ports == inspector_opts.ADD_PORTS_ALL:
        return [mac for mac, _active in found]
    if add_ports == inspector_opts.ADD_PORTS_PXE and boot_mac:
        return [mac for mac, _active in found if mac == boot_mac]
    if from_bmc:
        # pxe, the boot NIC unknown: any NIC may be it.
        return [mac for mac, _active in found]
    # active, or pxe from an agent that does not name its boot NIC.
    return [mac for mac, active in found if active]


def _validated(found, boot_mac, add_ports):
    """The MACs Ironic's validate-interfaces hook keeps for ``add_ports``
    (its "added" ports): every NIC, only the boot NIC for ``pxe`` when it
    is known, only those with an IP address for ``active``."""
    if add_ports == inspector_opts.ADD_PORTS_PXE and boot_mac:
        return {mac for mac, _active in found if mac == boot_mac}
    if add_ports == inspector_opts.ADD_PORTS_ACTIVE:
        return {mac for mac, active in found if active}
    return {mac for mac, _active in found}


def port_changes(inventory, ports, add_ports, keep_ports,
                 update_pxe_enabled, from_bmc=False):
    """What inspection changes of the node's ``ports`` (objects with
    ``address`` and ``pxe_enabled``), as Ironic's ports hook: (the
    ports to delete, by [inspector]keep_ports: ``present`` keeps those
    whose MAC the inventory has, ``added`` those Ironic's
    validate-interfaces hook keeps for ``add_ports`` (_validated()),
    nothing deleted when that leaves no MAC to keep; {address:
    pxe_enabled} of the kept ports whose pxe_enabled changes, with
    ``update_pxe_enabled`` and a known boot NIC: not from a BMC's
    inventory)."""
    found = nics(inventory)
    boot_mac = pxe_mac(inventory)
    if keep_ports == inspector_opts.KEEP_PORTS_PRESENT:
        expected = {mac for mac, _active in found}
    elif keep_ports == inspector_opts.KEEP_PORTS_ADDED:
        expected = _validated(found, boot_mac, add_ports)
    else:
        expected = set()
    deleted, pxe = [], {}
    for port in ports:
        address = (port.address or '').lower()
        if expected and address not in expected:
            deleted.append(port)
            continue
        if update_pxe_enabled and boot_mac and not from_bmc and \
                bool(port.pxe_enabled) != (address == boot_mac):
            pxe[port.address] = address == boot_mac
    return deleted, pxe


def ports_to_add(inventory, add_ports, existing=(), from_bmc=False):
    """The ports inspection creates: a list of {'address', 'pxe_enabled'}
    for the NICs ``add_ports`` selects that are not among ``existing``
    MAC addresses (those ports are kept as they are).

    ``from_bmc``: the inventory was read from the node's BMC (out-of-band
    inspection), which knows neither the NICs' IP addresses nor the NIC
    the node boots from. As Ironic's validate-interfaces hook then,
    ``pxe`` selects every NIC, and an inventory without a NIC with a
    valid MAC address, or ``active`` (no NIC has a known IP address),
    fails the inspection.

    :raises: InvalidParameterValue for an unknown ``add_ports`` or an
        inventory without an interfaces list; HardwareInspectionFailure
        for the failures of ``from_bmc`` above.
    """
    if add_ports not in ADD_PORTS_CHOICES:
        raise exception.InvalidParameterValue(
            err='[inspector]add_ports must be one of %s, not "%s".' % (
                ', '.join(ADD_PORTS_CHOICES), add_ports),
            field='add_ports')
    if not isinstance(inventory, dict):
        raise _bad('it is not a mapping')
    found = nics(inventory)
    boot_mac = pxe_mac(inventory)
    if from_bmc and not found:
        raise _bmc_inventory_error(
            'the BMC reports no network interface with a valid MAC '
            'address')
    if from_bmc and add_ports == inspector_opts.ADD_PORTS_ACTIVE:
        raise _bmc_inventory_error(
            'no network interface matches [inspector]add_ports = active: '
            'the BMC does not know the NICs\' IP addresses')
    chosen = _selected(found, boot_mac, add_ports, from_bmc)
    known = {m.lower() for m in existing if m}
    return [{'address': mac,
             # Only the boot NIC boots from the network when it is known.
             'pxe_enabled': boot_mac is None or mac == boot_mac}
            for mac in chosen if mac not in known]
