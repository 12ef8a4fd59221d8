"""The "api-call" action: an HTTP GET whose answer must be a success."""

import requests
from requests import adapters
from urllib3.util import retry as urllib3_retry

from ironic_like.common import masking
from ironic_like.common.inspection_rules import errors

# Answers worth retrying (as Ironic).
RETRY_STATUSES = (429, 500, 502, 503, 504)


def _number(name, value, convert, minimum, strict=False):
    try:
        if isinstance(value, bool):
            raise ValueError
        number = convert(value)
    except (TypeError, ValueError):
        raise errors.OpError('%s must be a number, not %r' % (name, value))
    if number < minimum or (strict and number == minimum):
        raise errors.OpError('%s must be %s %s' % (
            name, 'greater than' if strict else 'at least', minimum))
    return number


def check_options(headers=None, proxies=None, timeout=5, retries=3,
                  backoff_factor=0.3):
    """The options, converted and checked; OpError if one is wrong."""
    for name, value in (('headers', headers), ('proxies', proxies)):
        if value is not None and not isinstance(value, dict):
            raise errors.OpError('%s must be a dictionary, not %s'
                                 % (name, type(value).__name__))
    return {'headers': headers or None, 'proxies': proxies or None,
            'timeout': _number('timeout', timeout, float, 0, strict=True),
            'retries': _number('retries', retries, int, 0),
            'backoff_factor': _number('backoff_factor', backoff_factor,
                                      float, 0)}


def get(url, headers=None, proxies=None, timeout=5, retries=3,
        backoff_factor=0.3):
    """GET ``url``; OpError unless the answer is a 2xx.

    Connection errors and the RETRY_STATUSES are retried ``retries``
    times, waiting ``backoff_factor`` * 2 ** (attempt - 1) seconds between
    attempts; ``timeout`` bounds each attempt.
    """
    if not isinstance(url, str) or not url:
        raise errors.OpError('url must be a non-empty string')
    options = check_options(headers, proxies, timeout, retries,
                            backoff_factor)
    shown = masking.mask_url_password(url)
    policy = urllib3_retry.Retry(
        total=options['retries'], backoff_factor=options['backoff_factor'],
        status_forcelist=RETRY_STATUSES, allowed_methods=('GET',),
        raise_on_status=False)
    with requests.Session() as session:
        adapter = adapters.HTTPAdapter(max_retries=policy)
        session.mount('http://', adapter)
        session.mount('https://', adapter)
        try:
            response = session.get(url, headers=options['headers'],
                                   proxies=options['proxies'],
                                   timeout=options['timeout'])
        except requests.RequestException as exc:
            raise errors.OpError('GET %s failed: %s'
                                 % (shown, masking.mask_text(str(exc))))
        with response:
            if not 200 <= response.status_code < 300:
                raise errors.OpError('GET %s answered %s %s' % (
                    shown, response.status_code, response.reason or ''))
