"""What a hardware type and its interfaces must provide.

A node's driver is a composition: one hardware type (which interfaces it
supports and which it uses by default) plus one implementation per
interface, each loaded by name through stevedore.
"""

import abc
import inspect

# The interface kinds a node has, in the order they are loaded.
INTERFACE_KINDS = ('power', 'management', 'deploy', 'boot', 'bios',
                   'console', 'firmware', 'inspect', 'network', 'raid',
                   'rescue', 'storage', 'vendor')
# The kinds chosen among [DEFAULT]enabled_<kind>_interfaces (with
# default_<kind>_interface), as in Ironic; the four above them are chosen
# among what the hardware type supports.
CONFIGURED_KINDS = ('bios', 'console', 'firmware', 'inspect', 'network',
                    'raid', 'rescue', 'storage', 'vendor')


def unsupported(task, kind):
    """The error of an operation the node's ``kind`` interface cannot do
    (Ironic's UnsupportedDriverExtension, 400)."""
    from ironic_like.common import exception
    return exception.UnsupportedDriverExtension(
        driver=task.node.driver, extension=kind)


# The kinds of work a step of an interface's may be marked for.
CLEAN = 'clean'
SERVICE = 'service'
DEPLOY = 'deploy'
_STEP_MARK = '_ironic_like_steps'


def clean_step(priority=0, argsinfo=None, requires_ramdisk=True):
    """Mark an interface method as an out-of-band clean step, as Ironic's
    decorator does: manual cleaning may ask for it by interface and
    method name, and the conductor runs it as ``method(task, **args)``.
    ``requires_ramdisk``: whether cleaning boots the ramdisk all the
    same (Ironic's default; False lets it run with disable_ramdisk)."""
    return _step_marker(CLEAN, priority, argsinfo, requires_ramdisk)


def service_step(priority=0, argsinfo=None, requires_ramdisk=True):
    """The same, as a service step (API 1.87)."""
    return _step_marker(SERVICE, priority, argsinfo, requires_ramdisk)


def deploy_step(priority=0, argsinfo=None):
    """Mark an interface method as an out-of-band deploy step, as
    Ironic's decorator does: a deploy template or a deploy request's
    deploy_steps may run it by interface and method name (its priority
    there says when); no other method of an interface's may be a deploy
    step. At priority 0 (the marks' default) it runs only when asked
    for."""
    return _step_marker(DEPLOY, priority, argsinfo, True)


def _step_marker(kind, priority, argsinfo, requires_ramdisk):
    def mark(method):
        marks = dict(getattr(method, _STEP_MARK, {}))
        marks[kind] = {'priority': priority, 'argsinfo': argsinfo or {},
                       'requires_ramdisk': requires_ramdisk}
        setattr(method, _STEP_MARK, marks)
        return method
    return mark


class Polling(object):
    """What a step method returns when it started work that goes on
    outside the conductor (a BMC's job, a reboot's effect), as Ironic's
    steps return the wait state: the conductor releases the node, which
    waits (clean wait, service wait, deploy wait), and polls
    ``interface.poll_step(task, step, state)`` from a periodic task,
    on whichever conductor owns the node then. ``state`` (JSON: it is
    kept in the node's driver_internal_info) is what the interface needs
    to carry on. poll_step returns None when the step is done, another
    Polling while it is not (its state replaces the one kept), or raises
    when it failed; it bounds the wait itself (a deadline in its state).
    The interface should not hold onto anything between two polls: the
    next one may run on another conductor. An interface that keeps
    something on the conductor meanwhile (a staged file) may offer
    ``abandon_step(task, step, state)``, called when the node is aborted
    while it waits."""

    def __init__(self, state):
        self.state = dict(state or {})

    def __repr__(self):
        return 'Polling(%r)' % (self.state,)


def is_polling(result):
    """Whether a step method's ``result`` asks to be polled."""
    return isinstance(result, Polling)


def _public_attributes(interface):
    """(name, attribute) of the public attributes of ``interface``'s
    class, read without calling properties (some are computed from these
    very marks)."""
    for name in dir(type(interface)):
        attr = inspect.getattr_static(type(interface), name, None)
        if not name.startswith('_') and not isinstance(attr, property):
            yield name, attr


def marked_steps(interface, kind):
    """{name: what it was marked with} of every ``kind`` step of
    ``interface`` (None: no interface)."""
    if interface is None:
        return {}
    return {name: getattr(attr, _STEP_MARK)[kind]
            for name, attr in _public_attributes(interface)
            if kind in getattr(attr, _STEP_MARK, {})}


def step_info(interface, name, kind):
    """What the ``kind`` step ``name`` of ``interface`` was marked with
    ({priority, argsinfo, requires_ramdisk}), or None when the interface
    has no such step."""
    if interface is None or name.startswith('_'):
        return None
    method = getattr(interface, name, None)
    marks = getattr(method, _STEP_MARK, None) if callable(method) else None
    # Only what the markers wrote (a mock's made-up attribute is none).
    return marks.get(kind) if isinstance(marks, dict) else None


class BaseInterface(metaclass=abc.ABCMeta):
    """One interface implementation. Instances are shared by all nodes."""

    def validate(self, task):
        """Raise InvalidParameterValue/MissingParameterValue if the node's
        driver_info does not suit this interface."""

    def get_properties(self):
        """{driver_info key: description} of the keys this interface
        reads (GET /v1/drivers/{name}/properties)."""
        return {}


class PowerInterface(BaseInterface):

    @abc.abstractmethod
    def get_power_state(self, task):
        """Return the node's real power state (states.POWER_ON/OFF)."""

    @abc.abstractmethod
    def set_power_state(self, task, power_state, timeout=None):
        """Turn the node on or off and return when it is."""

    @abc.abstractmethod
    def reboot(self, task, timeout=None):
        """Power cycle the node; it ends powered on."""

    def request_power_state(self, task, power_state):
        """Ask for ``power_state`` and return without waiting for it
        (boot sessions re-read the power state instead of holding a thread
        per node). Interfaces that can only wait do so."""
        self.set_power_state(task, power_state)

    def get_supported_power_states(self, task):
        from ironic_like.common import states
        return [states.POWER_ON, states.POWER_OFF, states.REBOOT]


class ManagementInterface(BaseInterface):

    @abc.abstractmethod
    def set_boot_device(self, task, device, persistent=False):
        """Make the node boot from ``device`` (disk, pxe, ...)."""

    @abc.abstractmethod
    def get_boot_device(self, task):
        """Return {'boot_device': ..., 'persistent': bool}."""

    def get_supported_boot_devices(self, task):
        """The boot devices set_boot_device() accepts."""
        return []

    def inject_nmi(self, task):
        """Send a non-maskable interrupt to the node (1.29)."""
        raise unsupported(task, 'inject_nmi')

    # Virtual media (1.89): device types as Ironic's VMEDIA_DEVICES.
    def attach_virtual_media(self, task, device_type, image_url):
        """Insert the image at ``image_url`` in the node's virtual
        ``device_type`` (cdrom, disk or floppy)."""
        raise unsupported(task, 'virtual media')

    def detach_virtual_media(self, task, device_types):
        """Eject the virtual media of ``device_types`` (all when None)."""
        raise unsupported(task, 'virtual media')

    def get_node_health(self, task):
        """The node's hardware health (API 1.109): one of
        common.health_states (OK, Warning, Critical) or None when the BMC
        does not say."""
        raise unsupported(task, 'get_node_health')

    def get_virtual_media(self, task):
        """The node's virtual media devices (1.93): a list of
        {'media_types': [Redfish media types], 'inserted': bool,
        'image': the inserted image's URL or ''}."""
        raise unsupported(task, 'virtual media')

    # Boot mode and secure boot (1.75, set from 1.76).
    def get_boot_mode(self, task):
        """'uefi' or 'bios' (None when unknown)."""
        raise unsupported(task, 'get_boot_mode')

    def set_boot_mode(self, task, mode):
        raise unsupported(task, 'set_boot_mode')

    def get_secure_boot_state(self, task):
        """True or False (None when unknown)."""
        raise unsupported(task, 'get_secure_boot_state')

    def set_secure_boot_state(self, task, state):
        raise unsupported(task, 'set_secure_boot_state')

    # Indicators (1.63): common/indicators.py has their states.
    def get_supported_indicators(self, task):
        """{component: {indicator: {'readonly': bool, 'states': [...]}}}."""
        raise unsupported(task, 'get_supported_indicators')

    def get_indicator_state(self, task, component, indicator):
        """One of common.indicators.STATES."""
        raise unsupported(task, 'get_indicator_state')

    def set_indicator_state(self, task, component, indicator, state):
        raise unsupported(task, 'set_indicator_state')


class DeployInterface(BaseInterface):

    @abc.abstractmethod
    def deploy(self, task):
        """Write the instance onto the node. Return None when done, or
        states.DEPLOYWAIT when the rest happens on a callback."""

    @abc.abstractmethod
    def tear_down(self, task):
        """Undo deploy(); the node ends powered off."""

    def clean(self, task, steps=None):
        """Run cleaning steps. Return None when done, or states.CLEANWAIT
        when the rest happens on a callback."""


class FlowDeployInterface(BaseInterface):
    """A deploy interface whose work the conductor runs as its node flows
    (conductor/flows/: one taskflow flow per phase, progress saved in the
    database, resumed by another conductor after a take-over) instead of
    calling methods here: deploy, tear-down, cleaning, the agent's
    heartbeats and aborts. The interface validates the node; the flows do
    the work through the node's boot and power interfaces and the agent
    client."""


def runs_flows(deploy_interface):
    """Whether the conductor runs ``deploy_interface``'s work as node
    flows (a FlowDeployInterface) rather than calling its methods."""
    return isinstance(deploy_interface, FlowDeployInterface)


def has_heartbeat_handler(deploy_interface):
    """Whether ``deploy_interface`` is not run as flows and has a
    ``heartbeat`` method of its own: the conductor calls it on every
    heartbeat, whatever the node's state."""
    return (not runs_flows(deploy_interface)
            and callable(getattr(deploy_interface, 'heartbeat', None)))


class BootInterface(BaseInterface):

    @abc.abstractmethod
    def prepare_ramdisk(self, task):
        """Make the node boot the deploy ramdisk."""

    @abc.abstractmethod
    def clean_up_ramdisk(self, task):
        """Undo prepare_ramdisk()."""

    def prepare_os_boot(self, task, kernel, initrd, kernel_parameters):
        """Make the node network-boot ``kernel`` and ``initrd`` with
        ``kernel_parameters`` from now on (a boot session's image: the
        role BSS plays for BOS)."""
        from ironic_like.common import exception
        raise exception.InvalidParameterValue(
            err='Boot interface %s of node %s cannot boot a kernel and '
                'initrd over the network.' % (
                    task.node.boot_interface, task.node.uuid),
            field='boot_interface')


# The optional kinds. Their base methods refuse with
# UnsupportedDriverExtension, which is all the no-op implementations
# (no-bios, no-console...) need; nothing here is abstract, so a kind's
# implementation overrides only what it can do.

class BIOSInterface(BaseInterface):

    def cache_bios_settings(self, task):
        """Read the node's BIOS settings into the bios_settings table, in
        place of those read before (what GET /v1/nodes/{id}/bios shows)."""
        settings = self.get_bios_settings(task)
        from ironic_like.db import api as db_api
        db_api.get_instance().replace_bios_settings(task.node.id, settings)

    def get_bios_settings(self, task):
        """{name: value} of the node's BIOS settings, as read now; or
        {name: {'value': value, <registry fields>}} with what the BIOS
        registry says of each (API 1.74; db.sqlalchemy.bios)."""
        raise unsupported(task, 'bios')


class FirmwareInterface(BaseInterface):
    """The versions of the node's firmware components (API 1.86)."""

    def get_components(self, task):
        """[{'component': name, 'current_version': version}] of the
        node's firmware, as read now (Ironic's components: "bios", "bmc").
        """
        raise unsupported(task, 'firmware')

    def cache_firmware_components(self, task):
        """Record the components read now in the firmware_information
        table (what GET /v1/nodes/{id}/firmware shows)."""
        components = self.get_components(task)
        from ironic_like.db import api as db_api
        db_api.get_instance().sync_firmware_components(task.node.id,
                                                       components)


class ConsoleInterface(BaseInterface):

    def start_console(self, task):
        raise unsupported(task, 'console')

    def stop_console(self, task):
        raise unsupported(task, 'console')

    def get_console(self, task):
        """{'type': ..., 'url': ...} of the running console."""
        raise unsupported(task, 'console')


class InspectedHardware(object):
    """What an out-of-band inspect interface read from the node's BMC,
    returned by its inspect_hardware() for the conductor to record as it
    records an agent's inventory (properties, ports, inspection rules,
    the inventory kept): conductor/inspection.py.

    ``inventory``: ironic-python-agent's inventory format, as far as the
    BMC tells (``interfaces`` without IP addresses, no ``boot``
    ``pxe_interface``); ``properties``: the node's properties with what
    inspection found (the whole new dict); ``plugin_data``: anything
    else, kept with the inventory.
    """

    def __init__(self, inventory, properties, plugin_data=None):
        self.inventory = inventory
        self.properties = properties
        self.plugin_data = dict(plugin_data or {})


class InspectInterface(BaseInterface):

    def inspect_hardware(self, task):
        """Inspect the node: return the provision state to go to (an
        interface that does the work itself), or an InspectedHardware
        (an out-of-band one: the conductor records it, the node ends
        "manageable")."""
        raise unsupported(task, 'inspect')


class NetworkInterface(BaseInterface):
    """Where the node's ports are plugged (VIFs come with later work)."""


class RAIDInterface(BaseInterface):

    def validate_raid_config(self, task, raid_config):
        """Raise InvalidParameterValue unless ``raid_config`` is a target
        RAID configuration this interface can build."""
        raise unsupported(task, 'raid')

    def get_logical_disk_properties(self):
        """{property: description} of a logical disk in a target RAID
        configuration."""
        return {}

    def create_configuration(self, task, **kwargs):
        raise unsupported(task, 'raid')

    def delete_configuration(self, task):
        raise unsupported(task, 'raid')


class RescueInterface(BaseInterface):

    def rescue(self, task):
        raise unsupported(task, 'rescue')

    def unrescue(self, task):
        raise unsupported(task, 'rescue')


class StorageInterface(BaseInterface):
    """Volumes the node boots from or attaches (volume targets come with
    later work)."""

    def should_write_image(self, task):
        return True


# Vendor passthru (API 1.0): a vendor interface's methods marked with
# passthru (on a node) or driver_passthru (on a hardware type, no node)
# are called through /v1/nodes/{id}/vendor_passthru?method=<name> and
# /v1/drivers/{name}/vendor_passthru?method=<name>.
PASSTHRU_HTTP_METHODS = ('GET', 'PUT', 'POST', 'PATCH', 'DELETE')
_PASSTHRU_MARK = '_ironic_like_passthru'
_DRIVER_PASSTHRU_MARK = '_ironic_like_driver_passthru'


def passthru(http_methods, method=None, async_call=True, description='',
             attach=False, require_exclusive_lock=True):
    """Mark a vendor interface method as a node vendor passthru method,
    as Ironic's decorator does: called as ``method(task, http_method=...,
    **body)``; ``method``: the name it is called by (default: its own);
    ``async_call``: the API answers 202 at once and the conductor runs it
    in a worker, holding the node's lock; else 200 with its return value
    (``attach``: as the raw response body). ``require_exclusive_lock``:
    False runs it under a shared lock."""
    return _passthru_marker(_PASSTHRU_MARK, http_methods, method, {
        'async': bool(async_call), 'description': description,
        'attach': bool(attach),
        'require_exclusive_lock': bool(require_exclusive_lock)})


def driver_passthru(http_methods, method=None, async_call=True,
                    description='', attach=False):
    """The same for a driver vendor passthru method, called as
    ``method(context, http_method=..., **body)`` (no node, no lock)."""
    return _passthru_marker(_DRIVER_PASSTHRU_MARK, http_methods, method, {
        'async': bool(async_call), 'description': description,
        'attach': bool(attach)})


def _passthru_marker(mark, http_methods, name, info):
    methods = [m.upper() for m in http_methods or ()]
    wrong = [m for m in methods if m not in PASSTHRU_HTTP_METHODS]
    if not methods or wrong:
        # A programming error of the interface, found at import time.
        raise ValueError('passthru HTTP methods must be among %s, not %s'
                         % (', '.join(PASSTHRU_HTTP_METHODS), http_methods))

    def mark_method(func):
        setattr(func, mark, dict(info, http_methods=methods,
                                 name=name or func.__name__))
        return func
    return mark_method


def _routes(interface, mark):
    routes = {}
    for attr_name, attr in _public_attributes(interface):
        info = getattr(attr, mark, None) if callable(attr) else None
        if info is not None:
            routes[info['name']] = dict(info,
                                        func=getattr(interface, attr_name))
    return routes


def routes_metadata(routes):
    """What GET .../vendor_passthru/methods shows of ``routes``: each
    method's marks without the function, as Ironic shows them."""
    return {name: {k: v for k, v in info.items()
                   if k not in ('func', 'name')}
            for name, info in routes.items()}


class VendorInterface(BaseInterface):
    """Vendor passthru methods of a node (``vendor_routes``) and of its
    hardware type (``driver_routes``): the methods marked with passthru
    and driver_passthru."""

    def validate(self, task, method=None, **kwargs):
        """Check a call of vendor ``method`` with ``kwargs`` (the request
        body), or the interface itself when ``method`` is None (node
        validation): InvalidParameterValue, MissingParameterValue."""

    def driver_validate(self, method, **kwargs):
        """Check a call of driver vendor ``method`` with ``kwargs``."""

    @property
    def vendor_routes(self):
        return _routes(self, _PASSTHRU_MARK)

    @property
    def driver_routes(self):
        return _routes(self, _DRIVER_PASSTHRU_MARK)


class HardwareType(metaclass=abc.ABCMeta):
    """Which interface implementations a kind of machine can use.

    ``supported_<kind>_interfaces`` lists names; the first is the default
    (for the CONFIGURED_KINDS: [DEFAULT]default_<kind>_interface when this
    type supports it, else the first enabled one).
    """

    supported_power_interfaces = ()
    supported_management_interfaces = ()
    supported_deploy_interfaces = ()
    supported_boot_interfaces = ()
    # The optional kinds: Ironic's no-op implementations unless a type
    # says otherwise.
    supported_bios_interfaces = ('no-bios',)
    supported_console_interfaces = ('no-console',)
    supported_firmware_interfaces = ('no-firmware',)
    supported_inspect_interfaces = ('no-inspect',)
    supported_network_interfaces = ('noop', 'flat')
    supported_raid_interfaces = ('no-raid',)
    supported_rescue_interfaces = ('no-rescue',)
    supported_storage_interfaces = ('noop',)
    supported_vendor_interfaces = ('no-vendor',)

    def supported(self, kind):
        return list(getattr(self, 'supported_%s_interfaces' % kind))

    def enabled(self, kind):
        """The supported interfaces of ``kind`` that a node may use: for
        the CONFIGURED_KINDS those [DEFAULT]enabled_<kind>_interfaces
        lists, in this type's order."""
        supported = self.supported(kind)
        if kind not in CONFIGURED_KINDS:
            return supported
        from ironic_like.conf import CONF
        enabled = set(getattr(CONF, 'enabled_%s_interfaces' % kind) or ())
        return [name for name in supported if name in enabled]

    def default(self, kind):
        enabled = self.enabled(kind)
        if kind in CONFIGURED_KINDS:
            from ironic_like.conf import CONF
            wanted = getattr(CONF, 'default_%s_interface' % kind)
            if wanted in enabled:
                return wanted
        return enabled[0] if enabled else None
