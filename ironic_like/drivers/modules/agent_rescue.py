"""The ``agent`` rescue interface (Ironic's AgentRescue): the node leaves
its instance for a rescue ramdisk whose agent sets the rescue password
(``rescue.finalize_rescue``), and "unrescue" boots the instance again.

As with the agent deploy, the conductor runs the work as node flows
(conductor/flows/rescue.py, started by conductor/rescue.py): they are
persisted so that another conductor resumes them, which is why they live
with the conductor and not here. The interface says whether a node can be
rescued this way, which ramdisk it boots, and cleans up after it.
"""

from oslo_log import log

from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.drivers import base

LOG = log.getLogger(__name__)

# instance_info keys: the password the user asked for, until the agent
# has set it, and the sha512-crypt hash the agent is sent.
PASSWORD = 'rescue_password'
HASHED_PASSWORD = 'hashed_rescue_password'

_IMAGE_FIELDS = ('rescue_kernel', 'rescue_ramdisk')


def rescue_images(node):
    """(kernel, ramdisk) URLs of the node's rescue ramdisk: driver_info,
    else [conductor]; raise naming the missing or bad field."""
    info = node.driver_info or {}
    images = []
    for field in _IMAGE_FIELDS:
        value = info.get(field) or getattr(CONF.conductor, field)
        if not value:
            raise exception.MissingParameterValue(
                err='Node %s: %s is set neither in driver_info nor in '
                    '[conductor]%s; the agent rescue needs it.'
                    % (node.uuid, field, field), field=field)
        # Whitespace would split the URL on the kernel command line.
        if not isinstance(value, str) or len(value.split()) != 1:
            raise exception.InvalidParameterValue(
                err='Node %s: %s must be a URL without spaces, not %r.'
                    % (node.uuid, field, value), field=field)
        images.append(value)
    return tuple(images)


def without_passwords(instance_info, keep_hash=False):
    """``instance_info`` without the rescue password (and its hash unless
    ``keep_hash``); the same dict when there is nothing to drop."""
    keys = (PASSWORD,) if keep_hash else (PASSWORD, HASHED_PASSWORD)
    info = instance_info or {}
    if not any(key in info for key in keys):
        return info
    return {k: v for k, v in info.items() if k not in keys}


class AgentRescue(base.RescueInterface):
    """Rescue through the agent of a rescue ramdisk."""

    # Read by the conductor: the work runs as its rescue flows.
    runs_flows = True

    def get_properties(self):
        return {
            'rescue_kernel': 'URL of the rescue ramdisk\'s kernel, or '
                             'its Glance image ID (ipxe boot); defaults '
                             'to [conductor]rescue_kernel. Required '
                             'unless that is set.',
            'rescue_ramdisk': 'URL of the rescue ramdisk, or its Glance '
                              'image ID (ipxe boot); defaults to '
                              '[conductor]rescue_ramdisk. Required unless '
                              'that is set.',
        }

    def validate(self, task):
        # The node must be able to boot the rescue ramdisk: power, boot,
        # and the ramdisk's images.
        task.driver.power.validate(task)
        task.driver.boot.validate(task)
        rescue_images(task.node)

    def rescue(self, task):
        # Never called: the conductor runs the rescue flows instead (a
        # call here would hold a thread for the whole wait for the agent).
        raise NotImplementedError('the conductor runs the agent rescue as '
                                  'its rescue flows')

    def unrescue(self, task):
        raise NotImplementedError('the conductor runs the agent unrescue '
                                  'as its rescue flows')

    def clean_up(self, task):
        """Forget the rescue password and the rescue ramdisk's boot
        configuration (after a failed or aborted rescue, an unrescue,
        a tear-down)."""
        info = task.node.instance_info or {}
        cleaned = without_passwords(info)
        if cleaned is not info:
            task.update_node({'instance_info': cleaned})
        try:
            task.driver.boot.clean_up_ramdisk(task)
        except Exception as e:
            LOG.warning('Node %s: removing its rescue boot configuration '
                        'failed: %s', task.node.uuid, e)
