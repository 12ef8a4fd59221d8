"""The role BSS plays for BOS: hand a node the kernel, initrd and kernel
parameters to boot, under a new referral token. The token goes on the
kernel command line; the booted OS's reporter sends it back, and the
boot-artifacts record keyed by it says what the node really booted."""

import uuid

from ironic_like.drivers.modules import ipxe

TOKEN_PARAM = 'bss_referral_token'
COMPONENT_PARAM = 'bos_component'
REPORT_URL_PARAM = 'bos_report_url'


def report_url(component_id):
    return '%s/v1/boot/components/%s/report' % (
        ipxe.api_url(), component_id)


def store_boot(task, artifacts, component_id):
    """Record the artifacts under a new token and write the node's boot
    configuration; return the token."""
    token = uuid.uuid4().hex
    params = artifacts.get('kernel_parameters') or ''
    task.db.add_boot_artifacts(token, task.node.id, artifacts.get('kernel'),
                               artifacts.get('initrd'), params)
    command_line = ' '.join(part for part in (
        params, '%s=%s' % (TOKEN_PARAM, token),
        '%s=%s' % (COMPONENT_PARAM, component_id),
        '%s=%s' % (REPORT_URL_PARAM, report_url(component_id))) if part)
    task.driver.boot.prepare_os_boot(task, artifacts.get('kernel'),
                                     artifacts.get('initrd'), command_line)
    return token
