"""Request context: who asks, with which roles and scope."""

from oslo_context import context


class RequestContext(context.RequestContext):
    """oslo.context's context; noauth and http_basic make admins."""

    def to_policy_values(self):
        values = super().to_policy_values()
        values.update(self._own_policy_values())
        return values

    def _own_policy_values(self):
        # The service_role rule matches the project by name.
        return {'project_id': self.project_id,
                'project_name': self.project_name}

    def policy_creds(self):
        """to_policy_values() as a plain dict, made again only when an
        attribute it depends on changed. oslo.policy takes a dict as it
        is; given the context, it copies to_policy_values() key by key
        through oslo.context's deprecation wrapper at every check, which
        warns at each read of project_name (a key oslo.context does not
        know): a tenth of the API's CPU for a POST (issue 14)."""
        key = (self.user_id, self.user_domain_id, self.project_id,
               self.project_domain_id, self.project_name, self.domain_id,
               self.system_scope, tuple(self.roles), self.is_admin_project,
               self.service_user_id, self.service_user_domain_id,
               self.service_project_id, self.service_project_domain_id,
               tuple(self.service_roles))
        cached = self.__dict__.get('_policy_creds')
        if cached is None or cached[0] != key:
            creds = dict(super().to_policy_values().items())
            creds.update(self._own_policy_values())
            cached = self._policy_creds = (key, creds)
        # A copy: oslo.policy adds 'system' to the dict it is given.
        return dict(cached[1])


def get_admin_context():
    return RequestContext(is_admin=True, roles=['admin', 'member',
                                                'reader'],
                          system_scope='all', overwrite=False)
