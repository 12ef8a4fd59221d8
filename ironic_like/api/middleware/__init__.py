"""WSGI middleware around the pecan application (see api/app.py for the
order they are stacked in)."""
