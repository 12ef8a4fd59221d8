"""FPGA bitstreams from the image service (doc/accelerators.md, "Image
service").

A bitstream is an image whose properties say what it programs:
``accel:function_uuid``, ``accel:function_name``,
``accel:region_type_uuid`` and ``accel:vendor`` (the seed's function UUID
and name, region type UUID and vendor). Two back ends, chosen by
``[accelerators]image_service``:

``glance``
    Glance through openstacksdk: the clouds.yaml entry
    ``[accelerators]glance_cloud``, else ``[accelerators]glance_endpoint``
    reached without authentication (a standalone Glance with no auth).
``index``
    A JSON index, ``[accelerators]index_url``: a directory holding
    ``index.json`` (a local path or a ``file://`` URL), or the ``http(s)``
    URL of an ``index.json``. The index is::

        {"images": [{"id": "...", "name": "...", "file": "<relative path>",
                     "size": 123, "checksum": "<md5 or null>",
                     "os_hash_algo": "sha256", "os_hash_value": "...",
                     "properties": {"accel:function_uuid": "...", ...}}]}

    ``id`` and ``file`` are required; ``file`` is relative to the index
    (no absolute path, no ``..``). The index is read again on every call,
    so an operator edits it in place; :func:`write_index` makes one.

Every call raises :class:`~ironic_like.common.exception.BitstreamNotFound`
(404) for an image that is not there (or, in Glance, not ``active``) and
:class:`~ironic_like.common.exception.ImageServiceUnavailable` (503) when
the service cannot be reached or answers nonsense, naming the service and
the cause. :meth:`ImageService.data` streams; its caller enforces
``[accelerators]max_bitstream_size`` and checks the checksum
(``os_hash_algo``/``os_hash_value``, else the md5 ``checksum``).
"""

import hashlib
import json
import os
import posixpath
import re
import threading
import uuid
from urllib import parse

import requests

from ironic_like.common.accelerators import traits
from ironic_like.common import exception
from ironic_like.conf import CONF

FUNCTION_UUID = 'accel:function_uuid'
FUNCTION_NAME = 'accel:function_name'
REGION_TYPE_UUID = 'accel:region_type_uuid'
VENDOR = 'accel:vendor'
PROPERTY_KEYS = (FUNCTION_UUID, FUNCTION_NAME, REGION_TYPE_UUID, VENDOR)

INDEX_FILE = 'index.json'
CHUNK_SIZE = 64 * 1024

GLANCE = 'glance'
INDEX = 'index'


# -- records ---------------------------------------------------------------

class ImageRecord(object):
    """One bitstream image as the image service describes it."""

    FIELDS = ('id', 'name', 'size', 'checksum', 'os_hash_algo',
              'os_hash_value', 'properties')
    __slots__ = FIELDS

    def __init__(self, id, name=None, size=None, checksum=None,
                 os_hash_algo=None, os_hash_value=None, properties=None):
        self.id = id
        self.name = name
        self.size = size
        self.checksum = checksum
        self.os_hash_algo = os_hash_algo
        self.os_hash_value = os_hash_value
        self.properties = dict(properties or {})

    @property
    def function_uuid(self):
        return self.properties.get(FUNCTION_UUID)

    @property
    def function_name(self):
        return self.properties.get(FUNCTION_NAME)

    @property
    def region_type_uuid(self):
        return self.properties.get(REGION_TYPE_UUID)

    @property
    def vendor(self):
        return self.properties.get(VENDOR)

    def as_dict(self):
        result = {field: getattr(self, field) for field in self.FIELDS}
        result['properties'] = dict(self.properties)
        return result

    def __eq__(self, other):
        if not isinstance(other, ImageRecord):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __repr__(self):
        return 'ImageRecord(%s)' % ', '.join(
            '%s=%r' % (field, getattr(self, field)) for field in self.FIELDS)


# -- matching --------------------------------------------------------------

def _uuid_key(value):
    return str(value).strip().lower()


def _vendor_key(value):
    # Upper case, every character outside [A-Z0-9] "_" (the trait form),
    # and a well-known PCI vendor id (8086, 0x10ee...) as its name
    # (INTEL, XILINX...), as the traits name the vendor.
    return traits.vendor_name(value)


def matches(record, function_uuid=None, function_name=None,
            region_type_uuid=None, vendor=None):
    """Whether ``record``'s properties meet every criterion given (None:
    any). UUIDs compare case-insensitively, the function name exactly,
    the vendor in its normalised (trait) form."""
    props = record.properties
    checks = ((FUNCTION_UUID, function_uuid, _uuid_key),
              (FUNCTION_NAME, function_name, str),
              (REGION_TYPE_UUID, region_type_uuid, _uuid_key),
              (VENDOR, vendor, _vendor_key))
    for key, wanted, normal in checks:
        if wanted is None:
            continue
        value = props.get(key)
        if value is None or normal(value) != normal(wanted):
            return False
    return True


def _sorted(records):
    return sorted(records, key=lambda r: (r.name or '', r.id))


def _cause(error):
    text = str(error).strip()
    if not text:
        return type(error).__name__
    return text.splitlines()[0]


# -- streams ---------------------------------------------------------------

class DataStream(object):
    """An iterator of ``bytes`` chunks that releases its source (file,
    HTTP response) when exhausted, on error, or on :meth:`close` (also a
    context manager). An error while reading is raised as what
    ``on_error(error)`` returns (the error itself when that is None)."""

    def __init__(self, chunks, closer=None, on_error=None):
        self._chunks = iter(chunks)
        self._closer = closer
        self._on_error = on_error

    def __iter__(self):
        return self

    def __next__(self):
        try:
            while True:
                chunk = next(self._chunks)
                if chunk:
                    return chunk
        except StopIteration:
            self.close()
            raise
        except Exception as e:
            self.close()
            translated = self._on_error(e) if self._on_error else None
            if translated is None:
                raise
            raise translated from e

    def close(self):
        chunks, self._chunks = self._chunks, iter(())
        closer, self._closer = self._closer, None
        try:
            if hasattr(chunks, 'close'):
                chunks.close()
        finally:
            if closer is not None:
                closer()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def _file_chunks(handle):
    while True:
        chunk = handle.read(CHUNK_SIZE)
        if not chunk:
            return
        yield chunk


# -- the service -----------------------------------------------------------

class ImageService(object):
    """Where bitstreams come from; see the module's documentation."""

    #: The back end's name (``[accelerators]image_service``).
    kind = None

    @property
    def service_name(self):
        """How errors name the service."""
        raise NotImplementedError()

    def get(self, image_id):
        """The :class:`ImageRecord` of ``image_id``."""
        raise NotImplementedError()

    def find(self, function_uuid=None, function_name=None,
             region_type_uuid=None, vendor=None):
        """The records matching every criterion given (see
        :func:`matches`), sorted by name then id. No criterion: every
        usable image."""
        raise NotImplementedError()

    def data(self, image_id):
        """The image's bytes, as an iterator of chunks (a
        :class:`DataStream`). The caller bounds the size and checks the
        checksum."""
        raise NotImplementedError()

    def _unavailable(self, reason):
        if isinstance(reason, BaseException):
            reason = _cause(reason)
        return exception.ImageServiceUnavailable(
            service=self.service_name, reason=reason)


# -- the JSON index --------------------------------------------------------

_HASH_ALGOS = frozenset(hashlib.algorithms_available)


class IndexImageService(ImageService):
    """Bitstreams listed in ``index.json`` (a directory or an HTTP URL)."""

    kind = INDEX

    def __init__(self, index_url, timeout=60):
        if not index_url:
            raise exception.ImageServiceUnavailable(
                service='index', reason='[accelerators]index_url is not set')
        self.timeout = timeout
        parsed = parse.urlsplit(index_url)
        if parsed.scheme in ('http', 'https'):
            self.url = index_url
            if self.url.endswith('/'):
                self.url += INDEX_FILE
            self.path = None
        else:
            path = (parse.unquote(parsed.path) if parsed.scheme == 'file'
                    else index_url)
            if not path.endswith('.json') or os.path.isdir(path):
                path = os.path.join(path, INDEX_FILE)
            self.url = None
            self.path = os.path.abspath(path)

    @property
    def service_name(self):
        return 'index %s' % (self.url or self.path)

    # .. reading the index ..................................................

    def _read(self):
        if self.url is None:
            try:
                with open(self.path, 'rb') as f:
                    raw = f.read()
            except OSError as e:
                raise self._unavailable('cannot read the index: %s'
                                        % _cause(e))
        else:
            try:
                with requests.get(self.url, timeout=(self.timeout,
                                                     self.timeout)) as resp:
                    status, raw = resp.status_code, resp.content
            except requests.RequestException as e:
                raise self._unavailable('cannot fetch the index: %s'
                                        % _cause(e))
            if status != 200:
                raise self._unavailable('cannot fetch the index: HTTP %d'
                                        % status)
        try:
            return json.loads(raw)
        except ValueError as e:
            raise self._unavailable('malformed index: not JSON (%s)'
                                    % _cause(e))

    def _load(self):
        """[(ImageRecord, relative file)] in index order, checked."""
        doc = self._read()

        def bad(message):
            return self._unavailable('malformed index: %s' % message)

        if not isinstance(doc, dict) or not isinstance(doc.get('images'),
                                                       list):
            raise bad('the top level must be an object with an "images" '
                      'list')
        entries = []
        seen = set()
        for index, entry in enumerate(doc['images']):
            label = 'entry %d' % index
            if not isinstance(entry, dict):
                raise bad('%s is not an object' % label)
            image_id = entry.get('id')
            if not isinstance(image_id, str) or not image_id.strip():
                raise bad('%s: field "id" must be a non-empty string'
                          % label)
            label = 'entry %d (id %s)' % (index, image_id)
            if image_id in seen:
                raise bad('%s: the id is listed twice' % label)
            seen.add(image_id)
            record, path = self._entry(entry, image_id, label, bad)
            entries.append((record, path))
        return entries

    @staticmethod
    def _entry(entry, image_id, label, bad):
        def field(name, check, what, default=None):
            value = entry.get(name, default)
            if value is not None and not check(value):
                raise bad('%s: field "%s" must be %s' % (label, name, what))
            return value

        def is_str(value):
            return isinstance(value, str)

        path = entry.get('file')
        if not isinstance(path, str) or not path.strip():
            raise bad('%s: field "file" must be a non-empty string' % label)
        split = parse.urlsplit(path)
        if (split.scheme or split.netloc or path.startswith('/')
                or '\\' in path
                or '..' in posixpath.normpath(path).split('/')):
            raise bad('%s: field "file" must be a path relative to the '
                      'index, without "..": %r' % (label, path))
        name = field('name', is_str, 'a string')
        size = field('size', lambda v: (isinstance(v, int)
                                        and not isinstance(v, bool)
                                        and v >= 0),
                     'a non-negative integer')
        checksum = field('checksum', is_str, 'a string')
        algo = field('os_hash_algo', lambda v: is_str(v) and v in _HASH_ALGOS,
                     'a hashlib algorithm name (e.g. sha256, sha512)')
        value = field('os_hash_value', is_str, 'a string')
        if (algo is None) != (value is None):
            raise bad('%s: fields "os_hash_algo" and "os_hash_value" go '
                      'together' % label)
        properties = field('properties', lambda v: isinstance(v, dict),
                           'an object', default={})
        for key, prop in properties.items():
            if isinstance(prop, (dict, list)):
                raise bad('%s: field "properties": %s must be a string, '
                          'number, boolean or null' % (label, key))
        return ImageRecord(id=image_id, name=name, size=size,
                           checksum=checksum, os_hash_algo=algo,
                           os_hash_value=value,
                           properties=properties), path

    def _lookup(self, image_id):
        for record, path in self._load():
            if record.id == image_id:
                return record, path
        raise exception.BitstreamNotFound(
            image=image_id, detail=' in the %s' % self.service_name)

    # .. the interface ......................................................

    def get(self, image_id):
        return self._lookup(image_id)[0]

    def find(self, function_uuid=None, function_name=None,
             region_type_uuid=None, vendor=None):
        return _sorted(
            record for record, _path in self._load()
            if matches(record, function_uuid=function_uuid,
                       function_name=function_name,
                       region_type_uuid=region_type_uuid, vendor=vendor))

    def data(self, image_id):
        _record, path = self._lookup(image_id)
        if self.url is None:
            location = os.path.join(os.path.dirname(self.path),
                                    *path.split('/'))
            try:
                handle = open(location, 'rb')
            except OSError as e:
                raise self._unavailable('cannot read %s of image %s: %s'
                                        % (location, image_id, _cause(e)))
            return DataStream(
                _file_chunks(handle), handle.close,
                lambda e: (self._unavailable('reading %s failed: %s'
                                             % (location, _cause(e)))
                           if isinstance(e, OSError) else None))
        url = parse.urljoin(self.url, parse.quote(path))
        try:
            resp = requests.get(url, stream=True,
                                timeout=(self.timeout, self.timeout))
        except requests.RequestException as e:
            raise self._unavailable('cannot fetch %s of image %s: %s'
                                    % (url, image_id, _cause(e)))
        if resp.status_code != 200:
            resp.close()
            raise self._unavailable('cannot fetch %s of image %s: HTTP %d'
                                    % (url, image_id, resp.status_code))
        return DataStream(
            resp.iter_content(CHUNK_SIZE), resp.close,
            lambda e: (self._unavailable('reading %s failed: %s'
                                         % (url, _cause(e)))
                       if isinstance(e, requests.RequestException) else None))


def _file_name(image_id):
    return re.sub(r'[^A-Za-z0-9._-]', '_', image_id) + '.bin'


def write_index(directory, images, hash_algo='sha256'):
    """Write ``directory``/index.json and the image files; return the
    :class:`ImageRecord` list.

    ``images``: (name, data bytes, properties) tuples, optionally with a
    fourth item, the id (else a random UUID). The files are named after
    the ids; ``checksum`` is the md5 and ``os_hash_value`` the
    ``hash_algo`` digest of the data. An index already there is replaced.
    For tests, labs and benchmarks.
    """
    os.makedirs(directory, exist_ok=True)
    records = []
    entries = []
    for item in images:
        name, data, properties = item[0], item[1], item[2]
        image_id = item[3] if len(item) > 3 else str(uuid.uuid4())
        file_name = _file_name(image_id)
        with open(os.path.join(directory, file_name), 'wb') as f:
            f.write(data)
        record = ImageRecord(
            id=image_id, name=name, size=len(data),
            checksum=hashlib.md5(data, usedforsecurity=False).hexdigest(),
            os_hash_algo=hash_algo,
            os_hash_value=hashlib.new(hash_algo, data).hexdigest(),
            properties=properties)
        records.append(record)
        entries.append(dict(record.as_dict(), file=file_name))
    index = os.path.join(directory, INDEX_FILE)
    tmp = index + '.%s.tmp' % uuid.uuid4().hex
    with open(tmp, 'w') as f:
        json.dump({'images': entries}, f, indent=1, sort_keys=True)
    os.replace(tmp, index)
    return records


# -- Glance ----------------------------------------------------------------

_SDK = {}
_SDK_LOCK = threading.Lock()


def _sdk():
    """openstacksdk, imported on first use (the index back end does not
    need it), and the image resource that lists by accel: properties.

    The SDK's own Image resource drops query parameters it does not know
    (every custom property) without a word, so ``conn.image.images(**{
    'accel:vendor': ...})`` would list every image; this subclass knows
    the four properties, which Glance v2 filters on server side (exact
    match)."""
    with _SDK_LOCK:
        if not _SDK:
            import keystoneauth1.exceptions as ks_exceptions
            import openstack
            import openstack.connection
            import openstack.exceptions
            from openstack.image.v2 import image as sdk_image
            from openstack import resource

            class BitstreamImage(sdk_image.Image):
                _query_mapping = resource.QueryParameters(
                    'status', *PROPERTY_KEYS, is_hidden='os_hidden')

            _SDK.update(
                openstack=openstack, image=BitstreamImage,
                not_found=openstack.exceptions.NotFoundException,
                errors=(openstack.exceptions.SDKException,
                        ks_exceptions.ClientException,
                        requests.RequestException))
        return _SDK


def _case_variants(value):
    """The forms a UUID is likely stored in: as given, lower, upper."""
    text = str(value)
    variants = []
    for form in (text, text.lower(), text.upper()):
        if form not in variants:
            variants.append(form)
    return variants


class GlanceImageService(ImageService):
    """Bitstreams as Glance images, through openstacksdk."""

    kind = GLANCE

    def __init__(self, cloud=None, endpoint=None, timeout=60):
        self.cloud = cloud
        self.endpoint = endpoint
        self.timeout = timeout
        self._conn = None
        self._lock = threading.Lock()

    @property
    def service_name(self):
        if self.cloud:
            return 'Glance (cloud %s)' % self.cloud
        return 'Glance at %s' % self.endpoint

    def _connection(self):
        with self._lock:
            if self._conn is not None:
                return self._conn
            try:
                sdk = _sdk()
            except ImportError as e:
                raise self._unavailable('openstacksdk is not installed (%s)'
                                        % _cause(e))
            try:
                if self.cloud:
                    conn = sdk['openstack'].connect(
                        cloud=self.cloud, api_timeout=self.timeout)
                elif self.endpoint:
                    # No keystone: the "none" auth plugin and the image
                    # endpoint given (openstacksdk discovers v2 there).
                    conn = sdk['openstack'].connection.Connection(
                        auth_type='none',
                        image_endpoint_override=self.endpoint,
                        api_timeout=self.timeout)
                else:
                    raise self._unavailable(
                        'neither [accelerators]glance_cloud nor '
                        '[accelerators]glance_endpoint is set')
            except sdk['errors'] as e:
                raise self._unavailable(e)
            self._conn = conn
            return conn

    def _record(self, image):
        return ImageRecord(
            id=image.id, name=image.name, size=image.size,
            checksum=image.checksum, os_hash_algo=image.hash_algo,
            os_hash_value=image.hash_value,
            properties=dict(image.properties or {}))

    def get(self, image_id):
        conn = self._connection()
        sdk = _sdk()
        try:
            image = conn.image.get_image(image_id)
        except sdk['not_found']:
            raise exception.BitstreamNotFound(
                image=image_id, detail=' in %s' % self.service_name)
        except sdk['errors'] as e:
            raise self._unavailable(e)
        if image.status != 'active':
            raise exception.BitstreamNotFound(
                image=image_id,
                detail=' in %s: its status is %s, not active'
                % (self.service_name, image.status))
        return self._record(image)

    def _list(self, conn, query):
        """The images of one server-side query, hidden ones included."""
        found = []
        for hidden in (False, True):
            found.extend(_sdk()['image'].list(conn.image, is_hidden=hidden,
                                              **query))
        return found

    def find(self, function_uuid=None, function_name=None,
             region_type_uuid=None, vendor=None):
        conn = self._connection()
        sdk = _sdk()
        # Glance filters properties server side by exact value: the
        # function name as it is, one UUID (the function's, else the
        # region type's) in the forms it is likely stored in; the vendor
        # (any spelling) is only checked here, like every criterion again.
        query = {'status': 'active'}
        if function_name is not None:
            query[FUNCTION_NAME] = str(function_name)
        queries = [query]
        for key, value in ((FUNCTION_UUID, function_uuid),
                           (REGION_TYPE_UUID, region_type_uuid)):
            if value is not None:
                queries = [dict(query, **{key: form})
                           for form in _case_variants(value)]
                break
        images = {}
        try:
            for one in queries:
                for image in self._list(conn, one):
                    images.setdefault(image.id, image)
        except sdk['errors'] as e:
            raise self._unavailable(e)
        return _sorted(
            record for record in (self._record(image)
                                  for image in images.values()
                                  if image.status == 'active')
            if matches(record, function_uuid=function_uuid,
                       function_name=function_name,
                       region_type_uuid=region_type_uuid, vendor=vendor))

    def data(self, image_id):
        conn = self._connection()
        sdk = _sdk()
        try:
            resp = conn.image.download_image(image_id, stream=True)
            if resp.status_code >= 400:
                try:
                    sdk['openstack'].exceptions.raise_from_response(resp)
                finally:
                    resp.close()
        except sdk['not_found']:
            raise exception.BitstreamNotFound(
                image=image_id, detail=' in %s' % self.service_name)
        except sdk['errors'] as e:
            raise self._unavailable(e)
        if resp.status_code == 204:
            resp.close()
            raise exception.BitstreamNotFound(
                image=image_id,
                detail=' in %s: the image has no data' % self.service_name)
        return DataStream(
            resp.iter_content(CHUNK_SIZE), resp.close,
            lambda e: (self._unavailable('reading image %s failed: %s'
                                         % (image_id, _cause(e)))
                       if isinstance(e, sdk['errors']) else None))


# -- the configured service ------------------------------------------------

_SERVICE = {}
_SERVICE_LOCK = threading.Lock()


def _options():
    group = CONF.accelerators
    return (group.image_service, group.glance_cloud, group.glance_endpoint,
            group.index_url, group.download_timeout)


def get_service():
    """The :class:`ImageService` of ``[accelerators]``, made once per set
    of option values (a changed option gives a new one)."""
    key = _options()
    with _SERVICE_LOCK:
        service = _SERVICE.get(key)
        if service is None:
            kind, cloud, endpoint, index_url, timeout = key
            if kind == GLANCE:
                service = GlanceImageService(cloud=cloud, endpoint=endpoint,
                                             timeout=timeout)
            else:
                service = IndexImageService(index_url, timeout=timeout)
            _SERVICE.clear()
            _SERVICE[key] = service
        return service


def reset_service():
    """Forget the service made by :func:`get_service` (tests)."""
    with _SERVICE_LOCK:
        _SERVICE.clear()


def get(image_id):
    return get_service().get(image_id)


def find(function_uuid=None, function_name=None, region_type_uuid=None,
         vendor=None):
    return get_service().find(function_uuid=function_uuid,
                              function_name=function_name,
                              region_type_uuid=region_type_uuid,
                              vendor=vendor)


def data(image_id):
    return get_service().data(image_id)
