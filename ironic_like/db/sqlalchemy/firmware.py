"""Database access for nodes' firmware components (Ironic API 1.86),
mixed into Connection: what the node's firmware interface last read, one
row per component, kept with the version first read.
"""

import sqlalchemy as sa

from ironic_like.db.sqlalchemy import models

_F = models.FirmwareComponent
# What a component may say of its hardware (API 1.114).
HARDWARE_FIELDS = ('vendor', 'model', 'serial_number')


def _sa_api():
    # Imported lazily: api.py imports this module to build Connection.
    from ironic_like.db.sqlalchemy import api
    return api


def destroy_node_rows(session, node_id):
    session.execute(sa.delete(_F).where(_F.node_id == node_id))


class FirmwareMixin(object):

    def sync_firmware_components(self, node_id, components):
        """Record ``components`` ([{'component', 'current_version'[,
        'vendor', 'model', 'serial_number']}]) as read now, in one
        transaction: a new component starts with its version as
        initial_version; a known one gets its current_version (and
        last_version_flashed) updated; components no longer reported are
        kept (a BMC may fail to report one for a while)."""
        with _sa_api()._writer() as session:
            known = {row.component: row for row in session.scalars(
                sa.select(_F).where(_F.node_id == node_id))}
            for found in components:
                name, version = found['component'], found['current_version']
                row = known.get(name)
                if row is None:
                    row = _F()
                    row.update({'node_id': node_id, 'component': name,
                                'initial_version': version,
                                'current_version': version})
                    session.add(row)
                elif row.current_version != version:
                    # As Ironic: the version a change brought is the
                    # last one flashed.
                    row.current_version = version
                    row.last_version_flashed = version
                # API 1.114: the hardware, as last reported.
                for key in HARDWARE_FIELDS:
                    if getattr(row, key) != found.get(key):
                        setattr(row, key, found.get(key))

    def get_firmware_components(self, node_id):
        """The node's firmware components, by name."""
        with _sa_api()._reader() as session:
            return list(session.scalars(
                sa.select(_F).where(_F.node_id == node_id)
                .order_by(_F.component)))
