"""GET /openapi.json: served without authentication, a valid OpenAPI 3.1
document, and current: every route the application answers is in it,
and every request body in it is the schema its controller validates with.
"""

import copy
import re

from openapi_spec_validator import validate as validate_spec
from pecan import rest

from ironic_like.api.controllers import root
from ironic_like.api.controllers.v1 import allocation as allocation_ctl
from ironic_like.api.controllers.v1.boot import applystaged as boot_staged
from ironic_like.api.controllers.v1.boot import components as boot_components
from ironic_like.api.controllers.v1.boot import options as boot_options
from ironic_like.api.controllers.v1.boot import sessions as boot_sessions
from ironic_like.api.controllers.v1 import chassis as chassis_ctl
from ironic_like.api.controllers.v1 import continue_inspection as \
    inspection_callback
from ironic_like.api.controllers.v1 import node_vmedia
from ironic_like.api.controllers.v1 import deploy_template as \
    deploy_template_ctl
from ironic_like.api.controllers.v1 import event as event_ctl
from ironic_like.api.controllers.v1 import inspection_rule as \
    inspection_rule_ctl
from ironic_like.api.controllers.v1.boot import templates as boot_templates
from ironic_like.api.controllers.v1.hostos import agents as hostos_agents
from ironic_like.api.controllers.v1.hostos import common as hostos_common
from ironic_like.api.controllers.v1.hostos import configurations as \
    hostos_configurations
from ironic_like.api.controllers.v1.hostos import modules as hostos_modules
from ironic_like.api.controllers.v1 import node as node_ctl
from ironic_like.api.controllers.v1 import node_boot_mode
from ironic_like.api.controllers.v1 import node_maintenance
from ironic_like.api.controllers.v1 import node_management
from ironic_like.api.controllers.v1 import node_states
from ironic_like.api.controllers.v1 import node_traits
from ironic_like.api.controllers.v1 import node_vifs
from ironic_like.api.controllers.v1 import port as port_ctl
from ironic_like.api.controllers.v1 import vendor_passthru as \
    vendor_passthru_ctl
from ironic_like.api.controllers.v1 import portgroup as portgroup_ctl
from ironic_like.api.controllers.v1 import runbook as runbook_ctl
from ironic_like.api.controllers.v1 import ramdisk
from ironic_like.api.controllers.v1 import volume as volume_ctl
from ironic_like.api.middleware import public_routes
from ironic_like.api import openapi
from ironic_like.api import openapi_routes
from ironic_like.api import patching
from ironic_like.api.schemas import event as event_schema
from ironic_like.api.schemas import node as node_schema
from ironic_like.api import validation
from ironic_like.common import states
from ironic_like.tests.unit.api import base

METHODS = ('GET', 'POST', 'PUT', 'PATCH', 'DELETE')
# What the controllers validate request bodies with.
_VALIDATOR_MODULES = (node_ctl, node_states, node_boot_mode,
                      node_maintenance, node_traits,
                      node_management, node_vifs, event_ctl,
                      port_ctl, portgroup_ctl, allocation_ctl, patching,
                      chassis_ctl, deploy_template_ctl,
                      boot_templates,
                      boot_sessions, boot_components, boot_staged,
                      boot_options, hostos_common, hostos_modules,
                      hostos_configurations, hostos_agents,
                      volume_ctl, inspection_callback, node_vmedia,
                      runbook_ctl, inspection_rule_ctl,
                      vendor_passthru_ctl)


def _validators():
    """Every jsonschema validator a controller module holds."""
    found = []
    for module in _VALIDATOR_MODULES:
        for value in vars(module).values():
            if isinstance(value, dict):
                values = list(value.values())
            else:
                values = [value]
            found.extend(v for v in values
                         if isinstance(v, validation._Validator))
    return found


def _unconvert(schema, original):
    """``schema`` (of the document) back in our validators' terms, using
    ``original`` to tell an added pattern from one of its own."""
    if not isinstance(schema, dict):
        return schema
    result = {}
    for key, value in schema.items():
        if key == 'x-max-json-size':
            result[validation.MAX_JSON_SIZE] = value
        elif key == 'x-ironic-format':
            result['format'] = value
        elif key == 'pattern' and 'pattern' not in original:
            continue
        elif key in openapi._SCHEMA_MAPS:
            result[key] = {name: _unconvert(sub, original[key][name])
                           for name, sub in value.items()}
        elif key in openapi._SCHEMA_VALUES:
            result[key] = _unconvert(value, original[key])
        elif key in openapi._SCHEMA_LISTS:
            result[key] = [_unconvert(sub, orig)
                           for sub, orig in zip(value, original[key])]
        else:
            result[key] = value
    return result


def _concrete(path, values):
    for name, value in values.items():
        path = path.replace('{%s}' % name, value)
    return path


class TestDocument(base.APITestCase):

    def setUp(self):
        super().setUp()
        self.doc = openapi.build('http://localhost')

    def test_valid_openapi(self):
        validate_spec(copy.deepcopy(self.doc))
        self.assertEqual('3.1.0', self.doc['openapi'])

    def test_served_without_auth(self):
        r = self.app.get(openapi.PATH)
        self.assertEqual('application/json', r.content_type)
        self.assertEqual(self.doc, r.json)
        # Behind keystone too: no token needed (unlike the rest of /v1).
        self.config(auth_strategy='keystone')
        self.config(www_authenticate_uri='http://keystone.example/v3',
                    group='keystone_authtoken')
        app = self.make_app()
        self.assertEqual(self.doc, app.get(openapi.PATH).json)
        app.get('/v1/nodes', status=401)
        self.assertTrue(public_routes.is_public(openapi.PATH))

    def test_servers_follow_public_endpoint(self):
        self.config(public_endpoint='https://bm.example.com/', group='api')
        doc = self.app.get(openapi.PATH).json
        self.assertEqual([{'url': 'https://bm.example.com'}],
                         doc['servers'])

    def test_public_routes_match(self):
        for route in openapi.ROUTES:
            path = _concrete(route.path, {
                name: 'x' for name in ('node_ident', 'driver_name')})
            path = '' if path == '/' else path
            if '{' in path:
                self.assertFalse(route.public, route.path)
                continue
            self.assertEqual(route.public, public_routes.is_public(path),
                             route.path)
            op = self.doc['paths'][route.path][route.method.lower()]
            self.assertEqual(route.public, op.get('security') == [])

    def test_version_header_documented(self):
        param = self.doc['components']['parameters']['ApiVersion']
        self.assertEqual('X-OpenStack-Ironic-API-Version', param['name'])
        for path in self.doc['paths'].values():
            for op in path.values():
                self.assertIn({'$ref': '#/components/parameters/ApiVersion'},
                              op['parameters'])
                self.assertIn('400', op['responses'])

    # -- bodies: the controllers' own schemas -------------------------------

    def _component(self, ref):
        return self.doc['components']['schemas'][ref.rsplit('/', 1)[1]]

    def test_bodies_are_the_validators_schemas(self):
        used = {id(v.schema): v.schema for v in _validators()}
        documented = set()
        for route in openapi.ROUTES:
            op = self.doc['paths'][route.path][route.method.lower()]
            if route.body is None:
                self.assertNotIn('requestBody', op)
                continue
            body = op['requestBody']['content']['application/json']
            documented_schema = self._component(body['schema']['$ref'])
            self.assertEqual(openapi.convert(route.body), documented_schema)
            self.assertEqual(route.body,
                             _unconvert(documented_schema, route.body))
            if any(route.body is b for b in openapi_routes.AGENT_BODIES):
                continue
            # The very object a controller validates with.
            self.assertIn(id(route.body), used, route.path)
            documented.add(id(route.body))
            if route.patch_fields is not None:
                values = self._component(op['x-ironic-patch-values']['$ref'])
                for name, schema in route.patch_fields.items():
                    self.assertIn(id(schema), used, name)
                    documented.add(id(schema))
                    self.assertEqual(schema['properties'][name],
                                     _unconvert(values['properties'][name],
                                                schema['properties'][name]))
        # The events of POST /v1/events are also checked one by one (to
        # name the field at fault): documented as the items of its body.
        self.assertIs(event_schema.EVENT,
                      event_schema.CREATE_BODY['properties']['events'][
                          'items'])
        documented.add(id(event_schema.EVENT))
        # And every schema a controller validates with is documented.
        self.assertEqual(set(used), documented)

    def test_agent_bodies_list_the_accepted_fields(self):
        self.assertEqual(set(ramdisk.HEARTBEAT_FIELDS),
                         set(openapi_routes._HEARTBEAT_BODY['properties']))
        self.assertEqual(
            set(ramdisk.PASSTHRU_HEARTBEAT_FIELDS),
            set(openapi_routes._PASSTHRU_HEARTBEAT_BODY['properties']))

    def test_custom_keywords_converted(self):
        create = self._component(
            self.doc['paths']['/v1/nodes']['post']['requestBody'][
                'content']['application/json']['schema']['$ref'])
        name = create['properties']['name']
        self.assertEqual('logical_name', name['x-ironic-format'])
        self.assertNotIn('format', name)
        self.assertIn('pattern', name)
        extra = create['properties']['extra']
        self.assertTrue(extra['x-max-json-size'])
        self.assertNotIn(validation.MAX_JSON_SIZE, extra)
        self.assertEqual('uuid', create['properties']['uuid']['format'])
        # The schemas module's objects are left as they were.
        self.assertEqual('logical_name', node_schema.FIELDS['name']['format'])


class TestRoutesAreCurrent(base.APITestCase):
    """The route table against the application itself."""

    def setUp(self):
        super().setUp()
        self.doc = openapi.build()
        node = self.create_node(name='doc-node',
                                provision_state=states.MANAGEABLE)
        self.db.set_node_traits(node.id, ['CUSTOM_DOC'])
        port = self.create_port(node)
        allocation = self.db.create_allocation(
            {'uuid': '5be26c0b-03f2-4d2d-ae87-c02d7f33c126',
             'name': 'doc-allocation', 'resource_class': 'doc',
             'state': states.ALLOCATING})
        chassis = self.db.create_chassis({})
        self.values = {'node_ident': node.uuid, 'port_uuid': port.uuid,
                       'chassis_uuid': chassis.uuid,
                       'allocation_ident': allocation.uuid,
                       'hostname': 'test-conductor',
                       'driver_name': 'fake-hardware',
                       'trait': 'CUSTOM_DOC'}

    def _reached(self, method, path):
        """Whether a controller method answered: every /v1 controller
        refuses an unknown query parameter (400) before anything else."""
        r = self.app.request(
            path + '?zz_not_a_parameter=1', method=method,
            headers=dict(base.LATEST), expect_errors=True)
        if r.status_int == 400:
            self.assertIn('zz_not_a_parameter', base.fault(r)['faultstring'])
            return True
        self.assertIn(r.status_int, (404, 405), '%s %s' % (method, path))
        return False

    def test_every_documented_route_is_served(self):
        for route in openapi.ROUTES:
            path = _concrete(route.path, self.values)
            if not path.startswith('/v1/'):
                r = self.app.request(path, method=route.method,
                                     headers=dict(base.LATEST))
                self.assertEqual(200, r.status_int)
                continue
            self.assertTrue(self._reached(route.method, path),
                            '%s %s' % (route.method, route.path))

    def _documented(self, method, path):
        for template, ops in self.doc['paths'].items():
            pattern = '^%s$' % re.sub(r'\\\{[^}]+\\\}', '[^/]+',
                                      re.escape(template))
            if method.lower() in ops and re.match(pattern, path):
                return True
        return False

    def test_no_undocumented_method(self):
        for template, ops in self.doc['paths'].items():
            path = _concrete(template, self.values)
            if not path.startswith('/v1/'):
                continue
            for method in METHODS:
                if self._documented(method, path):
                    # Also by another template ("detail" as a node name).
                    continue
                self.assertFalse(self._reached(method, path),
                                 '%s %s is not documented'
                                 % (method, template))

    def test_every_controller_is_documented(self):
        """Walk the controllers: each resource, sub-resource and custom
        action has documented paths."""
        segments = set()
        for template in self.doc['paths']:
            segments.update(template.split('/'))
        v1 = root.RootController.v1
        resources = [name for name, value in vars(type(v1)).items()
                     if isinstance(value, rest.RestController)]
        self.assertIn('nodes', resources)
        for name in resources:
            self.assertTrue(any(t.startswith('/v1/%s' % name)
                                for t in self.doc['paths']), name)
        for name in node_ctl.NodesController._subcontrollers:
            self.assertTrue(any(
                t.startswith(openapi.NODE + '/' + name)
                for t in self.doc['paths']), name)
        for cls in (node_ctl.NodesController, port_ctl.PortsController,
                    port_ctl.NodePortsController,
                    portgroup_ctl.PortgroupsController,
                    portgroup_ctl.NodePortgroupsController,
                    portgroup_ctl.PortgroupPortsController,
                    chassis_ctl.ChassisController,
                    chassis_ctl.ChassisNodesController,
                    node_states.NodeStatesController,
                    ramdisk.DriverVendorPassthruController,
                    ramdisk.NodeVendorPassthruController):
            for action in getattr(cls, '_custom_actions', {}):
                self.assertIn(action, segments, cls.__name__)
        self.assertIn(openapi.PATH, self.doc['paths'])
        self.assertIn('/', self.doc['paths'])
        self.assertIn('/v1', self.doc['paths'])
