"""Conductors in the API (microversion 1.49 and later)."""

import datetime
import operator

from oslo_utils import timeutils

from ironic_like.api import versions as v
from ironic_like.api.views import base


def is_alive(conductor, timeout):
    """Online and heartbeating within ``timeout`` seconds."""
    if not conductor.online or conductor.updated_at is None:
        return False
    horizon = timeutils.utcnow() - datetime.timedelta(seconds=timeout)
    return conductor.updated_at >= horizon


def _alive_make(ctx):
    timeout = ctx.heartbeat_timeout
    return lambda conductor: is_alive(conductor, timeout)


def _drivers_make(ctx):
    get = operator.attrgetter('hardware_types')
    return lambda conductor: sorted(get(conductor) or [])


FIELDS = base.registry(
    base.column('hostname', v.CONDUCTORS),
    base.column('conductor_group', v.CONDUCTORS),
    base.Field('alive', v.CONDUCTORS, ['online', 'updated_at'],
               _alive_make),
    base.Field('drivers', v.CONDUCTORS, ['hardware_types'], _drivers_make),
    base.datetime_column('created_at', v.CONDUCTORS),
    base.datetime_column('updated_at', v.CONDUCTORS),
    base.links_field('conductors', 'hostname'),
)

SHORT = ['hostname', 'conductor_group', 'alive', 'links']


def view(version, base_url, heartbeat_timeout, fields=None, detail=True):
    names = base.select(FIELDS, version, fields, None if detail else SHORT)
    ctx = base.ViewContext(base_url, heartbeat_timeout=heartbeat_timeout)
    return base.View(FIELDS, names, ctx)
