"""SQLAlchemy models. The alembic migrations must produce exactly these
tables; tests/functional/test_migrations.py checks it on MariaDB and
PostgreSQL (and tests/unit on SQLite)."""

from oslo_db.sqlalchemy import models
from oslo_db.sqlalchemy import types as db_types
import sqlalchemy as sa
from sqlalchemy import orm


class IronicLikeBase(models.TimestampMixin, models.ModelBase):
    # mysql_charset makes the same schema on any server default.
    __table_args__ = {'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'}

    def as_dict(self):
        return {c.name: getattr(self, c.name) for c in self.__table__.columns}


Base = orm.declarative_base(cls=IronicLikeBase)


def _table_args(*args):
    return args + ({'mysql_charset': 'utf8mb4', 'mysql_engine': 'InnoDB'},)


class Conductor(Base):
    __tablename__ = 'conductors'
    __table_args__ = _table_args(
        sa.UniqueConstraint('hostname', name='uniq_conductors0hostname'),
        sa.Index('conductors_online_group_idx', 'online', 'conductor_group'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    hostname = sa.Column(sa.String(255), nullable=False)
    conductor_group = sa.Column(sa.String(255), nullable=False, default='',
                                server_default='')
    online = sa.Column(sa.Boolean, nullable=False, default=True)
    hardware_types = sa.Column(db_types.JsonEncodedList, nullable=True)


class Node(Base):
    __tablename__ = 'nodes'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_nodes0uuid'),
        sa.UniqueConstraint('name', name='uniq_nodes0name'),
        sa.UniqueConstraint('instance_uuid', name='uniq_nodes0instance_uuid'),
        sa.Index('nodes_provision_state_idx', 'provision_state'),
        sa.Index('nodes_driver_idx', 'driver'),
        sa.Index('nodes_resource_class_idx', 'resource_class'),
        sa.Index('nodes_conductor_group_idx', 'conductor_group'),
        sa.Index('nodes_maintenance_idx', 'maintenance'),
        sa.Index('nodes_reservation_idx', 'reservation'),
        sa.Index('nodes_conductor_affinity_idx', 'conductor_affinity'),
        sa.Index('nodes_owner_idx', 'owner'),
        sa.UniqueConstraint('allocation_id', name='uniq_nodes0allocation_id'),
        sa.Index('nodes_chassis_id_idx', 'chassis_id'),
        sa.Index('nodes_fault_idx', 'fault'),
        sa.Index('nodes_lessee_idx', 'lessee'),
        sa.Index('nodes_shard_idx', 'shard'),
        sa.Index('nodes_parent_node_idx', 'parent_node'),
        sa.Index('nodes_instance_name_idx', 'instance_name'),
        # Best-fit allocation candidates: the free nodes of a class, the
        # fewest traits first (db/sqlalchemy/allocations.py).
        sa.Index('nodes_candidate_idx', 'resource_class', 'provision_state',
                 'allocation_id', 'trait_count'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    # How many rows of node_traits the node has, kept by the database
    # layer with them: allocations prefer the nodes with the fewest
    # traits beyond those asked, found by index instead of counting.
    trait_count = sa.Column(sa.Integer, nullable=False, default=0,
                            server_default='0')
    name = sa.Column(sa.String(255), nullable=True)
    description = sa.Column(sa.Text, nullable=True)
    driver = sa.Column(sa.String(255), nullable=False)
    driver_info = sa.Column(db_types.JsonEncodedDict)
    driver_internal_info = sa.Column(db_types.JsonEncodedDict)
    power_interface = sa.Column(sa.String(255), nullable=True)
    management_interface = sa.Column(sa.String(255), nullable=True)
    deploy_interface = sa.Column(sa.String(255), nullable=True)
    boot_interface = sa.Column(sa.String(255), nullable=True)
    # Ironic's other interfaces (1.31 onwards; bios 1.40, rescue 1.38,
    # storage 1.33, network 1.20).
    bios_interface = sa.Column(sa.String(255), nullable=True)
    # Ironic 1.86.
    firmware_interface = sa.Column(sa.String(255), nullable=True)
    console_interface = sa.Column(sa.String(255), nullable=True)
    inspect_interface = sa.Column(sa.String(255), nullable=True)
    network_interface = sa.Column(sa.String(255), nullable=True)
    raid_interface = sa.Column(sa.String(255), nullable=True)
    rescue_interface = sa.Column(sa.String(255), nullable=True)
    storage_interface = sa.Column(sa.String(255), nullable=True)
    vendor_interface = sa.Column(sa.String(255), nullable=True)
    console_enabled = sa.Column(sa.Boolean, nullable=False, default=False,
                                server_default=sa.false())
    raid_config = sa.Column(db_types.JsonEncodedDict)
    target_raid_config = sa.Column(db_types.JsonEncodedDict)
    inspection_started_at = sa.Column(sa.DateTime, nullable=True)
    inspection_finished_at = sa.Column(sa.DateTime, nullable=True)
    power_state = sa.Column(sa.String(15), nullable=True)
    target_power_state = sa.Column(sa.String(15), nullable=True)
    provision_state = sa.Column(sa.String(15), nullable=True)
    target_provision_state = sa.Column(sa.String(15), nullable=True)
    provision_updated_at = sa.Column(sa.DateTime, nullable=True)
    maintenance = sa.Column(sa.Boolean, nullable=False, default=False)
    maintenance_reason = sa.Column(sa.Text, nullable=True)
    reservation = sa.Column(sa.String(255), nullable=True)
    conductor_affinity = sa.Column(sa.String(255), nullable=True)
    conductor_group = sa.Column(sa.String(255), nullable=False, default='',
                                server_default='')
    resource_class = sa.Column(sa.String(80), nullable=True)
    instance_uuid = sa.Column(sa.String(36), nullable=True)
    # Ironic 1.109: the hardware health its BMC reports (OK, Warning,
    # Critical), read at each power sync.
    health = sa.Column(sa.String(20), nullable=True)
    # Ironic 1.104: the instance's name (Nova's display_name).
    instance_name = sa.Column(sa.String(255), nullable=True)
    instance_info = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True))
    properties = sa.Column(db_types.JsonEncodedDict)
    extra = sa.Column(db_types.JsonEncodedDict)
    labels = sa.Column(db_types.JsonEncodedDict)
    owner = sa.Column(sa.String(255), nullable=True)
    lessee = sa.Column(sa.String(255), nullable=True)
    # Ironic 1.82: which share of the fleet a client (a Nova compute, a
    # Neutron agent) deals with.
    shard = sa.Column(sa.String(255), nullable=True)
    # Ironic 1.83: the UUID of the node this one is a part of (a DPU, a
    # BMC-managed device inside a server); no foreign key, as Ironic's.
    parent_node = sa.Column(sa.String(36), nullable=True)
    last_error = sa.Column(sa.Text, nullable=True)
    # The allocation holding the node (no foreign key: allocations.node_id
    # points the other way, and a cycle of keys complicates deletes).
    allocation_id = sa.Column(sa.Integer, nullable=True)
    chassis_id = sa.Column(sa.Integer, sa.ForeignKey(
        'chassis.id', name='nodes_chassis_id_fkey'), nullable=True)
    # Ironic 1.48: an active node's instance cannot be undeployed, rebuilt
    # or deleted while set.
    protected = sa.Column(sa.Boolean, nullable=False, default=False,
                          server_default=sa.false())
    protected_reason = sa.Column(sa.Text, nullable=True)
    # Ironic 1.61: never scheduled again; goes to manageable after
    # cleaning instead of available.
    retired = sa.Column(sa.Boolean, nullable=False, default=False,
                        server_default=sa.false())
    retired_reason = sa.Column(sa.Text, nullable=True)
    # Ironic 1.47: True cleans the node even with automated cleaning off.
    automated_clean = sa.Column(sa.Boolean, nullable=True)
    # Ironic 1.95: never powered off (power off refused; the work that
    # would power it off and on reboots it instead).
    disable_power_off = sa.Column(sa.Boolean, nullable=False, default=False,
                                  server_default=sa.false())
    # Ironic 1.42: why the service (not an operator) set maintenance.
    fault = sa.Column(sa.String(255), nullable=True)
    # Ironic 1.66: the instance's network configuration (config drive).
    network_data = sa.Column(db_types.JsonEncodedDict)
    # Ironic 1.75: the boot mode and secure boot state the BMC reports.
    boot_mode = sa.Column(sa.String(16), nullable=True)
    secure_boot = sa.Column(sa.Boolean, nullable=True)

    traits = orm.relationship('NodeTrait', lazy='selectin',
                              cascade='all, delete-orphan',
                              order_by='NodeTrait.trait')


class NodeTrait(Base):
    __tablename__ = 'node_traits'
    __table_args__ = _table_args(
        sa.Index('node_traits_idx', 'trait'),
    )
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        primary_key=True, nullable=False)
    trait = sa.Column(sa.String(255), primary_key=True, nullable=False)


class Port(Base):
    __tablename__ = 'ports'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_ports0uuid'),
        sa.UniqueConstraint('address', name='uniq_ports0address'),
        sa.UniqueConstraint('name', name='uniq_ports0name'),
        sa.Index('ports_node_id_idx', 'node_id'),
        sa.Index('ports_portgroup_id_idx', 'portgroup_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    address = sa.Column(sa.String(18), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'), nullable=False)
    extra = sa.Column(db_types.JsonEncodedDict)
    local_link_connection = sa.Column(db_types.JsonEncodedDict)
    physical_network = sa.Column(sa.String(64), nullable=True)
    pxe_enabled = sa.Column(sa.Boolean, nullable=False, default=True)
    portgroup_id = sa.Column(sa.Integer, sa.ForeignKey(
        'portgroups.id', name='ports_portgroup_id_fkey'), nullable=True)
    # Ironic 1.18: the service's own records of the port (the VIF bound
    # to it); Ironic 1.53: a smart NIC.
    internal_info = sa.Column(db_types.JsonEncodedDict)
    is_smartnic = sa.Column(sa.Boolean, nullable=False, default=False,
                            server_default=sa.false())
    # Ironic 1.88: a unique name, by which the API finds the port too.
    name = sa.Column(sa.String(255), nullable=True)
    # Ironic 1.97, 1.100, 1.101: free text for operators.
    description = sa.Column(sa.String(255), nullable=True)
    vendor = sa.Column(sa.String(32), nullable=True)
    category = sa.Column(sa.String(80), nullable=True)
    # Ironic 1.111: whether the networking service may bond the port into
    # a port group it makes itself.
    available_for_dynamic_portgroup = sa.Column(
        sa.Boolean, nullable=False, default=True, server_default=sa.true())


class Chassis(Base):
    """Ironic's chassis: a group of nodes with a description."""
    __tablename__ = 'chassis'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_chassis0uuid'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    description = sa.Column(sa.String(255), nullable=True)
    extra = sa.Column(db_types.JsonEncodedDict)


class Portgroup(Base):
    """Ironic's port group: a node's ports bonded together."""
    __tablename__ = 'portgroups'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_portgroups0uuid'),
        sa.UniqueConstraint('name', name='uniq_portgroups0name'),
        sa.UniqueConstraint('address', name='uniq_portgroups0address'),
        sa.Index('portgroups_node_id_idx', 'node_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=True)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    address = sa.Column(sa.String(18), nullable=True)
    extra = sa.Column(db_types.JsonEncodedDict)
    internal_info = sa.Column(db_types.JsonEncodedDict)
    standalone_ports_supported = sa.Column(sa.Boolean, nullable=False,
                                           default=True)
    mode = sa.Column(sa.String(255), nullable=True)
    properties = sa.Column(db_types.JsonEncodedDict)
    # Ironic 1.102: the network its member ports are on (they follow a
    # change of it); 1.103: free text.
    physical_network = sa.Column(sa.String(64), nullable=True)
    category = sa.Column(sa.String(80), nullable=True)
    # Ironic 1.111: made by the networking service (read only here).
    dynamic_portgroup = sa.Column(sa.Boolean, nullable=False, default=False,
                                  server_default=sa.false())


class BIOSSetting(Base):
    """One BIOS setting of a node, as its BIOS interface last read it."""
    __tablename__ = 'bios_settings'
    __table_args__ = _table_args()
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        primary_key=True, nullable=False)
    name = sa.Column(sa.String(255), primary_key=True, nullable=False)
    value = sa.Column(sa.Text, nullable=True)
    # The BIOS registry's description of the setting (Ironic 1.74).
    attribute_type = sa.Column(sa.String(255), nullable=True)
    allowable_values = sa.Column(db_types.JsonEncodedList, nullable=True)
    lower_bound = sa.Column(sa.BigInteger, nullable=True)
    upper_bound = sa.Column(sa.BigInteger, nullable=True)
    max_length = sa.Column(sa.Integer, nullable=True)
    min_length = sa.Column(sa.Integer, nullable=True)
    read_only = sa.Column(sa.Boolean, nullable=True)
    reset_required = sa.Column(sa.Boolean, nullable=True)
    unique = sa.Column(sa.Boolean, nullable=True)


class FirmwareComponent(Base):
    """One firmware component of a node (Ironic 1.86): its version when
    first read, now, and the last one flashed by this service."""
    __tablename__ = 'firmware_information'
    __table_args__ = _table_args(
        sa.UniqueConstraint('node_id', 'component',
                            name='uniq_firmware_information0node_id0'
                                 'component'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    component = sa.Column(sa.String(255), nullable=False)
    initial_version = sa.Column(sa.String(255), nullable=False)
    current_version = sa.Column(sa.String(255), nullable=True)
    last_version_flashed = sa.Column(sa.String(255), nullable=True)
    # Ironic 1.114: the hardware the firmware runs on, where the BMC says.
    vendor = sa.Column(sa.String(255), nullable=True)
    model = sa.Column(sa.String(255), nullable=True)
    serial_number = sa.Column(sa.String(255), nullable=True)


class NodeHistory(Base):
    """One event in a node's history (Ironic 1.78): errors and notable
    changes, kept for [conductor]node_history_max_entries per node."""
    __tablename__ = 'node_history'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_node_history0uuid'),
        sa.Index('node_history_node_id_idx', 'node_id', 'id'),
        sa.Index('node_history_created_at_idx', 'created_at'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    conductor = sa.Column(sa.String(255), nullable=True)
    event_type = sa.Column(sa.String(255), nullable=True)
    severity = sa.Column(sa.String(255), nullable=True)
    event = sa.Column(sa.Text, nullable=True)
    user = sa.Column(sa.String(64), nullable=True)
    project = sa.Column(sa.String(80), nullable=True)
    # Ironic 1.115: the node's states at the event, and the seconds since
    # its provision state last changed.
    state = sa.Column(sa.String(15), nullable=True)
    target_provision_state = sa.Column(sa.String(15), nullable=True)
    duration_seconds = sa.Column(sa.Integer, nullable=True)


class NodeInventory(Base):
    """The hardware inventory an agent gave at the node's last inspection
    (Ironic API 1.81), with what inspection made of it (plugin data):
    one row per node, replaced by each inspection."""
    __tablename__ = 'node_inventory'
    __table_args__ = _table_args(
        sa.UniqueConstraint('node_id', name='uniq_node_inventory0node_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    inventory_data = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True),
                               nullable=True)
    plugin_data = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True),
                            nullable=True)


class DeployTemplate(Base):
    """Ironic's deploy template: deploy steps a node's instance gets when
    its requested traits include the template's name."""
    __tablename__ = 'deploy_templates'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_deploy_templates0uuid'),
        sa.UniqueConstraint('name', name='uniq_deploy_templates0name'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    extra = sa.Column(db_types.JsonEncodedDict)

    steps = orm.relationship('DeployTemplateStep', lazy='selectin',
                             cascade='all, delete-orphan',
                             order_by='DeployTemplateStep.id')


class DeployTemplateStep(Base):
    __tablename__ = 'deploy_template_steps'
    __table_args__ = _table_args(
        sa.Index('deploy_template_steps_template_id_idx',
                 'deploy_template_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    deploy_template_id = sa.Column(sa.Integer,
                                   sa.ForeignKey('deploy_templates.id'),
                                   nullable=False)
    interface = sa.Column(sa.String(255), nullable=False)
    step = sa.Column(sa.String(255), nullable=False)
    args = sa.Column(db_types.JsonEncodedDict, nullable=False)
    priority = sa.Column(sa.Integer, nullable=False)


class Runbook(Base):
    """Ironic's runbook (API 1.92): clean or service steps a node whose
    traits include the runbook's name may be given by name."""
    __tablename__ = 'runbooks'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_runbooks0uuid'),
        sa.UniqueConstraint('name', name='uniq_runbooks0name'),
        sa.Index('runbooks_owner_idx', 'owner'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    disable_ramdisk = sa.Column(sa.Boolean, nullable=False, default=False)
    public = sa.Column(sa.Boolean, nullable=False, default=False)
    owner = sa.Column(sa.String(255), nullable=True)
    extra = sa.Column(db_types.JsonEncodedDict)
    # API 1.112.
    description = sa.Column(sa.String(255), nullable=True)

    steps = orm.relationship('RunbookStep', lazy='selectin',
                             cascade='all, delete-orphan',
                             order_by='RunbookStep.id')
    # API 1.112: the node traits the runbook is approved for (a node with
    # one of them may use it).
    traits = orm.relationship('RunbookTrait', lazy='selectin',
                              cascade='all, delete-orphan',
                              order_by='RunbookTrait.trait')


class RunbookTrait(Base):
    __tablename__ = 'runbook_traits'
    __table_args__ = _table_args(
        sa.UniqueConstraint('runbook_id', 'trait',
                            name='uniq_runbook_traits0runbook_id0trait'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    runbook_id = sa.Column(sa.Integer, sa.ForeignKey('runbooks.id'),
                           nullable=False)
    trait = sa.Column(sa.String(255), nullable=False)


class RunbookStep(Base):
    __tablename__ = 'runbook_steps'
    __table_args__ = _table_args(
        sa.Index('runbook_steps_runbook_id_idx', 'runbook_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    runbook_id = sa.Column(sa.Integer, sa.ForeignKey('runbooks.id'),
                           nullable=False)
    interface = sa.Column(sa.String(255), nullable=False)
    step = sa.Column(sa.String(255), nullable=False)
    args = sa.Column(db_types.JsonEncodedDict, nullable=False)
    # Where the step runs among the runbook's steps (lowest first).
    order = sa.Column(sa.Integer, nullable=False)


class InspectionRule(Base):
    """Ironic's inspection rule (API 1.96): conditions on the inventory
    of an inspected node, and the actions run on the node when they all
    hold. Conditions and actions are kept as JSON lists, as given."""
    __tablename__ = 'inspection_rules'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_inspection_rules0uuid'),
        sa.Index('inspection_rules_phase_idx', 'phase'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    description = sa.Column(sa.String(255), nullable=True)
    priority = sa.Column(sa.Integer, nullable=False, default=0)
    # A sensitive rule's conditions and actions are never shown.
    sensitive = sa.Column(sa.Boolean, nullable=False, default=False)
    phase = sa.Column(sa.String(16), nullable=False, default='main')
    conditions = sa.Column(db_types.JsonEncodedList(mysql_as_long=True),
                           nullable=False)
    actions = sa.Column(db_types.JsonEncodedList(mysql_as_long=True),
                        nullable=False)


class VolumeConnector(Base):
    """Ironic's volume connector: how a node reaches remote storage."""
    __tablename__ = 'volume_connectors'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_volumeconnectors0uuid'),
        sa.UniqueConstraint('type', 'connector_id',
                            name='uniq_volumeconnectors0type0connector_id'),
        sa.Index('volume_connectors_node_id_idx', 'node_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    type = sa.Column(sa.String(32), nullable=False)
    connector_id = sa.Column(sa.String(255), nullable=False)
    extra = sa.Column(db_types.JsonEncodedDict)


class VolumeTarget(Base):
    """Ironic's volume target: a remote volume a node boots from or
    uses."""
    __tablename__ = 'volume_targets'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_volumetargets0uuid'),
        sa.UniqueConstraint('node_id', 'boot_index',
                            name='uniq_volumetargets0node_id0boot_index'),
        sa.Index('volume_targets_node_id_idx', 'node_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    volume_type = sa.Column(sa.String(64), nullable=False)
    properties = sa.Column(db_types.JsonEncodedDict)
    boot_index = sa.Column(sa.Integer, nullable=False)
    volume_id = sa.Column(sa.String(36), nullable=False)
    extra = sa.Column(db_types.JsonEncodedDict)


class Allocation(Base):
    """A request for a node of a resource class with some traits."""
    __tablename__ = 'allocations'
    __table_args__ = _table_args(
        sa.UniqueConstraint('uuid', name='uniq_allocations0uuid'),
        sa.UniqueConstraint('name', name='uniq_allocations0name'),
        # One allocation per node: the database refuses a double booking.
        sa.UniqueConstraint('node_id', name='uniq_allocations0node_id'),
        sa.Index('allocations_state_idx', 'state'),
        sa.Index('allocations_conductor_affinity_idx', 'conductor_affinity'),
        sa.Index('allocations_resource_class_idx', 'resource_class'),
        sa.Index('allocations_owner_idx', 'owner'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=True)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=True)
    state = sa.Column(sa.String(15), nullable=False)
    owner = sa.Column(sa.String(255), nullable=True)
    last_error = sa.Column(sa.Text, nullable=True)
    resource_class = sa.Column(sa.String(80), nullable=True)
    candidate_nodes = sa.Column(db_types.JsonEncodedList, nullable=True)
    extra = sa.Column(db_types.JsonEncodedDict, nullable=True)
    conductor_affinity = sa.Column(sa.String(255), nullable=True)

    traits = orm.relationship('AllocationTrait', lazy='selectin',
                              cascade='all, delete-orphan',
                              order_by='AllocationTrait.trait')


class AllocationTrait(Base):
    __tablename__ = 'allocation_traits'
    __table_args__ = _table_args(
        sa.Index('allocation_traits_idx', 'trait'),
    )
    allocation_id = sa.Column(sa.Integer, sa.ForeignKey('allocations.id'),
                              primary_key=True, nullable=False)
    trait = sa.Column(sa.String(255), primary_key=True, nullable=False)


# -- boot sessions (doc/boot-sessions.md) ---------------------------------

class BootTemplate(Base):
    """A BOS session template: boot sets naming what to boot where."""
    __tablename__ = 'boot_templates'
    __table_args__ = _table_args(
        sa.UniqueConstraint('name', name='uniq_boot_templates0name'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(127), nullable=False)
    tenant = sa.Column(sa.String(255), nullable=True)
    description = sa.Column(sa.Text, nullable=True)
    enable_cfs = sa.Column(sa.Boolean, nullable=False, default=True)
    cfs = sa.Column(db_types.JsonEncodedDict)
    boot_sets = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True))


class BootSession(Base):
    """A boot, reboot or shutdown of a set of nodes. ``template`` is the
    template as it was when the session was created (BOS reads it at
    setup time; a copy keeps a later edit from changing a session)."""
    __tablename__ = 'boot_sessions'
    __table_args__ = _table_args(
        sa.UniqueConstraint('name', name='uniq_boot_sessions0name'),
        sa.Index('boot_sessions_status_idx', 'status'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    name = sa.Column(sa.String(127), nullable=False)
    tenant = sa.Column(sa.String(255), nullable=True)
    operation = sa.Column(sa.String(16), nullable=False)
    template_name = sa.Column(sa.String(127), nullable=False)
    template = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True))
    limit = sa.Column(sa.Text, nullable=True)
    stage = sa.Column(sa.Boolean, nullable=False, default=False)
    include_disabled = sa.Column(sa.Boolean, nullable=False, default=False)
    takeover = sa.Column(sa.Boolean, nullable=False, default=False)
    components = sa.Column(db_types.JsonEncodedList(mysql_as_long=True))
    status = sa.Column(sa.String(16), nullable=False)
    start_time = sa.Column(sa.DateTime, nullable=True)
    end_time = sa.Column(sa.DateTime, nullable=True)
    error = sa.Column(sa.Text, nullable=True)
    # The extended status, computed once when the session completes.
    final_status = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True))


class BootComponent(Base):
    """A node as boot sessions see it. The indexed columns repeat parts of
    the JSON states so that each operator finds its work with an index
    (BOS scans and decodes every record on each query)."""
    __tablename__ = 'boot_components'
    __table_args__ = _table_args(
        sa.Index('boot_components_enabled_status_idx', 'enabled', 'status'),
        sa.Index('boot_components_session_idx', 'session'),
        sa.Index('boot_components_staged_session_idx', 'staged_session'),
        sa.Index('boot_components_actual_updated_idx', 'actual_updated_at'),
    )
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        primary_key=True, nullable=False)
    actual_state = sa.Column(db_types.JsonEncodedDict)
    desired_state = sa.Column(db_types.JsonEncodedDict)
    staged_state = sa.Column(db_types.JsonEncodedDict)
    last_action = sa.Column(db_types.JsonEncodedDict)
    event_stats = sa.Column(db_types.JsonEncodedDict)
    phase = sa.Column(sa.String(32), nullable=False, default='',
                      server_default='')
    status = sa.Column(sa.String(32), nullable=False, default='stable',
                       server_default='stable')
    status_override = sa.Column(sa.String(32), nullable=True)
    enabled = sa.Column(sa.Boolean, nullable=False, default=False)
    error = sa.Column(sa.Text, nullable=True)
    session = sa.Column(sa.String(127), nullable=True)
    staged_session = sa.Column(sa.String(127), nullable=True)
    boot_set = sa.Column(sa.String(127), nullable=True)
    retry_policy = sa.Column(sa.Integer, nullable=True)
    actual_updated_at = sa.Column(sa.DateTime, nullable=True)


class BootArtifacts(Base):
    """What a referral token stands for (BOS's boot-artifacts record)."""
    __tablename__ = 'boot_artifacts'
    __table_args__ = _table_args(
        sa.Index('boot_artifacts_node_id_idx', 'node_id'),
    )
    token = sa.Column(sa.String(64), primary_key=True, nullable=False)
    node_id = sa.Column(sa.Integer, nullable=False)
    kernel = sa.Column(sa.Text, nullable=True)
    initrd = sa.Column(sa.Text, nullable=True)
    kernel_parameters = sa.Column(sa.Text, nullable=True)


class BootOptions(Base):
    """BOS's options: one row, read by the operators on every loop."""
    __tablename__ = 'boot_options'
    id = sa.Column(sa.Integer, primary_key=True)
    options = sa.Column(db_types.JsonEncodedDict)


class NodeLabel(Base):
    """One label of a node, repeated from nodes.labels as an index: a
    configuration's selector finds its candidate nodes by (key, value)
    without decoding every node's JSON."""
    __tablename__ = 'node_labels'
    __table_args__ = _table_args(
        sa.Index('node_labels_key_value_idx', 'key', 'value'),
    )
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        primary_key=True, nullable=False)
    key = sa.Column(sa.String(255), primary_key=True, nullable=False)
    value = sa.Column(sa.String(255), nullable=False)


class HostOSModule(Base):
    """One version of a host OS configuration module (hocm's entry)."""
    __tablename__ = 'hostos_modules'
    __table_args__ = _table_args(
        sa.UniqueConstraint('name', 'version',
                            name='uniq_hostos_modules0name0version'),
        sa.UniqueConstraint('uuid', name='uniq_hostos_modules0uuid'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(63), nullable=False)
    version = sa.Column(sa.String(64), nullable=False)
    url = sa.Column(sa.Text, nullable=False)
    sha256sum = sa.Column(sa.String(64), nullable=False)
    description = sa.Column(sa.Text, nullable=True)
    state = sa.Column(sa.String(16), nullable=False)
    error = sa.Column(sa.Text, nullable=True)
    playbook = sa.Column(sa.String(255), nullable=True)
    values_schema = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True))
    deprecates = sa.Column(db_types.JsonEncodedList)
    deprecated_by = sa.Column(sa.String(64), nullable=True)
    archive_size = sa.Column(sa.BigInteger, nullable=True)


class HostOSConfiguration(Base):
    """A configuration (hoc): a selector over node labels and module
    configs. Secret values live in their own column, never rendered."""
    __tablename__ = 'hostos_configurations'
    __table_args__ = _table_args(
        sa.UniqueConstraint('name', name='uniq_hostos_configurations0name'),
        sa.UniqueConstraint('uuid', name='uniq_hostos_configurations0uuid'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(63), nullable=False)
    machine_selector = sa.Column(db_types.JsonEncodedDict)
    configs = sa.Column(db_types.JsonEncodedList(mysql_as_long=True))
    secret_values = sa.Column(db_types.JsonEncodedList(mysql_as_long=True))
    secret_salt = sa.Column(sa.String(32), nullable=False)
    order = sa.Column(sa.Integer, nullable=True)
    max_concurrent = sa.Column(sa.Integer, nullable=True)
    failure_threshold = sa.Column(sa.Integer, nullable=True)
    status = sa.Column(sa.String(16), nullable=False)
    status_reason = sa.Column(sa.Text, nullable=True)
    resumed_at = sa.Column(sa.DateTime, nullable=True)
    delete_started_at = sa.Column(sa.DateTime, nullable=True)


class HostOSItem(Base):
    """A state item of one node: the spec the service wants run (params,
    spec_hash) and what the node's host agent last reported."""
    __tablename__ = 'hostos_items'
    __table_args__ = _table_args(
        sa.UniqueConstraint('node_id', 'name',
                            name='uniq_hostos_items0node_id0name'),
        sa.Index('hostos_items_configuration_idx', 'configuration_id'),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        nullable=False)
    configuration_id = sa.Column(sa.Integer, nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    runner = sa.Column(sa.String(16), nullable=False)
    phase = sa.Column(sa.String(16), nullable=False)
    version = sa.Column(sa.String(16), nullable=False)
    params = sa.Column(db_types.JsonEncodedDict(mysql_as_long=True))
    spec_hash = sa.Column(sa.String(64), nullable=False)
    sort_key = sa.Column(db_types.JsonEncodedList)
    generation = sa.Column(sa.Integer, nullable=False, default=1)
    removed = sa.Column(sa.Boolean, nullable=False, default=False)
    released = sa.Column(sa.Boolean, nullable=False, default=False)
    state = sa.Column(sa.String(16), nullable=True)
    reported_hash = sa.Column(sa.String(64), nullable=True)
    exit_code = sa.Column(sa.Integer, nullable=True)
    attempt = sa.Column(sa.Integer, nullable=False, default=0)
    started_at = sa.Column(sa.DateTime, nullable=True)
    finished_at = sa.Column(sa.DateTime, nullable=True)
    output = sa.Column(sa.Text, nullable=True)


class HostOSAgent(Base):
    """The host agent of a deployed node: its token (a hash of it) and
    when it was last heard of."""
    __tablename__ = 'hostos_agents'
    node_id = sa.Column(sa.Integer, sa.ForeignKey('nodes.id'),
                        primary_key=True, nullable=False)
    token_hash = sa.Column(sa.String(64), nullable=False)
    agent_version = sa.Column(sa.String(32), nullable=True)
    last_heartbeat = sa.Column(sa.DateTime, nullable=True)


# The accelerator models live in their own module; imported last (they
# need Base) and re-exported so callers keep writing models.<Name>.
from ironic_like.db.sqlalchemy.models_accelerators import (  # noqa: E402,F401
    AcceleratorInventory,
    AcceleratorDevice,
    AcceleratorDeployable,
    AcceleratorAttachHandle,
    AcceleratorAttachment,
    AcceleratorTrait,
)
