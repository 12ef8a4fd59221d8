"""The ``redfish`` BIOS interface: the Redfish system's Bios resource read
into the node's cached settings (on manage/verify, after each step), and
Ironic's two BIOS steps, run out of band:

``apply_configuration(settings)``
    The settings are checked against the cached ones (read-only, allowed
    values, bounds; typed as the registry says), then written to the
    Bios settings resource (``@Redfish.SettingsApplyTime`` OnReset when
    the BMC offers it), the node is rebooted so that its firmware applies
    them, and they are read until in force (bounded: APPLY_TIMEOUT): any
    the BMC did not apply fails the step, naming them. The wait is
    polled (drivers.base.Polling): the node waits in clean wait, service
    wait or deploy wait without a conductor worker or its lock held,
    and whichever conductor owns it then reads the BIOS. Settings already
    in force (and not pending otherwise) are not written and cost no
    reboot, as in Ironic.
``factory_reset``
    The Bios ResetBios action, then the same reboot and wait (for the
    changes the BMC shows pending).

Both are clean and service steps that need no ramdisk (manual cleaning or
servicing with only them boots none) and deploy steps, as Ironic marks
them. The reboot drops the agent token, as every power action does: a
ramdisk running meanwhile boots again and looks its node up anew, and an
agent step after this one waits for it.
"""

import contextlib
import datetime

from oslo_log import log
from oslo_utils import timeutils
import sushy

from ironic_like.common import bios_registry
from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.drivers import base
from ironic_like.drivers import bios_settings
from ironic_like.drivers.modules import redfish
from ironic_like.drivers.modules import redfish_utils

LOG = log.getLogger(__name__)

# Bound (seconds) of the wait, after the reboot, for the BMC to show the
# settings in force: firmware applies them during its power-on self test,
# which takes minutes on a real server. A module constant, as the redfish
# power bounds are; no conductor worker is held meanwhile (the step is
# polled: [conductor]check_polled_steps_interval).
APPLY_TIMEOUT = 600


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
        if not attributes:
            LOG.info('Node %s: no BIOS setting to apply', task.node.uuid)
            return
        action = 'applying BIOS settings'
        info, system = redfish_utils.get_system(task.node, action=action)
        with _bios_errors(info, action):
            bios = system.bios
            if not _unapplied(bios, attributes):
                LOG.info('Node %s: BIOS settings %s are in force already; '
                         'nothing written, no reboot', task.node.uuid,
                         sorted(attributes))
                self.cache_bios_settings(task)
                return
            try:
                bios.set_attributes(attributes,
                                    apply_time=_apply_time(bios))
            except AttributeError as e:
                # sushy, when the Bios has no settings resource.
                raise exception.IronicLikeException(
                    'Node %s: %s: %s failed, the BMC\'s BIOS has no '
                    'settings resource: %s'
                    % (info['node_uuid'], redfish_utils.describe(info),
                       action, e))
        LOG.info('Node %s: BIOS settings %s written; rebooting to apply '
                 'them', task.node.uuid, sorted(attributes))
        return _reboot_then_poll(task, attributes, action)

    @base.deploy_step()
    @base.service_step(requires_ramdisk=False)
    @base.clean_step(requires_ramdisk=False)
    def factory_reset(self, task):
        action = 'resetting the BIOS to its factory settings'
        info, system = redfish_utils.get_system(task.node, action=action)
        with _bios_errors(info, action):
            system.bios.reset_bios()
        LOG.info('Node %s: BIOS reset asked for; rebooting to apply it',
                 task.node.uuid)
        # What a reset restores is unknown beforehand: nothing to wait
        # for but the changes the BMC shows pending to be made (a BMC
        # that shows none is read at once; a later manage or verify
        # reads the settings again).
        return _reboot_then_poll(task, {}, action)

    def poll_step(self, task, step, state):
        """One read of the BIOS after the reboot of apply_configuration
        or factory_reset (``state``: what _reboot_then_poll kept): None
        once ``attributes`` (or, none given, every pending change) are
        in force, the settings the BMC then shows cached; Polling while
        they are not, until the deadline; then BIOSSettingsNotApplied
        naming what is not in force. A read that fails (a BMC often
        answers 503 or drops the connection during the power-on self
        test, and may answer anything meanwhile) is tried again at the
        next poll, until the deadline; driver_info that lacks what the
        BMC needs fails at once."""
        action = state.get('action') or 'applying BIOS settings'
        attributes = state.get('attributes') or {}
        late = timeutils.utcnow() >= _parse_time(state.get('deadline'))
        try:
            info, system = redfish_utils.get_system(task.node,
                                                    action=action)
            with _bios_errors(info, action):
                missing = _unapplied(system.bios, attributes)
        except exception.MissingParameterValue:
            raise  # driver_info lacks what the BMC needs: no later read
        except exception.IronicLikeException as e:
            if late:
                raise
            LOG.info('Node %s: reading the BIOS after the reboot failed '
                     '(read again at the next poll): %s', task.node.uuid,
                     exception.safe_message(e))
            return base.Polling(state)
        if missing and not late:
            LOG.debug('Node %s: BIOS settings not in force yet: %s',
                      task.node.uuid, missing)
            return base.Polling(state)
        self.cache_bios_settings(task)
        if missing:
            raise exception.BIOSSettingsNotApplied(
                node=task.node.uuid, settings=', '.join(missing))
        return None

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


@contextlib.contextmanager
def _bios_errors(info, action):
    """sushy's errors as the step's: a BIOS resource or action the BMC
    answers 404 for is the BMC's lack, not a wrong redfish_system_id
    (what sushy_errors says of a 404)."""
    with redfish_utils.sushy_errors(info, action,
                                    exception.IronicLikeException):
        try:
            yield
        except sushy.exceptions.ResourceNotFoundError as e:
            raise exception.IronicLikeException(masking.mask_text(
                'Node %s: %s: %s failed, the BMC has no such BIOS '
                'resource: %s' % (info['node_uuid'],
                                  redfish_utils.describe(info), action, e)))


def _same(current, wanted):
    """Whether the BMC's ``current`` value is ``wanted``: exactly, but for
    the text forms of a Boolean or an Integer on either side (a setting
    without a registry type is given as text; a BMC may give back a
    typed value as text)."""
    if current is None or wanted is None:
        return current is wanted
    if type(current) is type(wanted):
        return current == wanted
    for typed, text in ((current, wanted), (wanted, current)):
        if not isinstance(text, str):
            continue
        if isinstance(typed, bool):
            return text.strip().lower() == str(typed).lower()
        if isinstance(typed, int):
            try:
                return int(text.strip()) == typed
            except ValueError:
                return False
    return False


def _pending(bios):
    """The settings the BMC holds pending; {} when it shows none or its
    settings resource cannot be read."""
    try:
        pending = bios.pending_attributes
    except Exception:
        return {}
    return dict(pending) if isinstance(pending, dict) else {}


def _unapplied(bios, attributes):
    """Each requested setting not in force, as 'name=value (is X)': its
    current value differs, or a change of it is still pending (a pending
    value other than the current one: BMCs that list every setting as
    pending list the current values once applied). With no setting
    requested (a factory reset): every change still pending."""
    current = bios.attributes or {}
    pending = _pending(bios)
    # A pending entry for a setting the BMC does not show is no change
    # it will make (some list more in their settings resource).
    queued = {name for name, value in pending.items()
              if name in current and not _same(current[name], value)}
    names = set(attributes) if attributes else queued
    missing = []
    for name in sorted(names):
        wanted = attributes.get(name, pending.get(name))
        if name in queued or not _same(current.get(name), wanted):
            missing.append('%s=%s (is %s)'
                           % (name, wanted, current.get(name)))
    return missing


def _reboot_then_poll(task, attributes, action):
    """Reboot so that the firmware applies what was asked; the step then
    goes on outside the conductor (a real BMC shows new settings only
    once the firmware has run them, after its power-on self test), and
    poll_step reads the BIOS until ``attributes`` are in force, for at
    most APPLY_TIMEOUT seconds."""
    redfish_utils.reboot_to_apply(task)
    deadline = timeutils.utcnow() + datetime.timedelta(
        seconds=APPLY_TIMEOUT)
    return base.Polling({'attributes': attributes, 'action': action,
                         'deadline': deadline.isoformat()})


def _parse_time(text):
    """The naive UTC datetime of ``text`` (an isoformat); a missing or
    unreadable one is already past (the step is checked once more)."""
    try:
        return datetime.datetime.fromisoformat(text).replace(tzinfo=None)
    except (TypeError, ValueError):
        return datetime.datetime.min


def _apply_time(bios):
    try:
        times = bios.supported_apply_times or []
    except Exception:
        return None
    return (sushy.APPLY_TIME_ON_RESET if sushy.APPLY_TIME_ON_RESET in times
            else None)


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
