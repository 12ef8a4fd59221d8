"""Indicators (LEDs) of a node's hardware components (Ironic API 1.63):
their states and the checks every management interface applies."""

from ironic_like.common import exception

ON = 'ON'
OFF = 'OFF'
BLINKING = 'BLINKING'
UNKNOWN = 'UNKNOWN'
STATES = (ON, OFF, BLINKING, UNKNOWN)

# The hardware components Ironic names.
SYSTEM = 'system'
CHASSIS = 'chassis'
DISK = 'disk'
DRIVE = 'drive'


def split_name(unique_name):
    """'<indicator>@<component>' -> (component, indicator); 400 when
    malformed, as Ironic answers."""
    indicator, sep, component = (unique_name or '').rpartition('@')
    if not sep or not indicator or not component:
        raise exception.InvalidParameterValue(
            err='Malformed indicator name "%s"' % unique_name,
            field='indicator')
    return component, indicator


def check(supported, component, indicator, state=None):
    """Refuse (400) a component or indicator ``supported`` does not list,
    or a state it cannot take (or any state, when read-only)."""
    if component not in supported:
        raise exception.InvalidParameterValue(
            err='Invalid component %s specified.' % component,
            field='indicator')
    found = supported[component].get(indicator)
    if found is None:
        raise exception.InvalidParameterValue(
            err='Invalid indicator %s specified.' % indicator,
            field='indicator')
    if state is None:
        return
    if found.get('readonly', True):
        raise exception.InvalidParameterValue(
            err='Indicator %s@%s is read-only.' % (indicator, component),
            field='state')
    if state not in found.get('states', ()):
        raise exception.InvalidParameterValue(
            err='Invalid state %s specified for indicator %s@%s; it takes '
                '%s.' % (state, indicator, component,
                         ', '.join(found.get('states', ()))),
            field='state')
