"""The database interface the rest of the service uses.

``get_instance()`` returns the one Connection of this process; only
ironic_like.db.sqlalchemy knows about SQL.
"""

_IMPL = None


def get_instance():
    global _IMPL
    if _IMPL is None:
        from ironic_like.db.sqlalchemy import api as sa_api
        _IMPL = sa_api.Connection()
    return _IMPL
