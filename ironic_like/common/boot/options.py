"""Boot service options: BOS v2's names, defaults and legal values.

Ranges and patterns are those of BOS 2.50's API schema, with two
differences: ``default_retry_policy`` also accepts -1 (BOS's operators
already read -1 as "retry forever", its schema just never let it in), and
``logging_level`` is stored upper case. ``disable_components_on_completion``
is kept (BOS removed it in 2.48.0, always disabling) with its old default,
true. ``session_max_concurrent_power_on`` is ours: the most nodes of one
session that may be powering on at the same time, 0 for no cap.
"""

import re

DEFAULTS = {
    'bss_read_timeout': 20,
    'cfs_read_timeout': 20,
    'cleanup_completed_session_ttl': '7d',
    'clear_stage': False,
    'component_actual_state_ttl': '4h',
    'default_retry_policy': 3,
    'disable_components_on_completion': True,
    'discovery_frequency': 300,
    'hsm_read_timeout': 20,
    'ims_errors_fatal': False,
    'ims_images_must_exist': False,
    'ims_read_timeout': 20,
    'logging_level': 'INFO',
    'max_boot_wait_time': 1200,
    'max_component_batch_size': 2800,
    'max_power_off_wait_time': 300,
    'max_power_on_wait_time': 120,
    'pcs_read_timeout': 20,
    'polling_frequency': 15,
    'reject_nids': False,
    'session_limit_required': False,
    'session_max_concurrent_power_on': 0,
}

LOGGING_LEVELS = ('DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL')

_TWELVE_DAYS = 1048576

# (minimum, maximum) of each integer option.
_INT_RANGES = {
    'bss_read_timeout': (10, 86400),
    'cfs_read_timeout': (10, 86400),
    'hsm_read_timeout': (10, 86400),
    'ims_read_timeout': (10, 86400),
    'pcs_read_timeout': (10, 86400),
    'default_retry_policy': (-1, _TWELVE_DAYS),
    'discovery_frequency': (0, 33554432),
    'max_boot_wait_time': (0, _TWELVE_DAYS),
    'max_component_batch_size': (0, 131071),
    'max_power_off_wait_time': (0, _TWELVE_DAYS),
    'max_power_on_wait_time': (0, _TWELVE_DAYS),
    'polling_frequency': (0, _TWELVE_DAYS),
    'session_max_concurrent_power_on': (0, _TWELVE_DAYS),
}

_BOOL_OPTIONS = frozenset(name for name, value in DEFAULTS.items()
                          if isinstance(value, bool))

SESSION_TTL_PATTERN = re.compile(r'^(0|0[mMhHdDwW]|[1-9][0-9]*[mMhHdDwW])$')
COMPONENT_TTL_PATTERN = re.compile(r'^[1-9][0-9]*[hHdDwW]$')
# BOS's maxLength for both TTLs; it also keeps the seconds finite.
_TTL_MAX_LENGTH = 8

_UNIT_SECONDS = {'m': 60, 'h': 3600, 'd': 86400, 'w': 604800}


class OptionError(ValueError):
    """An option name or value that is refused; ``field`` names it."""

    def __init__(self, field, message):
        super().__init__(message)
        self.field = field


def validate(patch):
    """The options of ``patch``, checked and normalised, as a new dict.

    Raises OptionError naming the first unknown option or illegal value.
    """
    if not isinstance(patch, dict):
        raise OptionError(None, 'options must be a JSON object, not %s'
                          % _type_name(patch))
    return {name: _validate_one(name, value)
            for name, value in patch.items()}


def _validate_one(name, value):
    if name not in DEFAULTS:
        raise OptionError(name, 'unknown option %r' % name)
    if name in _BOOL_OPTIONS:
        return _check_bool(name, value)
    if name in _INT_RANGES:
        return _check_int(name, value)
    if name == 'logging_level':
        return _check_logging_level(value)
    if name == 'cleanup_completed_session_ttl':
        return _check_ttl(name, value, SESSION_TTL_PATTERN,
                          'a duration such as "7d" (units m, h, d, w; '
                          '"0" disables)')
    return _check_ttl(name, value, COMPONENT_TTL_PATTERN,
                      'a duration of at least one hour such as "4h" '
                      '(units h, d, w)')


def _type_name(value):
    return 'null' if value is None else type(value).__name__


def _check_bool(name, value):
    # A string "false" is truthy in Python: take JSON booleans only.
    if not isinstance(value, bool):
        raise OptionError(name, 'option %s must be a boolean, not %s'
                          % (name, _type_name(value)))
    return value


def _check_int(name, value):
    # bool is a subclass of int; true is not a number of seconds.
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(name, 'option %s must be an integer, not %s'
                          % (name, _type_name(value)))
    low, high = _INT_RANGES[name]
    if not low <= value <= high:
        raise OptionError(name, 'option %s must be between %d and %d, not %d'
                          % (name, low, high, value))
    return value


def _check_logging_level(value):
    if not isinstance(value, str) or value.upper() not in LOGGING_LEVELS:
        raise OptionError('logging_level',
                          'option logging_level must be one of %s, not %r'
                          % (', '.join(LOGGING_LEVELS), value))
    return value.upper()


def _check_ttl(name, value, pattern, expected):
    if not isinstance(value, str):
        raise OptionError(name, 'option %s must be a string, %s; not %s'
                          % (name, expected, _type_name(value)))
    if len(value) > _TTL_MAX_LENGTH or not pattern.match(value):
        raise OptionError(name, 'option %s must be %s, not %r'
                          % (name, expected, value))
    return value


def effective(stored):
    """The options in force: DEFAULTS overlaid with the stored values.

    A stored value that is no longer legal (an older release accepted it,
    or the database was edited) is ignored and the default used, as BOS
    2.50 does for component_actual_state_ttl; so are unknown names.
    """
    result = dict(DEFAULTS)
    for name, value in (stored or {}).items():
        try:
            result[name] = _validate_one(name, value)
        except OptionError:
            continue
    return result


def _seconds(text):
    # Only "0" comes without a unit, and zero of anything is zero.
    if not text[-1].isalpha():
        return int(text)
    return int(text[:-1]) * _UNIT_SECONDS[text[-1].lower()]


def ttl_seconds(text):
    """Seconds of a cleanup_completed_session_ttl, None when disabled.

    None, "0" and "0<unit>" disable the cleanup of completed sessions.
    """
    if text is None:
        return None
    seconds = _seconds(_validate_one('cleanup_completed_session_ttl', text))
    return seconds or None


def component_ttl_seconds(text):
    """Seconds of a component_actual_state_ttl (at least 3600)."""
    return _seconds(_validate_one('component_actual_state_ttl', text))
