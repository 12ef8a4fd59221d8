"""Boot service options (common/boot/options.py): BOS's defaults and
legal values, the effective options, and TTL durations."""

from ironic_like.common.boot import options
from ironic_like.tests import base

BOS_DEFAULTS = {
    'polling_frequency': 15,
    'discovery_frequency': 300,
    'max_component_batch_size': 2800,
    'default_retry_policy': 3,
    'max_boot_wait_time': 1200,
    'max_power_on_wait_time': 120,
    'max_power_off_wait_time': 300,
    'cleanup_completed_session_ttl': '7d',
    'component_actual_state_ttl': '4h',
    'clear_stage': False,
    'session_limit_required': False,
    'reject_nids': False,
    'ims_errors_fatal': False,
    'ims_images_must_exist': False,
    'bss_read_timeout': 20,
    'cfs_read_timeout': 20,
    'hsm_read_timeout': 20,
    'ims_read_timeout': 20,
    'pcs_read_timeout': 20,
    'logging_level': 'INFO',
    'disable_components_on_completion': True,
}


class TestDefaults(base.TestCase):

    def test_bos_defaults_and_ours(self):
        expected = dict(BOS_DEFAULTS, session_max_concurrent_power_on=0)
        self.assertEqual(expected, options.DEFAULTS)

    def test_defaults_are_valid(self):
        self.assertEqual(options.DEFAULTS, options.validate(options.DEFAULTS))


class TestValidate(base.TestCase):

    def assertRefused(self, patch, field, *words):
        exc = self.assertRaises(options.OptionError, options.validate, patch)
        self.assertEqual(field, exc.field)
        for word in words:
            self.assertIn(word, str(exc))
        return exc

    def test_valid_patch(self):
        patch = {'polling_frequency': 0, 'default_retry_policy': -1,
                 'clear_stage': True, 'logging_level': 'debug',
                 'cleanup_completed_session_ttl': '0',
                 'component_actual_state_ttl': '1H',
                 'session_max_concurrent_power_on': 50}
        self.assertEqual(dict(patch, logging_level='DEBUG'),
                         options.validate(patch))
        self.assertEqual({}, options.validate({}))

    def test_not_an_object(self):
        self.assertRefused(['polling_frequency'], None, 'JSON object')

    def test_unknown_option(self):
        self.assertRefused({'polling_frequency': 5, 'no_such': 1},
                           'no_such', 'unknown option')

    def test_bool_options_need_booleans(self):
        for name in ('clear_stage', 'session_limit_required', 'reject_nids',
                     'ims_errors_fatal', 'ims_images_must_exist',
                     'disable_components_on_completion'):
            for value in ('false', 0, 1, None):
                self.assertRefused({name: value}, name, 'boolean')

    def test_int_options_need_integers(self):
        for value in ('15', 1.5, True, None):
            self.assertRefused({'polling_frequency': value},
                               'polling_frequency', 'integer')

    def test_int_ranges(self):
        for name, low, high in [
                ('polling_frequency', 0, 1048576),
                ('discovery_frequency', 0, 33554432),
                ('max_component_batch_size', 0, 131071),
                ('default_retry_policy', -1, 1048576),
                ('max_boot_wait_time', 0, 1048576),
                ('max_power_on_wait_time', 0, 1048576),
                ('max_power_off_wait_time', 0, 1048576),
                ('bss_read_timeout', 10, 86400),
                ('cfs_read_timeout', 10, 86400),
                ('hsm_read_timeout', 10, 86400),
                ('ims_read_timeout', 10, 86400),
                ('pcs_read_timeout', 10, 86400),
                ('session_max_concurrent_power_on', 0, 1048576)]:
            self.assertEqual({name: low}, options.validate({name: low}))
            self.assertEqual({name: high}, options.validate({name: high}))
            self.assertRefused({name: low - 1}, name, 'between')
            self.assertRefused({name: high + 1}, name, 'between')

    def test_logging_level(self):
        for level in ('DEBUG', 'info', 'Warning', 'ERROR', 'critical'):
            self.assertEqual({'logging_level': level.upper()},
                             options.validate({'logging_level': level}))
        for level in ('TRACE', '', 10, None):
            self.assertRefused({'logging_level': level}, 'logging_level',
                               'one of')

    def test_session_ttl(self):
        name = 'cleanup_completed_session_ttl'
        for text in ('0', '0m', '0W', '30m', '12h', '7d', '2w', '9999999d'):
            self.assertEqual({name: text}, options.validate({name: text}))
        for text in ('', '5', '01d', '1s', '1y', 'd', '-1d', '1.5h', ' 7d',
                     '99999999d'):
            self.assertRefused({name: text}, name, repr(text))
        self.assertRefused({name: 7}, name, 'string')

    def test_component_ttl_is_at_least_an_hour(self):
        name = 'component_actual_state_ttl'
        for text in ('1h', '4H', '2d', '1w', '9999999h'):
            self.assertEqual({name: text}, options.validate({name: text}))
        for text in ('0', '0h', '30m', '4', '04h', '', '99999999h'):
            self.assertRefused({name: text}, name, 'at least one hour')
        self.assertRefused({name: None}, name, 'string')

    def test_option_error_is_a_value_error(self):
        self.assertTrue(issubclass(options.OptionError, ValueError))


class TestEffective(base.TestCase):

    def test_nothing_stored(self):
        self.assertEqual(options.DEFAULTS, options.effective({}))
        self.assertEqual(options.DEFAULTS, options.effective(None))

    def test_stored_values_win(self):
        result = options.effective({'polling_frequency': 5,
                                    'logging_level': 'warning'})
        self.assertEqual(5, result['polling_frequency'])
        self.assertEqual('WARNING', result['logging_level'])
        self.assertEqual(1200, result['max_boot_wait_time'])

    def test_illegal_stored_values_are_ignored(self):
        # BOS before 2.50 accepted "0" for this TTL; it broke the reporter.
        result = options.effective({'component_actual_state_ttl': '0',
                                    'polling_frequency': 'often',
                                    'clear_stage': 'yes',
                                    'old_removed_option': 1,
                                    'max_boot_wait_time': 600})
        self.assertEqual('4h', result['component_actual_state_ttl'])
        self.assertEqual(15, result['polling_frequency'])
        self.assertIs(False, result['clear_stage'])
        self.assertNotIn('old_removed_option', result)
        self.assertEqual(600, result['max_boot_wait_time'])

    def test_defaults_are_not_shared(self):
        options.effective({})['polling_frequency'] = 1
        self.assertEqual(15, options.DEFAULTS['polling_frequency'])


class TestDurations(base.TestCase):

    def test_session_ttl_seconds(self):
        for text, seconds in [('30m', 1800), ('12h', 43200), ('7d', 604800),
                              ('2W', 1209600), ('1M', 60)]:
            self.assertEqual(seconds, options.ttl_seconds(text), text)

    def test_session_ttl_disabled(self):
        for text in (None, '0', '0m', '0h', '0d', '0w'):
            self.assertIsNone(options.ttl_seconds(text), text)

    def test_session_ttl_invalid(self):
        exc = self.assertRaises(options.OptionError, options.ttl_seconds,
                                '7x')
        self.assertEqual('cleanup_completed_session_ttl', exc.field)

    def test_component_ttl_seconds(self):
        for text, seconds in [('1h', 3600), ('4h', 14400), ('1d', 86400),
                              ('1w', 604800)]:
            self.assertEqual(seconds, options.component_ttl_seconds(text))

    def test_component_ttl_invalid(self):
        for text in ('0', '30m', None):
            exc = self.assertRaises(options.OptionError,
                                    options.component_ttl_seconds, text)
            self.assertEqual('component_actual_state_ttl', exc.field)
