"""Verification of a module version: download its archive once, check
its sha256 and its metadata, and record the outcome on the module
(available, deprecated or error with MCC's texts)."""

import hashlib
import tempfile

from oslo_log import log
import requests

from ironic_like.common.hostos import archive
from ironic_like.common.hostos import semver
from ironic_like.conf import CONF
from ironic_like.db.sqlalchemy import hostos as hostos_db

LOG = log.getLogger(__name__)

_CHUNK = 1024 * 1024


class VerificationError(Exception):
    pass


def _download(url, fileobj):
    """Stream ``url`` into ``fileobj``; (sha256 hex, size)."""
    digest = hashlib.sha256()
    size = 0
    try:
        with requests.get(url, stream=True,
                          timeout=CONF.hostos.download_timeout) as response:
            if response.status_code != 200:
                raise VerificationError(
                    'failed to perform request to fetch the module '
                    'archive: Get "%s": %s' % (
                        url, response.reason or response.status_code))
            for chunk in response.iter_content(_CHUNK):
                size += len(chunk)
                if size > CONF.hostos.max_archive_size:
                    raise VerificationError(
                        'the module archive at %s is larger than '
                        '[hostos]max_archive_size (%d bytes)'
                        % (url, CONF.hostos.max_archive_size))
                digest.update(chunk)
                fileobj.write(chunk)
    except requests.RequestException as e:
        raise VerificationError(
            'failed to perform request to fetch the module archive: '
            'Get "%s": %s' % (url, e))
    return digest.hexdigest(), size


def inspect(module):
    """Download and check ``module``; the values to record on it."""
    with tempfile.TemporaryFile() as fileobj:
        sha256, size = _download(module.url, fileobj)
        if sha256 != module.sha256sum.lower():
            raise VerificationError(
                "hashes are not the same: got '%s' want '%s'"
                % (sha256, module.sha256sum))
        fileobj.seek(0)
        try:
            meta = archive.inspect(fileobj, module.name, module.version)
        except archive.ArchiveError as e:
            raise VerificationError('the module archive is not valid: %s'
                                    % e)
    return {'playbook': meta['playbook'],
            'values_schema': meta['values_schema'],
            'deprecates': sorted(meta['deprecates'], key=semver.sort_key),
            'archive_size': size,
            'description': module.description or meta.get('description')}


def _deprecated_by(db, module):
    """The newest other version of the module that deprecates this one."""
    newer = [m.version for m in db.list_hostos_modules({'name': module.name})
             if module.version in (m.deprecates or ())
             and m.state in hostos_db.USABLE_MODULE_STATES]
    return max(newer, key=semver.sort_key) if newer else None


def verify(db, module_id):
    """Verify a module left ``verifying``; a module another conductor
    verified meanwhile is left alone (compare-and-swap on the state)."""
    module = db.get_hostos_module_by_id(module_id)
    if module.state != hostos_db.MODULE_VERIFYING:
        return module
    try:
        values = inspect(module)
    except VerificationError as e:
        LOG.warning('Module %s %s failed verification: %s', module.name,
                    module.version, e)
        return db.update_hostos_module(
            module.id, {'state': hostos_db.MODULE_ERROR, 'error': str(e)},
            expected={'state': hostos_db.MODULE_VERIFYING}) or module
    by = _deprecated_by(db, module)
    values.update(state=(hostos_db.MODULE_DEPRECATED if by
                         else hostos_db.MODULE_AVAILABLE),
                  deprecated_by=by, error=None)
    updated = db.update_hostos_module(
        module.id, values, expected={'state': hostos_db.MODULE_VERIFYING})
    if updated is None:
        return db.get_hostos_module_by_id(module_id)
    db.deprecate_hostos_modules(module.name, values['deprecates'],
                                module.version)
    LOG.info('Module %s %s verified: %s (%d bytes)', module.name,
             module.version, updated.state, values['archive_size'])
    return updated
