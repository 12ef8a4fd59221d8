"""Secret masking (oslo.utils' mask_dict_password / mask_password, plus
URL passwords and "passwd" keys) as API answers and log lines use it."""

import testtools

from ironic_like.common import masking

MASK = '******'


class TestMaskDict(testtools.TestCase):

    def test_secret_keys_at_any_depth(self):
        info = {'ipmi_password': 'p1', 'redfish_password': 'p2',
                'ipmi_passwd': 'p3', 'auth_token': 't', 'nested': {
                    'client_secret': 's', 'user': 'admin'},
                'configdrive': 'H4sI...', 'ipmi_address': '10.0.0.1',
                'port': 623}
        masked = masking.mask_dict(info)
        self.assertEqual({'ipmi_password': MASK, 'redfish_password': MASK,
                          'ipmi_passwd': MASK, 'auth_token': MASK,
                          'nested': {'client_secret': MASK,
                                     'user': 'admin'},
                          'configdrive': MASK, 'ipmi_address': '10.0.0.1',
                          'port': 623}, masked)
        # The input is left alone.
        self.assertEqual('p1', info['ipmi_password'])

    def test_passwords_inside_values(self):
        info = {'redfish_address': 'https://admin:hunter2@bmc:8000/x',
                'images': ['http://u:p%40ss@store/img', 'http://store/a@b'],
                'cmd': '--password hunter3'}
        masked = masking.mask_dict(info)
        self.assertEqual('https://admin:******@bmc:8000/x',
                         masked['redfish_address'])
        self.assertEqual(['http://u:******@store/img', 'http://store/a@b'],
                         masked['images'])
        self.assertNotIn('hunter3', masked['cmd'])

    def test_nothing_to_mask_is_not_copied(self):
        info = {'ipmi_address': '10.0.0.1', 'deploy_kernel': 'http://x/k',
                'nested': {'a': [1, 'b']}}
        self.assertIs(info, masking.mask_dict(info))
        self.assertIsNone(masking.mask_dict(None))
        self.assertEqual([], masking.mask_dict([]))


class TestMaskText(testtools.TestCase):

    def test_messages(self):
        for text, secret in [
                ('BMC at https://admin:hunter2@10.0.0.1:8000 failed',
                 'hunter2'),
                ('ipmitool -U admin password=hunter2 power on', 'hunter2'),
                ('{"redfish_password": "hunter2", "a": 1}', 'hunter2'),
                ("'auth_token': 'abcdef'", 'abcdef')]:
            masked = masking.mask_text(text)
            self.assertNotIn(secret, masked)
            self.assertIn(MASK, masked)

    def test_plain_messages_unchanged(self):
        for text in ('Node 1 is locked by host-a', 'http://host:80/x@y',
                     'the agent token is missing'):
            self.assertEqual(text, masking.mask_text(text))
