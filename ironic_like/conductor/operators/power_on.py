"""power-on: boot the desired artifacts on components that are
``power_on_pending``: a new referral token and boot configuration (the
BSS step), then the power-on request (not waited for: the status
operator sees the node come up). Capped per session (option
``session_max_concurrent_power_on``) and per fleet
([boot]max_concurrent_power_on) so a big reboot does not storm the BMCs."""

import threading

from ironic_like.common.boot import component_status as cs
from ironic_like.common import states
from ironic_like.conductor.boot import bss
from ironic_like.conductor.boot import records
from ironic_like.conductor import locks
from ironic_like.conductor.operators import base
from ironic_like.conf import CONF


class PowerOnOperator(base.NodeOperator):
    name = 'power_on'
    action = cs.POWERING_ON
    retry_field = 'power_on_attempts'

    def select(self, options, node_ids=None):
        return self.ctx.db.list_boot_components(
            {'enabled': True, 'status': [cs.POWER_ON_PENDING]})

    def run_once(self, options, node_ids=None):
        # How many more nodes may start booting this pass, in all and per
        # session (None: no cap).
        fleet_cap = CONF.boot.max_concurrent_power_on
        self._fleet_room = (fleet_cap - self.ctx.db.count_powering_on()
                            if fleet_cap else None)
        self._session_cap = options.get('session_max_concurrent_power_on')
        self._session_room = {}
        self._room_lock = threading.Lock()
        return super().run_once(options, node_ids)

    def _admitted(self, session_name):
        with self._room_lock:
            return self._take_room(session_name)

    def _take_room(self, session_name):
        if self._fleet_room is not None and self._fleet_room <= 0:
            return False
        if self._session_cap:
            if session_name not in self._session_room:
                self._session_room[session_name] = (
                    self._session_cap
                    - self.ctx.db.count_powering_on(session_name))
            if self._session_room[session_name] <= 0:
                return False
            self._session_room[session_name] -= 1
        if self._fleet_room is not None:
            self._fleet_room -= 1
        return True

    def act(self, component, node, options):
        if not self._admitted(component.session):
            return False
        artifacts = (component.desired_state or {}).get('boot_artifacts')
        with locks.acquire(self.ctx.admin, node.id, purpose='boot session '
                           'power on', attempts=1) as task:
            component = self.preset_action(component)
            token = bss.store_boot(task, artifacts,
                                   records.component_id(node))
            desired = dict(component.desired_state or {})
            desired['bss_token'] = token
            self.ctx.db.update_boot_component(
                node.id, {'desired_state': desired})
            task.driver.power.request_power_state(task, states.POWER_ON)
        return True

    def after_work(self, node_ids):
        self.ctx.wake('status', node_ids=node_ids)
