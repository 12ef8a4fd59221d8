"""Accelerator drivers: what programming and cleaning a device means.

A deployable records its driver's name (set at discovery from the device
type); os_acc loads the driver by that name from the
``ironic_like.accelerator_drivers`` entry points (stevedore), so a vendor
driver is a package of its own.

Bare metal has no hypervisor: the device is programmed by the node's deploy
agent (in the ramdisk), which downloads the bitstream the conductor has
verified and staged. A program the agent reports as failed, or does not
finish within [accelerators]program_timeout, fails the plug with the
agent's message (Cyborg's drivers return False and the caller ignores
it).
"""

from stevedore import driver as stevedore_driver

from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.drivers.modules import agent_client

NAMESPACE = 'ironic_like.accelerator_drivers'
PROGRAM = 'accelerator.program'
ERASE = 'accelerator.erase'


def region_index(deployable_key):
    """The region number of a deployable key ('region1' -> 1)."""
    key = (deployable_key or '').split('/', 1)[0]
    if key.startswith('region') and key[6:].isdigit():
        return int(key[6:])
    return 0


class AcceleratorDriver(object):
    """Base: a device that cannot be programmed and needs no cleaning."""

    programmable = False

    def program(self, node, target, bitstream, function):
        """Load ``bitstream`` ({url, sha256, size, image_id}) into
        ``target`` (a candidate of db.list_accelerator_candidates)."""
        raise exception.InvalidParameterValue(
            err='Deployable %s (%s) cannot be programmed.'
                % (target['deployable_uuid'], target['device_type']),
            field='flavor_extra_specs')

    def clean(self, node, region):
        """Bring ``region`` (db.list_accelerator_regions_to_clean entry)
        back to its pristine state."""


class PCIDriver(AcceleratorDriver):
    """GPUs and fixed-function cards: passed through as they are."""


class FPGAAgentDriver(AcceleratorDriver):
    """FPGAs programmed by the deploy agent (accelerator.program)."""

    programmable = True

    def program(self, node, target, bitstream, function):
        params = {'pci_address': target['device_address'],
                  'region_index': region_index(target['deployable_key']),
                  'image': {'id': bitstream['image_id'],
                            'url': bitstream['url'],
                            'os_hash_algo': 'sha256',
                            'os_hash_value': bitstream['sha256'],
                            'size': bitstream['size']},
                  'function': function}
        try:
            return agent_client.run_command(
                node, PROGRAM, params,
                timeout=CONF.accelerators.program_timeout)
        except (exception.AgentCommandFailed,
                exception.AgentConnectionFailed) as e:
            raise exception.AcceleratorProgramFailed(
                image=bitstream['image_id'],
                deployable=target['deployable_name'], node=node.uuid,
                error=exception.safe_message(e))

    def clean(self, node, region):
        agent_client.run_command(
            node, ERASE, {'pci_address': region['device_address'],
                          'region_index': region_index(region['key'])})


_LOADED = {}


def get_driver(name):
    """The driver called ``name``; InvalidParameterValue if none is."""
    if name not in _LOADED:
        try:
            _LOADED[name] = stevedore_driver.DriverManager(
                NAMESPACE, name, invoke_on_load=True).driver
        except Exception:
            raise exception.InvalidParameterValue(
                err='No accelerator driver named %r is installed.' % name,
                field='driver_name')
    return _LOADED[name]
