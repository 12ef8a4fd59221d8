"""/v1/accelerators/devices, /deployables and /attach_handles: list
(with filters) and show. Read-only: the records are written by discovery
and by os_acc's plug and unplug, never through the API."""

import pecan
from pecan import rest

from ironic_like.api.controllers.v1.accelerators import common
from ironic_like.api.controllers.v1 import utils

DEVICE_PARAMS = ('node', 'type', 'vendor', 'in_use', 'status')
DEPLOYABLE_PARAMS = ('node', 'device', 'type', 'vendor')
ATTACH_HANDLE_PARAMS = ('node', 'device', 'in_use')


class _ResourceController(rest.RestController):
    """A read-only collection of accelerator records."""

    # The collection's path segment and key, the record's kind in
    # messages, the query parameters it filters by.
    resource = None
    kind = None
    params = ()

    def _list(self, db, filters, project):
        raise NotImplementedError()

    def _get(self, db, uuid):
        raise NotImplementedError()

    @pecan.expose('json')
    def get_all(self, **kwargs):
        params = utils.query(self.params)
        project = common.list_scope()
        filters = common.filters_of(params, self.params)
        items = self._list(utils.dbapi(), filters, project)
        items = common.visible(items, project)
        return {self.resource: common.render_all(items, self.resource)}

    @pecan.expose('json')
    def get_one(self, uuid, **kwargs):
        utils.query()
        db = utils.dbapi()
        item = common.get_item(self.kind,
                               lambda ident: self._get(db, ident), uuid)
        return common.render(item, self.resource)


class DevicesController(_ResourceController):
    """/v1/accelerators/devices: one card each, by its PF address."""

    resource = 'devices'
    kind = 'device'
    params = DEVICE_PARAMS

    def _list(self, db, filters, project):
        return db.list_accelerator_devices(filters, project)

    def _get(self, db, uuid):
        return db.get_accelerator_device(uuid)


class DeployablesController(_ResourceController):
    """/v1/accelerators/deployables: the device > region > function
    trees."""

    resource = 'deployables'
    kind = 'deployable'
    params = DEPLOYABLE_PARAMS

    def _list(self, db, filters, project):
        return db.list_accelerator_deployables(filters, project)

    def _get(self, db, uuid):
        return db.get_accelerator_deployable(uuid)


class AttachHandlesController(_ResourceController):
    """/v1/accelerators/attach_handles: one per exposed PCI function."""

    resource = 'attach_handles'
    kind = 'attach handle'
    params = ATTACH_HANDLE_PARAMS

    def _list(self, db, filters, project):
        return db.list_accelerator_attach_handles(filters, project)

    def _get(self, db, uuid):
        return db.get_accelerator_attach_handle(uuid)
