"""Exceptions that cross the RPC boundary and map onto HTTP codes.

This module is listed in oslo.messaging's allowed_remote_exmods, so a
conductor's error arrives in the API as the same class (see DEPENDENCY-NOTES:
a real broker otherwise turns everything into RemoteError).
"""

import http.client as http_client


class IronicLikeException(Exception):
    """Base class: ``msg_fmt`` is formatted with the keyword arguments."""

    msg_fmt = 'An unknown exception occurred.'
    code = http_client.INTERNAL_SERVER_ERROR
    # Name of the request field at fault, if any; shown in the API error.
    field = None

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        if 'field' in kwargs:
            self.field = kwargs['field']
        if 'code' in kwargs:
            self.code = kwargs['code']
        if not message:
            try:
                message = self.msg_fmt % kwargs
            except (KeyError, TypeError):
                message = self.msg_fmt
        super().__init__(message)

    def __str__(self):
        return str(self.args[0]) if self.args else self.msg_fmt


# 400
class Invalid(IronicLikeException):
    msg_fmt = 'Unacceptable parameters.'
    code = http_client.BAD_REQUEST


class InvalidParameterValue(Invalid):
    msg_fmt = '%(err)s'


class MissingParameterValue(InvalidParameterValue):
    msg_fmt = '%(err)s'


class InvalidUUID(Invalid):
    msg_fmt = 'Expected a UUID but received %(uuid)s.'


class InvalidUuidOrName(Invalid):
    msg_fmt = 'Expected a logical name or UUID but received %(name)s.'


class InvalidMAC(Invalid):
    msg_fmt = 'Expected a MAC address but received %(mac)s.'


class PatchError(Invalid):
    msg_fmt = "Couldn't apply patch '%(patch)s'. Reason: %(reason)s"


class NodeIsRetired(Invalid):
    msg_fmt = ('The %(op)s operation can\'t be performed on node '
               '%(node)s because it is retired.')


class InvalidStateRequested(Invalid):
    msg_fmt = ('The requested action "%(action)s" can not be performed on '
               'node "%(node)s" while it is in state "%(state)s".')


class DriverNotFound(Invalid):
    # 400 on node create/update: the request names a driver nobody serves.
    msg_fmt = 'Could not find the following driver(s) or hardware type(s): ' \
              '%(driver_name)s.'


class InterfaceNotFoundInEntrypoint(Invalid):
    msg_fmt = ('Could not find the following interface in the '
               '"%(iface)s" entrypoint: %(name)s.')


class NoValidHost(Invalid):
    # Ironic answers 400 for a driver no live conductor serves; so do we.
    msg_fmt = 'No valid host was found. Reason: %(reason)s'


# 401 / 403
class NotAuthorized(IronicLikeException):
    msg_fmt = 'Not authorized.'
    code = http_client.FORBIDDEN


class HTTPForbidden(NotAuthorized):
    msg_fmt = 'Access was denied to the following resource: %(resource)s'


class NodeProtected(HTTPForbidden):
    # Ironic's text and code (403).
    msg_fmt = ('Node %(node)s is protected and cannot be undeployed, '
               'rebuilt or deleted')


class Unauthorized(IronicLikeException):
    msg_fmt = 'Authentication required.'
    code = http_client.UNAUTHORIZED


# 404
class NotFound(IronicLikeException):
    msg_fmt = 'Resource could not be found.'
    code = http_client.NOT_FOUND


class NodeNotFound(NotFound):
    msg_fmt = 'Node %(node)s could not be found.'


class PortNotFound(NotFound):
    msg_fmt = 'Port %(port)s could not be found.'


class NodeTraitNotFound(NotFound):
    msg_fmt = 'Node %(node_id)s doesn\'t have a trait %(trait)s'


class ConductorNotFound(NotFound):
    msg_fmt = 'Conductor %(conductor)s could not be found.'


# 405
class MethodNotAllowed(IronicLikeException):
    msg_fmt = 'The method is not allowed for this resource.'
    code = http_client.METHOD_NOT_ALLOWED


# 406
class NotAcceptable(IronicLikeException):
    msg_fmt = 'Request not acceptable.'
    code = http_client.NOT_ACCEPTABLE


# 409
class Conflict(IronicLikeException):
    msg_fmt = 'Conflict.'
    code = http_client.CONFLICT


class NodeLocked(Conflict):
    msg_fmt = ('Node %(node)s is locked by host %(host)s, please retry after '
               'the current operation is completed.')


class NodeLockLost(Conflict):
    msg_fmt = ('Node %(node)s is no longer locked by %(host)s (the lock is '
               'now %(holder)s): its work there stops and nothing more is '
               'written.')


class ConductorFenced(IronicLikeException):
    msg_fmt = ('Conductor %(host)s has not recorded a heartbeat for '
               '%(seconds)d seconds and may have been declared dead: it '
               'takes no new work until its heartbeat is recorded again.')
    code = http_client.SERVICE_UNAVAILABLE


class NodeAlreadyExists(Conflict):
    msg_fmt = 'A node with UUID %(uuid)s already exists.'


class DuplicateName(Conflict):
    msg_fmt = 'A node with name %(name)s already exists.'


class MACAlreadyExists(Conflict):
    msg_fmt = 'A port with MAC address %(mac)s already exists.'


class PortAlreadyExists(Conflict):
    msg_fmt = 'A port with UUID %(uuid)s already exists.'


class PortDuplicateName(Conflict):
    msg_fmt = 'A port with name %(name)s already exists.'


class InstanceAssociated(Conflict):
    msg_fmt = ('Instance %(instance_uuid)s is already associated with a '
               'node, it cannot be associated with this other node '
               '%(node)s')


class NodeAssociated(Conflict):
    msg_fmt = ('Node %(node)s is associated with instance '
               '%(instance)s.')


class InvalidState(Conflict):
    msg_fmt = 'Invalid resource state.'


# 500 / 503
class PowerStateFailure(IronicLikeException):
    msg_fmt = 'Failed to set node power state to %(pstate)s.'


class PowerOffDisabled(Conflict):
    # 409, as Ironic's PowerStateFailure (an InvalidState) answers.
    msg_fmt = ('Failed to set node power state to %(pstate)s: node '
               '%(node)s may not be powered off (disable_power_off).')


class ConductorUnavailable(IronicLikeException):
    msg_fmt = 'No conductor answered for node %(node)s: %(reason)s'
    code = http_client.SERVICE_UNAVAILABLE


class TemporaryFailure(IronicLikeException):
    msg_fmt = 'Resource temporarily unavailable, please retry.'
    code = http_client.SERVICE_UNAVAILABLE


class TooManyRequests(IronicLikeException):
    """429; the API answers with a Retry-After header of ``retry_after``
    seconds."""
    msg_fmt = 'Too many requests; retry in %(retry_after)s seconds.'
    code = http_client.TOO_MANY_REQUESTS

    @property
    def retry_after(self):
        return self.kwargs.get('retry_after')


class ConductorBusy(TemporaryFailure):
    msg_fmt = ('Conductor %(host)s is busy: all of its %(workers)d workers '
               'are in use. Retry in a few seconds.')


def safe_message(error):
    """The user-facing message of an error.

    An exception re-raised from a conductor over a real broker has the
    remote traceback appended to str(); the message proper is args[0].
    """
    if isinstance(error, IronicLikeException) and error.args:
        return str(error.args[0])
    return str(error)


class NodeInventoryNotFound(NotFound):
    # Ironic's text (API 1.81).
    msg_fmt = 'Node inventory record for node %(node)s could not be found.'


# Allocations.
class AllocationNotFound(NotFound):
    msg_fmt = 'Allocation %(allocation)s could not be found.'


class AllocationAlreadyExists(Conflict):
    msg_fmt = 'An allocation with UUID %(uuid)s already exists.'


class AllocationDuplicateName(Conflict):
    msg_fmt = 'An allocation with name %(name)s already exists.'


class NodeAlreadyAllocated(Conflict):
    msg_fmt = 'Node %(node)s already has an allocation %(allocation)s.'


class AllocationFailed(IronicLikeException):
    msg_fmt = 'Failed to process allocation %(uuid)s: %(error)s.'


class AllocationTakenOver(Conflict):
    msg_fmt = ('Allocation %(uuid)s is now handled by conductor '
               '%(conductor)s.')


class AgentTokenInvalid(Unauthorized):
    """A heartbeat without the node's agent token, or with another one."""
    msg_fmt = ('Invalid or missing agent token received for node '
               '%(node)s.')


# The agent deploy interface.
class AgentConnectionFailed(IronicLikeException):
    msg_fmt = 'Connection to the agent failed: %(reason)s'


class AgentCommandFailed(IronicLikeException):
    msg_fmt = 'Agent command %(command)s failed: %(error)s'


# Boot sessions.
class BootTemplateNotFound(NotFound):
    msg_fmt = 'Session template %(name)s could not be found.'


class BootSessionNotFound(NotFound):
    msg_fmt = 'Session %(name)s could not be found.'


class BootSessionExists(Conflict):
    msg_fmt = 'A session named %(name)s already exists.'


class BootComponentNotFound(NotFound):
    msg_fmt = 'Component %(id)s could not be found.'


class BootComponentChanged(Conflict):
    """A compare-and-swap write found the component changed meanwhile: a
    normal outcome when two writers race, never an error to log."""
    msg_fmt = 'Component %(id)s changed meanwhile.'


class BootSessionConflict(Conflict):
    msg_fmt = '%(reason)s'


# Host OS configuration.
class HostOSModuleNotFound(NotFound):
    msg_fmt = 'Module %(name)s version %(version)s could not be found.'


class HostOSModuleExists(Conflict):
    msg_fmt = 'Module %(name)s version %(version)s already exists.'


class HostOSModuleInUse(Conflict):
    msg_fmt = ('Module %(name)s version %(version)s is used by '
               'configuration(s) %(configurations)s: change or delete '
               'them first.')


class HostOSModuleUnusable(Conflict):
    msg_fmt = ('Module %(name)s version %(version)s is %(state)s, not '
               'available%(error)s.')


class HostOSConfigurationNotFound(NotFound):
    msg_fmt = 'Configuration %(name)s could not be found.'


class HostOSConfigurationExists(Conflict):
    msg_fmt = 'A configuration named %(name)s already exists.'


class HostOSConfigurationDeleting(Conflict):
    msg_fmt = ('Configuration %(name)s is being deleted; it cannot be '
               'changed.')


class HostOSAgentTokenInvalid(Unauthorized):
    msg_fmt = ('Invalid or missing host agent token for node %(node)s. '
               'A host agent that lost its token needs the operator to '
               'reset it (openstack baremetal hostos agent reset).')


# Accelerators.
class AcceleratorNotFound(NotFound):
    msg_fmt = 'Accelerator %(kind)s %(uuid)s could not be found.'


class NoFreeAcceleratorHandle(Conflict):
    msg_fmt = ('No free accelerator on node %(node)s matches the request '
               '%(request)s.')


class AcceleratorPlugInProgress(Conflict):
    msg_fmt = ('Accelerators of instance %(instance)s are being plugged by '
               'conductor %(conductor)s until %(deadline)s.')


class BitstreamSelectionError(Conflict):
    msg_fmt = '%(err)s'


class AcceleratorProgramFailed(IronicLikeException):
    msg_fmt = ('Programming %(image)s into %(deployable)s on node %(node)s '
               'failed: %(error)s')


class AgentUnavailable(IronicLikeException):
    msg_fmt = ('The agent of node %(node)s cannot be reached: %(reason)s')
    code = 503


class BitstreamNotFound(NotFound):
    msg_fmt = 'Bitstream image %(image)s could not be found%(detail)s.'

    def __init__(self, message=None, **kwargs):
        kwargs.setdefault('detail', '')
        super().__init__(message, **kwargs)


class ImageNotFound(NotFound):
    msg_fmt = 'Image %(image)s could not be found%(detail)s.'

    def __init__(self, message=None, **kwargs):
        kwargs.setdefault('detail', '')
        super().__init__(message, **kwargs)


class InsufficientDiskSpace(IronicLikeException):
    msg_fmt = ('Disk volume where \'%(path)s\' is located doesn\'t have '
               'enough disk space. Required %(required)d MiB, only '
               '%(actual)d MiB available space present.')


class ImageServiceUnavailable(IronicLikeException):
    msg_fmt = 'The image service %(service)s is unavailable: %(reason)s'
    code = http_client.SERVICE_UNAVAILABLE


# Port groups (Ironic's names, codes and texts).
class PortgroupNotFound(NotFound):
    msg_fmt = 'Portgroup %(portgroup)s could not be found.'


class PortgroupNotEmpty(Invalid):
    msg_fmt = ('Cannot complete the requested action because portgroup '
               '%(portgroup)s contains ports.')


class PortgroupAlreadyExists(Conflict):
    msg_fmt = 'A portgroup with UUID %(uuid)s already exists.'


class PortgroupMACAlreadyExists(Conflict):
    msg_fmt = 'A portgroup with MAC address %(mac)s already exists.'


class PortgroupDuplicateName(Conflict):
    msg_fmt = 'A portgroup with name %(name)s already exists.'


class PortgroupNodeMismatch(InvalidParameterValue):
    # A port and its group must be on the same node: a 400 naming the
    # field (portgroup_uuid) that asked for the impossible.
    msg_fmt = ('Port group %(portgroup)s is not on node %(node)s, the node '
               'of the port.')


# Chassis (Ironic's names, codes and texts).
class ChassisNotFound(NotFound):
    msg_fmt = 'Chassis %(chassis)s could not be found.'


class ChassisNotEmpty(Invalid):
    msg_fmt = ('Cannot complete the requested action because chassis '
               '%(chassis)s contains nodes.')


class ChassisAlreadyExists(Conflict):
    msg_fmt = 'A chassis with UUID %(uuid)s already exists.'


# Deploy templates (Ironic's names, codes and texts).
class DeployTemplateNotFound(NotFound):
    msg_fmt = 'Deploy template %(template)s could not be found.'


class DeployTemplateAlreadyExists(Conflict):
    msg_fmt = 'A deploy template with UUID %(uuid)s already exists.'


class DeployTemplateDuplicateName(Conflict):
    msg_fmt = 'A deploy template with name %(name)s already exists.'


class HardwareInspectionFailure(IronicLikeException):
    # Ironic's name and text: an out-of-band inspection could not read
    # or use what the BMC reports.
    msg_fmt = 'Failed to inspect hardware. Reason: %(error)s'


class InspectionRulesFailed(IronicLikeException):
    # An inspection rule failed the inspection (its "fail" action, or an
    # operation that could not run): the message says which and why.
    msg_fmt = 'Inspection rules failed.'


class InspectionRuleNotFound(NotFound):
    msg_fmt = 'Inspection rule %(rule)s could not be found.'


class InspectionRuleAlreadyExists(Conflict):
    msg_fmt = 'An inspection rule with UUID %(uuid)s already exists.'


class RunbookNotFound(NotFound):
    msg_fmt = 'Runbook %(runbook)s could not be found.'


class RunbookAlreadyExists(Conflict):
    msg_fmt = 'A runbook with UUID %(uuid)s already exists.'


class RunbookDuplicateName(Conflict):
    msg_fmt = 'A runbook with name %(name)s already exists.'


# Optional node interfaces (Ironic's names, codes and texts).
class UnsupportedDriverExtension(Invalid):
    # 400: the node's interface of this kind is a no-op one (no-console,
    # no-raid...) or lacks the operation.
    msg_fmt = ('Driver %(driver)s does not support %(extension)s '
               '(disabled or not implemented).')


class NodeConsoleNotEnabled(Invalid):
    msg_fmt = 'Console access is not enabled on node %(node)s'


class BIOSSettingNotFound(NotFound):
    msg_fmt = "Node %(node)s doesn't have a BIOS setting '%(name)s'"


# VIFs (Ironic's messages, so that clients matching them keep working).
class VifAlreadyAttached(Conflict):
    msg_fmt = ('Unable to attach VIF because VIF %(vif)s is already '
               'attached to Ironic %(object_type)s %(object_uuid)s')


class NoFreePhysicalPorts(Invalid):
    msg_fmt = 'Unable to attach VIF %(vif)s, not enough free physical ports.'


class VifNotAttached(Invalid):
    msg_fmt = ('Unable to detach VIF %(vif)s from node %(node)s because it '
               'is not attached to it.')


# Volume connectors and targets (Ironic's names, codes and texts).
class VolumeConnectorNotFound(NotFound):
    msg_fmt = 'Volume connector %(connector)s could not be found.'


class VolumeTargetNotFound(NotFound):
    msg_fmt = 'Volume target %(target)s could not be found.'


class VolumeConnectorAlreadyExists(Conflict):
    msg_fmt = 'A volume connector with UUID %(uuid)s already exists.'


class VolumeConnectorTypeAndIdAlreadyExists(Conflict):
    msg_fmt = ('A volume connector with type %(type)s and connector ID '
               '%(connector_id)s already exists.')


class VolumeTargetAlreadyExists(Conflict):
    msg_fmt = 'A volume target with UUID %(uuid)s already exists.'


class VolumeTargetBootIndexAlreadyExists(Conflict):
    msg_fmt = ("A volume target with boot index '%(boot_index)s' for the "
               "same node already exists.")


class BIOSSettingsNotApplied(IronicLikeException):
    msg_fmt = ('Node %(node)s: the BMC did not apply these BIOS settings '
               'after the reboot: %(settings)s.')
