"""The node flows' shapes: what each flow needs from its store and the
names of its atoms, which are a persisted schema (a resumed flow finds
its progress by them)."""

from ironic_like.conductor.flows import allocation
from ironic_like.conductor.flows import clean
from ironic_like.conductor.flows import deploy
from ironic_like.conductor.flows import persistence
from ironic_like.tests import base

NODE_FLOWS = {
    deploy.BOOT_RAMDISK: [
        'deploy-fail-on-revert', 'deploy-validate',
        'deploy-run-steps-before-ramdisk', 'deploy-prepare-ramdisk',
        'deploy-power-on', 'deploy-await-agent'],
    deploy.WRITE_IMAGE: [
        'deploy-fail-on-revert', 'deploy-run-steps-before-image',
        'deploy-discover-accelerators', 'deploy-start-image-write',
        'deploy-await-image'],
    deploy.FINISH: [
        'deploy-fail-on-revert', 'deploy-run-steps',
        'deploy-boot-from-disk', 'deploy-run-steps-before-tear-down',
        'deploy-tear-down-agent', 'deploy-run-steps-before-instance',
        'deploy-reboot-to-instance', 'deploy-run-steps-after-instance',
        'deploy-done'],
    clean.TEARDOWN: [
        'teardown-fail-on-revert', 'teardown-power-off',
        'teardown-release-instance'],
    clean.BOOT_RAMDISK: [
        'clean-fail-on-revert', 'clean-prepare-ramdisk', 'clean-power-on',
        'clean-await-agent'],
    clean.START_STEPS: ['clean-fail-on-revert', 'clean-accelerators',
                        'clean-get-steps'],
    clean.NEXT_STEP: [
        'clean-fail-on-revert', 'clean-execute-step', 'clean-await-step'],
    clean.FINISH: [
        'clean-fail-on-revert', 'clean-power-off', 'clean-done'],
}


class TestNodeFlowShapes(base.TestCase):

    def _flow(self, name):
        return persistence._FACTORIES[name]()

    def test_atom_names_are_fixed(self):
        for name, atoms in NODE_FLOWS.items():
            self.assertEqual(atoms, [a.name for a in self._flow(name)],
                             name)

    def test_tasks_need_only_the_node_task(self):
        # Everything else a task needs it reads through the NodeTask (the
        # node under its lock): a task can run under any runner that
        # injects one.
        for name in NODE_FLOWS:
            self.assertEqual({persistence.NODE_TASK},
                             set(self._flow(name).requires), name)
            self.assertEqual(set(), set(self._flow(name).provides), name)


class TestAllocationFlowShape(base.TestCase):

    def test_requires_and_provides(self):
        flow = allocation.get_flow()
        self.assertEqual(
            [allocation.MARK_ERROR_ON_REVERT, allocation.FIND_CANDIDATES,
             allocation.RESERVE_NODE], [a.name for a in flow])
        self.assertEqual({allocation.ALLOCATION_IDS, allocation.CONDUCTOR},
                         set(flow.requires))
        self.assertEqual({allocation.REQUESTS, allocation.CANDIDATES,
                          allocation.NODE_UUIDS}, set(flow.provides))
