"""What the /v1/boot API tests share: nodes labelled as BOS's inventory
(group.<G>, role, subrole, cpu_arch), a template, and the wake-up of the
boot operators mocked (the only RPC these endpoints make)."""

import copy

import fixtures

from ironic_like.conductor import rpcapi
from ironic_like.tests.unit.api import base

KERNEL = 'https://images.example.com/compute/vmlinuz'
INITRD = 'https://images.example.com/compute/initrd.img'

BOOT_SET = {'kernel': KERNEL, 'initrd': INITRD,
            'kernel_parameters': 'console=ttyS0',
            'node_groups': ['compute']}


def template_body(**boot_set):
    """A valid template with one boot set, "compute"."""
    return {'description': 'compute nodes', 'enable_cfs': False,
            'boot_sets': {'compute': dict(copy.deepcopy(BOOT_SET),
                                          **boot_set)}}


class BootAPITestCase(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.wake = self.useFixture(fixtures.MockPatchObject(
            rpcapi.ConductorAPI, 'wake_boot_operators')).mock

    def boot_node(self, name, groups=(), role=None, subrole=None,
                  cpu_arch='x86_64', **values):
        labels = {'group.%s' % g: '' for g in groups}
        if role:
            labels['role'] = role
        if subrole:
            labels['subrole'] = subrole
        properties = {'cpu_arch': cpu_arch} if cpu_arch else {}
        return self.create_node(name=name, labels=labels,
                                properties=properties, **values)

    def put_template(self, name='compute', body=None, status=200, **kw):
        return self.put('/v1/boot/sessiontemplates/%s' % name,
                        body or template_body(), status=status, **kw)

    def create_session(self, status=201, **body):
        body.setdefault('operation', 'boot')
        body.setdefault('template_name', 'compute')
        return self.post('/v1/boot/sessions', body, status=status)

    def assert_field(self, response, status, field, *fragments):
        """An error naming ``field`` (Ironic's "Invalid input for
        field/attribute <field>." prefix)."""
        return self.assertFault(
            response, status,
            'Invalid input for field/attribute %s.' % field, *fragments)
