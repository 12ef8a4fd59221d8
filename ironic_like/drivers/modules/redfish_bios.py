"""The ``redfish`` BIOS interface: the Redfish system's Bios resource read
into the node's cached settings (on manage/verify, after each step), and
Ironic's two BIOS steps, run out of band:

``apply_configuration(settings)``
    The settings are checked against the cached ones (read-only, allowed
    values, bounds; typed as the registry says), then written to the
    Bios settings resource (``@Redfish.SettingsApplyTime`` OnReset when
    the BMC offers it), the node is rebooted so that its firmware applies
    them, and they are read back: any the BMC did not apply fails the
    step, naming them. Settings already in force (and not pending
    otherwise) are not written and cost no reboot, as in Ironic.
``factory_reset``
    The Bios ResetBios action, then the same reboot.

Both are clean and service steps that need no ramdisk (manual cleaning or
servicing with only them boots none) and deploy steps, as Ironic marks
them. The reboot drops the agent token, as every power action does: a
ramdisk running meanwhile boots again and looks its node up anew, and an
agent step after this one waits for it.
"""

from oslo_log import log
import sushy

from ironic_like.common import agent_info
from ironic_like.common import bios_registry
from ironic_like.common import exception
from ironic_like.drivers import base
from ironic_like.drivers import bios_settings
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)


class RedfishBIOS(redfish._RedfishBMC, base.BIOSInterface):

    def get_bios_settings(self, task):
        action = 'reading the BIOS settings'
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            attributes = dict(system.bios.attributes or {})
        registry = self._registry(task, system)
        # Stored as text, as Ironic stores them, whatever their JSON type.
        return {name: dict(registry.get(name, {}),
                           value=None if value is None else str(value))
                for name, value in attributes.items()}

    def check_step(self, task, step):
        """Before the node moves: apply_configuration's settings against
        the cached ones (InvalidParameterValue naming ``settings`` and
        each refused setting)."""
        if step.get('step') == 'apply_configuration':
            bios_settings.checked(task.node.id,
                                  (step.get('args') or {}).get('settings'))

    @base.deploy_step(argsinfo=bios_settings.APPLY_ARGSINFO)
    @base.service_step(argsinfo=bios_settings.APPLY_ARGSINFO,
                       requires_ramdisk=False)
    @base.clean_step(argsinfo=bios_settings.APPLY_ARGSINFO,
                     requires_ramdisk=False)
    def apply_configuration(self, task, settings):
        attributes = bios_settings.checked(task.node.id, settings)
        action = 'applying BIOS settings'
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            bios = system.bios
            if _in_force(bios, attributes):
                LOG.info('Node %s: BIOS settings %s are in force already; '
                         'nothing written, no reboot', task.node.uuid,
                         sorted(attributes))
                self.cache_bios_settings(task)
                return
            bios.set_attributes(attributes, apply_time=_apply_time(bios))
        LOG.info('Node %s: BIOS settings %s written; rebooting to apply '
                 'them', task.node.uuid, sorted(attributes))
        _reboot_to_apply(task)
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            current = dict(system.bios.attributes or {})
        missing = sorted('%s=%s (is %s)' % (name, value, current.get(name))
                         for name, value in attributes.items()
                         if not _same(current.get(name), value))
        self.cache_bios_settings(task)
        if missing:
            raise exception.BIOSSettingsNotApplied(
                node=task.node.uuid, settings=', '.join(missing))

    @base.deploy_step()
    @base.service_step(requires_ramdisk=False)
    @base.clean_step(requires_ramdisk=False)
    def factory_reset(self, task):
        action = 'resetting the BIOS to its factory settings'
        info, system = redfish_utils.get_system(task.node, action=action)
        with redfish_utils.sushy_errors(info, action,
                                        exception.IronicLikeException):
            system.bios.reset_bios()
        LOG.info('Node %s: BIOS reset asked for; rebooting to apply it',
                 task.node.uuid)
        _reboot_to_apply(task)
        self.cache_bios_settings(task)

    def _registry(self, task, system):
        """{name: its BIOS registry fields} (API 1.74) from the BMC's
        attribute registry; {} when the BMC has none or fails to give it
        (the settings are cached all the same, as Ironic does)."""
        try:
            found = system.bios.get_attribute_registry()
            entries = list(found.registry_entries.attributes or []
                           if found else [])
        except Exception as e:
            LOG.info('Node %s: no BIOS attribute registry: %s',
                     task.node.uuid, exception.safe_message(e))
            return {}
        registry = {}
        for entry in entries:
            fields = {key: getattr(entry, key, None)
                      for key in bios_registry.FIELDS}
            if isinstance(fields['allowable_values'], list):
                fields['allowable_values'] = _value_names(
                    task, fields['allowable_values'])
            registry[entry.name] = fields
        return registry


def _same(current, wanted):
    # A BMC may give back as text what was written as a number or a
    # boolean (and the other way round).
    return current == wanted or str(current).lower() == str(wanted).lower()


def _pending(bios):
    """The settings the BMC holds pending; {} when it shows none or its
    settings resource cannot be read."""
    try:
        pending = bios.pending_attributes
    except Exception:
        return {}
    return dict(pending) if isinstance(pending, dict) else {}


def _in_force(bios, attributes):
    """Every requested setting is the current value and no other value
    for it is pending."""
    current = bios.attributes or {}
    pending = _pending(bios)
    return all(_same(current.get(name), value)
               and (name not in pending or _same(pending[name], value))
               for name, value in attributes.items())


def _apply_time(bios):
    try:
        times = bios.supported_apply_times or []
    except Exception:
        return None
    return (sushy.APPLY_TIME_ON_RESET if sushy.APPLY_TIME_ON_RESET in times
            else None)


def _reboot_to_apply(task):
    """Reboot the node so that its firmware applies what was written,
    and record the power state it reached. Its agent (if a ramdisk runs)
    is gone: a new lookup gets a new token."""
    agent_info.wipe_agent_token(task)
    power = task.driver.power
    power.reboot(task)
    task.update_node({'power_state': power.get_power_state(task),
                      'target_power_state': None})


def _value_names(task, allowable):
    """A registry's allowed values ([{'ValueName', 'ValueDisplayName'}])
    as their names, as Ironic keeps them."""
    names = []
    for item in allowable:
        name = (item.get('ValueName') or item.get('ValueDisplayName')
                if isinstance(item, dict) else item)
        if name:
            names.append(name)
        else:
            LOG.warning('Node %s: BIOS registry value without a name: %s',
                        task.node.uuid, item)
    return names
