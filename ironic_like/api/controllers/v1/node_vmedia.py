"""/v1/nodes/{id}/vmedia (1.89): attach an image to the node's virtual
CD-ROM, disk or floppy (POST, 204) or detach media (DELETE, 204,
``?device_types=a,b``, all when none), as Ironic answers: the node's
conductor does it in a worker, a failure goes to last_error.

``image_url`` must be http, https, nfs, cifs or smb (Ironic's schemes).
``image_download_source`` ``local`` (the default, as Ironic's) has the
conductor download the image and serve it to the BMC from its boot file
server; ``http`` (and ``swift``, for an image given by URL) has the BMC
read ``image_url`` itself, as it does for NFS and CIFS shares. GET (1.93)
lists the node's virtual media devices, read by its conductor from the
BMC.
"""

from urllib import parse

import pecan
from pecan import rest

from ironic_like.api.controllers.v1 import utils
from ironic_like.api import validation
from ironic_like.api import versions
from ironic_like.common import exception
from ironic_like.common import masking
from ironic_like.common import states

URL_SCHEMES = ('http', 'https', 'nfs', 'cifs', 'smb')
# Shares the BMC mounts itself: the conductor cannot download them.
SHARE_SCHEMES = ('nfs', 'cifs', 'smb')
BODY = {
    'type': 'object',
    'properties': {
        'device_type': {'type': 'string', 'enum': list(states.VMEDIA_DEVICES)},
        'image_url': {'type': 'string', 'minLength': 1, 'maxLength': 2048},
        'image_download_source': {'type': 'string',
                                  'enum': ['http', 'local', 'swift']},
    },
    'required': ['device_type', 'image_url'],
    'additionalProperties': False,
}
_VALIDATOR = validation.make_validator(BODY)


def _device_types(value):
    if value is None:
        return None
    types = [part.strip() for part in value.split(',') if part.strip()]
    invalid = [t for t in types if t not in states.VMEDIA_DEVICES]
    if invalid or not types:
        raise exception.InvalidParameterValue(
            err='Invalid device type(s) %s (valid are %s)'
                % (', '.join(invalid) or '(none)',
                   ', '.join(states.VMEDIA_DEVICES)), field='device_types')
    return types


def _download_source(source, scheme, image_url):
    """Where the BMC reads the image: ``local`` (the conductor downloads
    it and serves it), ``http`` (from image_url), or None: Ironic's
    default, ``local`` (the RPC client picks ``http`` while conductors
    older than 1.17 may take the call). ``swift`` is ``http`` for an
    image given by URL, as in Ironic (no Glance IDs here). An NFS or
    CIFS share is read by the BMC itself: ``local`` is refused for it
    (Ironic's message) and is not the default there."""
    if source == 'swift':
        return 'http'
    if scheme in SHARE_SCHEMES:
        if source == 'local':
            raise exception.InvalidParameterValue(
                err="image_download_source is set to 'local' but the image "
                    "URL %s uses the %s protocol which cannot be downloaded "
                    "by the conductor. Set image_download_source to 'http' "
                    "or remove it to use the default."
                    % (masking.mask_url_password(image_url), scheme),
                field='image_download_source')
        return 'http'
    return source


class NodeVmediaController(rest.RestController):

    def __init__(self, node_ident):
        self.node_ident = node_ident

    @pecan.expose('json')
    def get_all(self, **kwargs):
        utils.hide_below(versions.VMEDIA_GET)
        utils.query()
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:vmedia:get')
        # A bare list, as Ironic answers.
        return utils.rpcapi().get_virtual_media(utils.context(), node)

    @pecan.expose('json')
    def post(self, **kwargs):
        utils.query()
        body = utils.validate(_VALIDATOR, utils.load_body())
        scheme = parse.urlparse(body['image_url']).scheme
        if scheme not in URL_SCHEMES:
            raise exception.InvalidParameterValue(
                err='Unsupported or missing URL scheme: %s' % scheme,
                field='image_url')
        source = _download_source(body.get('image_download_source'),
                                  scheme, body['image_url'])
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:vmedia:attach')
        utils.rpcapi().attach_virtual_media(
            utils.context(), node, body['device_type'], body['image_url'],
            image_download_source=source)
        utils.set_status(204)

    @pecan.expose('json')
    def delete(self, **kwargs):
        params = utils.query(['device_types'])
        types = _device_types(params.get('device_types'))
        node = utils.get_authorized_node(self.node_ident,
                                         'baremetal:node:vmedia:detach')
        utils.rpcapi().detach_virtual_media(utils.context(), node, types)
        utils.set_status(204)
