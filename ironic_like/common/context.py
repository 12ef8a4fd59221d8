"""Request context: who asks, with which roles and scope."""

from oslo_context import context


class RequestContext(context.RequestContext):
    """oslo.context's context; noauth and http_basic make admins."""

    def to_policy_values(self):
        values = super().to_policy_values()
        values['project_id'] = self.project_id
        # The service_role rule matches the project by name.
        values['project_name'] = self.project_name
        return values


def get_admin_context():
    return RequestContext(is_admin=True, roles=['admin', 'member',
                                                'reader'],
                          system_scope='all', overwrite=False)
