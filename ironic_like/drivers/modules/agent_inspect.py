"""The ``agent`` inspect interface: in-band inspection by the deploy
ramdisk's agent, which reports the machine's inventory
(``poll.get_hardware_info``).

As with the agent deploy, the conductor runs the work as node flows
(conductor/flows/inspect.py, started by conductor/inspection.py): they
are persisted so that another conductor resumes them, which is why they
live with the conductor and not here. The interface says whether a node
can be inspected this way.
"""

from ironic_like.drivers import base


class AgentInspect(base.InspectInterface):
    """Inspection through the agent of the deploy ramdisk."""

    # Read by the conductor: the work runs as its inspection flows.
    runs_flows = True

    def get_properties(self):
        # The ramdisk boots through the boot interface, whose driver_info
        # it is; inspection adds none of its own.
        return {}

    def validate(self, task):
        # The node must be able to boot the ramdisk: power and boot.
        task.driver.power.validate(task)
        task.driver.boot.validate(task)
