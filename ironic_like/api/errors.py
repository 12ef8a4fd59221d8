"""Ironic's error body, built in one place.

Ironic answers errors with ``{"error_message": "<JSON text>"}`` where the
text is itself a JSON document ``{"faultstring", "faultcode",
"debuginfo"}``: clients (python-ironicclient, openstacksdk) decode it
twice, so the double encoding is kept on purpose.
"""

import http.client
import json

from ironic_like.common import exception
from ironic_like.common import masking

# Prefix Ironic puts before a message about one request field.
FIELD_PREFIX = 'Invalid input for field/attribute %s. '


def fault_body(status, message):
    """The bytes of an error response body for ``status``."""
    fault = {
        'faultstring': message,
        'faultcode': 'Client' if status < 500 else 'Server',
        'debuginfo': None,
    }
    return json.dumps({'error_message': json.dumps(fault)}).encode('utf-8')


def is_fault_body(body):
    """True if ``body`` (bytes) is already in Ironic's error shape."""
    try:
        doc = json.loads(body)
    except ValueError:
        return False
    return isinstance(doc, dict) and 'error_message' in doc


def message_for(error):
    """User text of our exception: the field it is about goes first, as
    Ironic does, so a client can tell which input was wrong. Secrets a
    message quotes (a password in a URL, "password=...") are masked: the
    text is logged as well."""
    message = masking.mask_text(exception.safe_message(error))
    field = getattr(error, 'field', None)
    if field and not message.startswith(FIELD_PREFIX % field):
        message = FIELD_PREFIX % field + message
    return message


def reason_phrase(status):
    return http.client.responses.get(status, 'Error')
