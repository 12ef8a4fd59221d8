"""The check of an agent's callback URL (common/callback_url.py) and its
option, [agent]allowed_callback_networks."""

from ironic_like.common import callback_url
from ironic_like.common import exception
from ironic_like.conf import CONF
from ironic_like.tests import base


class TestCallbackURL(base.TestCase):

    def refused(self, value, field='callback_url', *fragments):
        e = self.assertRaises(exception.InvalidParameterValue,
                              callback_url.check, value, field)
        self.assertEqual(field, e.field)
        self.assertIn('"%s"' % field, str(e))
        for fragment in fragments:
            self.assertIn(fragment, str(e))
        return str(e)

    def test_accepted(self):
        for url in ('http://10.0.0.5:9999', 'https://10.0.0.5:9999/',
                    'HTTP://agent.example:9999/ipa', 'http://[fd00::5]:9999',
                    'http://10.0.0.5'):
            self.assertEqual(url, callback_url.check(url))

    def test_missing(self):
        for value in (None, '', 5):
            e = self.assertRaises(exception.MissingParameterValue,
                                  callback_url.check, value, 'agent_url')
            self.assertEqual('agent_url', e.field)

    def test_scheme_host_userinfo(self):
        self.refused('ftp://10.0.0.5/', 'callback_url', 'http or https')
        self.refused('file:///etc/passwd', 'callback_url')
        self.refused('10.0.0.5:9999', 'callback_url')
        self.refused('http:///v1', 'agent_url', 'host')
        self.refused('http://:9999', 'callback_url', 'host')
        message = self.refused('http://admin:s3cr3t@10.0.0.5:9999',
                               'callback_url', 'user name or password')
        # The URL is not repeated: it may hold a password.
        self.assertNotIn('s3cr3t', message)
        self.refused('http://admin@10.0.0.5:9999', 'callback_url')

    def test_malformed(self):
        self.refused('http://10.0.0.5:99999', 'callback_url', 'valid URL')
        self.refused('http://10.0.0.5:0', 'callback_url', 'port 0')
        self.refused('http://10.0.0.5:9999/?x=1', 'callback_url', 'query')
        self.refused('http://10.0.0.5:9999/#x', 'callback_url', 'fragment')
        self.refused('http://10.0.0.5:9999/ a', 'callback_url', 'spaces')
        self.refused('http://10.0.0.5:9999/\n', 'callback_url')
        self.refused('http://[fd00::5:9999', 'callback_url')

    def test_allowed_networks(self):
        self.config(allowed_callback_networks=['10.0.0.0/16', 'fd00::/8'],
                    group='agent')
        for url in ('http://10.0.200.1:9999', 'http://[fd00::5]:9999/'):
            self.assertEqual(url, callback_url.check(url))
        self.refused('http://10.1.0.1:9999', 'callback_url',
                     '10.1.0.1', 'allowed_callback_networks')
        self.refused('http://[fe80::1]:9999', 'agent_url',
                     'allowed_callback_networks')
        # A name could resolve anywhere: an address is required.
        self.refused('http://agent.example:9999', 'callback_url',
                     'host name')
        self.refused('http://localhost:9999', 'callback_url')

    def test_option_normalised_and_checked(self):
        self.config(allowed_callback_networks=['10.1.2.3/8', ' fd00::/8 '],
                    group='agent')
        self.assertEqual(['10.0.0.0/8', 'fd00::/8'],
                         CONF.agent.allowed_callback_networks)
        self.assertRaises(ValueError, self.config,
                          allowed_callback_networks=['10.0.0.0/33'],
                          group='agent')
        self.assertRaises(ValueError, self.config,
                          allowed_callback_networks=['agents'],
                          group='agent')
