"""Version 1 of the API: the /v1 document and its resources."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.accelerators import version as \
    accelerators
from ironic_like.api.controllers.v1 import allocation
from ironic_like.api.controllers.v1.boot import version as boot
from ironic_like.api.controllers.v1 import chassis
from ironic_like.api.controllers.v1 import continue_inspection as \
    inspection_callback
from ironic_like.api.controllers.v1 import conductor
from ironic_like.api.controllers.v1 import deploy_template
from ironic_like.api.controllers.v1 import driver
from ironic_like.api.controllers.v1 import event
from ironic_like.api.controllers.v1 import inspection_rule
from ironic_like.api.controllers.v1.hostos import version as hostos
from ironic_like.api.controllers.v1 import node
from ironic_like.api.controllers.v1 import port
from ironic_like.api.controllers.v1 import portgroup
from ironic_like.api.controllers.v1 import shard
from ironic_like.api.controllers.v1 import ramdisk
from ironic_like.api.controllers.v1 import runbook
from ironic_like.api.controllers.v1 import volume
from ironic_like.api import links
from ironic_like.api import versions
from ironic_like.api.views import deploy_template as \
    deploy_template_view
from ironic_like.api.views import portgroup as portgroup_view

DOCS_URL = ('https://docs.openstack.org/ironic/latest/contributor/'
            'webapi.html')


def version_document(base_url):
    """The v1 entry of version discovery (keystoneauth reads it)."""
    return {
        'id': 'v1',
        'links': links.version_links(base_url),
        'status': 'CURRENT',
        'min_version': versions.MIN_VERSION_STRING,
        'version': versions.MAX_VERSION_STRING,
    }


def v1_document(base_url, version):
    doc = {
        'id': 'v1',
        'links': links.version_links(base_url) + [
            {'href': DOCS_URL, 'rel': 'describedby', 'type': 'text/html'}],
        'media_types': [{'base': 'application/json',
                         'type': 'application/vnd.openstack.ironic.v1+json'}],
        'nodes': links.make_collection_links(base_url, 'nodes'),
        'ports': links.make_collection_links(base_url, 'ports'),
        'chassis': links.make_collection_links(base_url, 'chassis'),
        'drivers': links.make_collection_links(base_url, 'drivers'),
        'version': version_document(base_url),
    }
    if version >= portgroup_view.PORTGROUPS:
        doc['portgroups'] = links.make_collection_links(base_url,
                                                        'portgroups')
    if version >= versions.CONDUCTORS:
        doc['conductors'] = links.make_collection_links(base_url,
                                                        'conductors')
    if version >= versions.ALLOCATIONS:
        doc['allocations'] = links.make_collection_links(base_url,
                                                         'allocations')
    if version >= deploy_template_view.DEPLOY_TEMPLATES:
        doc['deploy_templates'] = links.make_collection_links(
            base_url, 'deploy_templates')
    if version >= versions.INSPECTION_RULES:
        doc['inspection_rules'] = links.make_collection_links(
            base_url, 'inspection_rules')
    if version >= versions.RUNBOOKS:
        doc['runbooks'] = links.make_collection_links(base_url, 'runbooks')
    if version >= volume.VOLUME:
        doc['volume'] = links.make_collection_links(base_url, 'volume')
    if version >= event.EVENTS:
        doc['events'] = links.make_collection_links(base_url, 'events')
    if version >= versions.NODE_SHARD:
        doc['shards'] = links.make_collection_links(base_url, 'shards')
    return doc


class Controller(rest.RestController):

    nodes = node.NodesController()
    ports = port.PortsController()
    chassis = chassis.ChassisController()
    portgroups = portgroup.PortgroupsController()
    conductors = conductor.ConductorsController()
    drivers = driver.DriversController()
    allocations = allocation.AllocationsController()
    deploy_templates = deploy_template.DeployTemplatesController()
    # Runbooks (1.92).
    runbooks = runbook.RunbooksController()
    # Inspection rules (1.96).
    inspection_rules = inspection_rule.InspectionRulesController()
    boot = boot.BootController()
    hostos = hostos.HostOSController()
    accelerators = accelerators.AcceleratorsController()
    # The networking service's reports (1.54).
    events = event.EventsController()
    # Volume connectors and targets (1.32).
    volume = volume.VolumeController()
    # The shards and their node counts (1.82).
    shards = shard.ShardsController()
    # The deploy agent's (public routes; see ramdisk.py).
    lookup = ramdisk.LookupController()
    heartbeat = ramdisk.HeartbeatController()
    # An inspecting agent's inventory (1.84, and 1.1 for inspector's
    # agents; public too).
    continue_inspection = inspection_callback.ContinueInspectionController()

    @pecan.expose('json')
    def get(self):
        return v1_document(pecan.request.public_url, pecan.request.version)
