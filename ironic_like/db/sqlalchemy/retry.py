"""api._retried for the modules api.py imports (the mixins of
Connection), which cannot import api at their own import time."""

import functools


def lazily_retried(method):
    """``method`` under api._retried (a deadlock or a dropped connection:
    the short transaction is tried again), built at the first call and
    kept: hot paths such as node locks pay for it once."""
    built = []

    @functools.wraps(method)
    def wrapper(*args, **kwargs):
        if not built:
            from ironic_like.db.sqlalchemy import api
            built.append(api._retried(method))
        return built[0](*args, **kwargs)
    return wrapper
