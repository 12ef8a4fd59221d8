"""Database access for nodes' BIOS settings, mixed into Connection.

The settings are a cache of what the node's BIOS interface last read:
each read replaces the node's whole set in one transaction, so a reader
never sees half of an old set and half of a new one.
"""

import sqlalchemy as sa

from ironic_like.common import bios_registry
from ironic_like.common import exception
from ironic_like.db.sqlalchemy import models


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def destroy_node_rows(session, node_id):
    session.execute(sa.delete(models.BIOSSetting).where(
        models.BIOSSetting.node_id == node_id))


class BIOSMixin(object):

    def replace_bios_settings(self, node_id, settings):
        """Make ``settings`` the node's BIOS settings: {name: value}, or
        {name: {'value': ..., <bios_registry.FIELDS>...}} when the BIOS
        interface also read the setting's registry entry (API 1.74)."""
        with _sa_api()._writer() as session:
            destroy_node_rows(session, node_id)
            for name in sorted(settings):
                found = settings[name]
                values = {'node_id': node_id, 'name': name}
                if isinstance(found, dict):
                    values['value'] = found.get('value')
                    values.update({key: found[key] for key in
                                   bios_registry.FIELDS if key in found})
                else:
                    values['value'] = found
                setting = models.BIOSSetting()
                setting.update(values)
                session.add(setting)

    def get_bios_settings(self, node_id):
        """The node's BIOS settings, by name."""
        with _sa_api()._reader() as session:
            return list(session.scalars(
                sa.select(models.BIOSSetting)
                .where(models.BIOSSetting.node_id == node_id)
                .order_by(models.BIOSSetting.name)))

    def get_bios_setting(self, node_id, name, node_ident=None):
        with _sa_api()._reader() as session:
            setting = session.scalars(
                sa.select(models.BIOSSetting).where(
                    models.BIOSSetting.node_id == node_id,
                    models.BIOSSetting.name == name)).first()
        if setting is None:
            raise exception.BIOSSettingNotFound(
                node=node_ident or node_id, name=name)
        return setting
