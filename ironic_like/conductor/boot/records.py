"""The API shapes of boot-session records (BOS v2's field names).

Operators and the API read components in the same shape, so the status
rules (common/boot/component_status.py) see what a client sees.
"""

from oslo_utils import timeutils


def isoformat(value):
    """ISO 8601 UTC time of a naive UTC datetime (or None)."""
    if value is None:
        return None
    return value.isoformat() + 'Z'


def parse_time(value):
    """Inverse of isoformat() (None stays None)."""
    if not value:
        return None
    return timeutils.normalize_time(timeutils.parse_isotime(value))


def component_id(node):
    """A component is named by its node's name, or UUID when unnamed."""
    return node.name or node.uuid


def component_dict(component, node):
    return {
        'id': component_id(node),
        'actual_state': dict(component.actual_state or {}),
        'desired_state': dict(component.desired_state or {}),
        'staged_state': dict(component.staged_state or {}),
        'last_action': dict(component.last_action or {}),
        'event_stats': dict(component.event_stats or {}),
        'status': {'phase': component.phase or '',
                   'status': component.status,
                   'status_override': component.status_override or ''},
        'enabled': bool(component.enabled),
        'error': component.error or '',
        'session': component.session or '',
        'retry_policy': component.retry_policy,
    }


def session_dict(boot_session):
    return {
        'name': boot_session.name,
        'tenant': boot_session.tenant,
        'operation': boot_session.operation,
        'template_name': boot_session.template_name,
        'limit': boot_session.limit or '',
        'stage': bool(boot_session.stage),
        'include_disabled': bool(boot_session.include_disabled),
        'components': ','.join(boot_session.components or []),
        'status': {'status': boot_session.status,
                   'start_time': isoformat(boot_session.start_time),
                   'end_time': isoformat(boot_session.end_time),
                   'error': boot_session.error},
    }


def template_dict(template):
    doc = {
        'name': template.name,
        'tenant': template.tenant,
        'enable_cfs': bool(template.enable_cfs),
        'cfs': dict(template.cfs or {}),
        'boot_sets': dict(template.boot_sets or {}),
    }
    if template.description:  # optional, and 1-1023 characters if set
        doc['description'] = template.description
    return doc
