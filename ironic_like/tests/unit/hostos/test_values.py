"""Values against a module's schema (common/hostos/values.py)."""

import testtools

from ironic_like.common import exception
from ironic_like.common.hostos import values

# After Mirantis's sysctl module schema.
SYSCTL = {
    '$schema': 'http://json-schema.org/draft-07/schema#',
    'type': 'object',
    'required': ['options'],
    'additionalProperties': False,
    'properties': {
        'filename': {'type': 'string', 'const': 'custom'},
        'state': {'enum': ['present', 'absent']},
        'options': {
            'type': 'object',
            'additionalProperties': {'type': 'integer', 'minimum': 0},
        },
        'paths': {'type': 'object', 'additionalProperties': {
            'type': 'string', 'format': 'ipv4'}},
    },
}


class TestCheckSchema(testtools.TestCase):

    def test_valid(self):
        self.assertIsNone(values.check_schema(SYSCTL))
        self.assertIsNone(values.check_schema({}))

    def test_invalid(self):
        error = values.check_schema({'type': 'objekt'})
        self.assertIn('invalid JSON schema', error)
        self.assertIn('/type', error)
        self.assertIn('pattern', values.check_schema(
            {'properties': {'a': {'pattern': '('}}}))

    def test_not_an_object(self):
        self.assertIn('must be a JSON object', values.check_schema([]))
        self.assertIn('must be a JSON object', values.check_schema('x'))


class TestValidate(testtools.TestCase):

    def assertInvalid(self, field, schema, value, *texts):
        exc = self.assertRaises(exception.InvalidParameterValue,
                                values.validate, schema, value,
                                'configs/0/values')
        self.assertEqual(field, exc.field)
        self.assertIn(field, str(exc))
        for text in texts:
            self.assertIn(text, str(exc))
        return exc

    def test_valid(self):
        values.validate(SYSCTL, {'options': {'vm.swappiness': 10},
                                 'state': 'present'}, 'configs/0/values')

    def test_no_schema_needs_an_object(self):
        values.validate(None, {'anything': [1, 2]}, 'configs/0/values')
        self.assertInvalid('configs/0/values', None, ['x'], 'object')

    def test_pointer_to_the_offending_field(self):
        self.assertInvalid('configs/0/values/options/vm.swappiness',
                           SYSCTL, {'options': {'vm.swappiness': 'high'}},
                           "'high' is not of type 'integer'")

    def test_pointer_escapes(self):
        self.assertInvalid('configs/0/values/options/a~1b~0c', SYSCTL,
                           {'options': {'a/b~c': -1}}, 'minimum')

    def test_required_points_at_the_object(self):
        self.assertInvalid('configs/0/values', SYSCTL, {},
                           "'options' is a required property")

    def test_const_and_enum(self):
        self.assertInvalid('configs/0/values/filename', SYSCTL,
                           {'options': {}, 'filename': 'other'})
        self.assertInvalid('configs/0/values/state', SYSCTL,
                           {'options': {}, 'state': 'gone'})

    def test_format_is_checked(self):
        self.assertInvalid('configs/0/values/paths/a', SYSCTL,
                           {'options': {}, 'paths': {'a': '1.2.3'}},
                           'ipv4')

    def test_list_index_in_pointer(self):
        schema = {'properties': {'l': {'items': {'type': 'string'}}}}
        self.assertInvalid('configs/0/values/l/1', schema, {'l': ['a', 1]})

    def test_remote_ref_is_not_fetched(self):
        schema = {'properties': {'a': {'$ref': 'http://192.0.2.1/s.json'}}}
        exc = self.assertRaises(exception.InvalidParameterValue,
                                values.validate, schema, {'a': 1},
                                'configs/0/values')
        self.assertIn('cannot be resolved', str(exc))

    def test_local_ref(self):
        schema = {'definitions': {'n': {'type': 'integer'}},
                  'properties': {'a': {'$ref': '#/definitions/n'}}}
        values.validate(schema, {'a': 1}, 'configs/0/values')
        self.assertInvalid('configs/0/values/a', schema, {'a': 'x'})

    def test_pointer(self):
        self.assertEqual('p/a~1b/0', values.pointer('p', ['a/b', 0]))
        self.assertEqual('a', values.pointer('', ['a']))
