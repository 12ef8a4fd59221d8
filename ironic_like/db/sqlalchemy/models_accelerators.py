"""Accelerator models (seed 002, after Cyborg): inventories, devices,
deployables, attach handles, attachments and the traits they give
nodes. Kept apart from models.py (one concern each); models.py re-exports
them, so ``models.AcceleratorDevice`` and the metadata are unchanged."""

from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa

from ironic_like.db.sqlalchemy.models import _table_args
from ironic_like.db.sqlalchemy.models import Base


class AcceleratorInventory(Base):
    """The last accelerator inventory taken from a node's agent: its
    digest (an unchanged inventory writes nothing) and the discovery
    state os_acc.initialize() waits on."""
    __tablename__ = 'accelerator_inventories'
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        primary_key=True, nullable=False)
    digest = sa.Column(sa.String(64), nullable=True)
    state = sa.Column(sa.String(16), nullable=False)
    error = sa.Column(sa.Text, nullable=True)
    reported_at = sa.Column(sa.DateTime, nullable=True)


class AcceleratorDevice(Base):
    """One accelerator card of a node, known by its PF's PCI address."""
    __tablename__ = 'accelerator_devices'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_accelerator_devices0uuid'),
        sa.UniqueConstraint('node_id', 'pci_address',
                            name='uniq_accelerator_devices0node0address'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    type = sa.Column(sa.String(32), nullable=False)
    vendor_id = sa.Column(sa.String(8), nullable=False)
    product_id = sa.Column(sa.String(8), nullable=False)
    vendor_name = sa.Column(sa.String(255), nullable=True)
    model = sa.Column(sa.String(255), nullable=True)
    vendor = sa.Column(sa.String(64), nullable=False)
    pci_address = sa.Column(sa.String(16), nullable=False)
    std_board_info = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True))
    digest = sa.Column(sa.String(64), nullable=False)
    status = sa.Column(sa.String(16), nullable=False)


class AcceleratorDeployable(Base):
    """A node of a device's tree: the device, a region, a function."""
    __tablename__ = 'accelerator_deployables'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_accelerator_deployables0uuid'),
        sa.Index('accelerator_deployables_device_idx', 'device_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    device_id = sa.Column(sa.Integer,
                          sa.ForeignKey('accelerator_devices.id'),
                          nullable=False)
    key = sa.Column(sa.String(64), nullable=False)
    parent_uuid = sa.Column(sa.String(36), nullable=True)
    root_uuid = sa.Column(sa.String(36), nullable=True)
    kind = sa.Column(sa.String(16), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    num_accelerators = sa.Column(sa.Integer, nullable=False, default=0)
    driver_name = sa.Column(sa.String(64), nullable=False)
    resource_class = sa.Column(sa.String(255), nullable=False)
    region_type_uuid = sa.Column(sa.String(36), nullable=True)
    partial_reconfiguration = sa.Column(sa.Boolean, nullable=True)
    function_uuid = sa.Column(sa.String(36), nullable=True)
    function_name = sa.Column(sa.String(255), nullable=True)
    bitstream_id = sa.Column(sa.String(255), nullable=True)
    needs_clean = sa.Column(sa.Boolean, nullable=False, default=False)


class AcceleratorAttachHandle(Base):
    """One exposed PCI function an instance can be given."""
    __tablename__ = 'accelerator_attach_handles'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid',
                            name='uniq_accelerator_attach_handles0uuid'),
        sa.UniqueConstraint('node_id', 'pci_address',
                            name='uniq_accelerator_handles0node0address'),
        sa.Index('accelerator_handles_deployable_idx', 'deployable_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    device_id = sa.Column(sa.Integer,
                          sa.ForeignKey('accelerator_devices.id'),
                          nullable=False)
    deployable_id = sa.Column(sa.Integer, nullable=False)
    pci_address = sa.Column(sa.String(16), nullable=False)
    attach_type = sa.Column(sa.String(16), nullable=False)
    attach_info = sa.Column(db_types.JsonEncodedDict)
    resource_class = sa.Column(sa.String(255), nullable=False)
    traits = sa.Column(db_types.JsonEncodedList)
    status = sa.Column(sa.String(16), nullable=False)
    in_use = sa.Column(sa.Boolean, nullable=False, default=False)
    attachment_id = sa.Column(sa.Integer, nullable=True)


class AcceleratorAttachment(Base):
    """One requested accelerator of an instance, on its way to (or in)
    an attach handle. Crash-safe: a conductor and a deadline."""
    __tablename__ = 'accelerator_attachments'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid',
                            name='uniq_accelerator_attachments0uuid'),
        sa.Index('accelerator_attachments_instance_idx', 'instance_uuid'),
        sa.Index('accelerator_attachments_node_state_idx', 'node_id',
                 'state'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    instance_uuid = sa.Column(sa.String(36), nullable=False)
    instance_name = sa.Column(sa.String(255), nullable=True)
    project_id = sa.Column(sa.String(255), nullable=True)
    request_index = sa.Column(sa.Integer, nullable=False)
    deployable_id = sa.Column(sa.Integer, nullable=True)
    attach_handle_id = sa.Column(sa.Integer, nullable=True)
    bitstream_id = sa.Column(sa.String(255), nullable=True)
    state = sa.Column(sa.String(16), nullable=False)
    conductor = sa.Column(sa.String(255), nullable=True)
    deadline = sa.Column(sa.DateTime, nullable=True)
    last_error = sa.Column(sa.Text, nullable=True)


class AcceleratorTrait(Base):
    """Per node, per accelerator trait or resource class: how many
    attach handles carry it and how many of them are free (allocations
    match accelerator traits only where free > 0)."""
    __tablename__ = 'accelerator_traits'
    __table_args__ = _table_args(
        sa.Index('accelerator_traits_name_idx', 'name', 'free'),
    )
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        primary_key=True, nullable=False)
    name = sa.Column(sa.String(255), primary_key=True, nullable=False)
    kind = sa.Column(sa.String(16), nullable=False)
    total = sa.Column(sa.Integer, nullable=False, default=0)
    free = sa.Column(sa.Integer, nullable=False, default=0)
