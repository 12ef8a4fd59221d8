"""Fake interfaces: they change nothing real but keep state on the node.

The fake power interface remembers the power state in the node's
driver_internal_info and records which conductor acted last, so tests can
prove that the owning conductor executed an action.
"""

from ironic_like.common import exception
from ironic_like.common import states
from ironic_like.conf import CONF
from ironic_like.drivers import base

FAKE_POWER_KEY = 'fake_power_state'
LAST_CONDUCTOR_KEY = 'fake_last_power_conductor'


class FakePower(base.PowerInterface):

    def get_power_state(self, task):
        info = task.node.driver_internal_info or {}
        return info.get(FAKE_POWER_KEY, task.node.power_state or
                        states.POWER_OFF)

    def _record(self, task, power_state):
        info = dict(task.node.driver_internal_info or {})
        info[FAKE_POWER_KEY] = power_state
        info[LAST_CONDUCTOR_KEY] = CONF.host
        task.update_node({'driver_internal_info': info})

    def set_power_state(self, task, power_state, timeout=None):
        if power_state not in (states.POWER_ON, states.POWER_OFF):
            raise exception.InvalidParameterValue(
                err='Fake power cannot set power state "%s".' % power_state,
                field='target')
        self._record(task, power_state)

    def reboot(self, task, timeout=None):
        self._record(task, states.POWER_ON)

    def request_power_state(self, task, power_state):
        # Nothing runs on a fake machine to shut down gracefully.
        if power_state == states.SOFT_POWER_OFF:
            power_state = states.POWER_OFF
        self.set_power_state(task, power_state)


class FakeManagement(base.ManagementInterface):
    KEY = 'fake_boot_device'

    def set_boot_device(self, task, device, persistent=False):
        info = dict(task.node.driver_internal_info or {})
        info[self.KEY] = {'boot_device': device, 'persistent': persistent}
        task.update_node({'driver_internal_info': info})

    def get_boot_device(self, task):
        info = task.node.driver_internal_info or {}
        return info.get(self.KEY, {'boot_device': 'disk',
                                   'persistent': True})


class FakeDeploy(base.DeployInterface):

    def deploy(self, task):
        return None

    def tear_down(self, task):
        return None

    def clean(self, task, steps=None):
        return None


class FakeBoot(base.BootInterface):
    KEY = 'fake_os_boot'

    def prepare_ramdisk(self, task):
        return None

    def prepare_os_boot(self, task, kernel, initrd, kernel_parameters):
        info = dict(task.node.driver_internal_info or {})
        info[self.KEY] = {'kernel': kernel, 'initrd': initrd,
                          'kernel_parameters': kernel_parameters}
        task.update_node({'driver_internal_info': info})

    def clean_up_ramdisk(self, task):
        return None
