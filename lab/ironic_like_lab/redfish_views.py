"""Answers of the lab's Redfish emulator's own views, shared by its
patches (:mod:`redfish_emulator`, :mod:`redfish_storage`): JSON and
Redfish error answers, and the wrapping of a sushy-tools view whose GET
answers a patch edits."""

import functools

# Where the emulator's tasks (firmware updates, RAID operations) live.
TASKS_PATH = '/redfish/v1/TaskService/Tasks/'


def answer(status, body=None, headers=None):
    """A JSON answer of the emulator's own views (``body`` None: an
    empty one)."""
    import json

    import flask
    return flask.Response(json.dumps(body) if body is not None else '',
                          status=status, headers=headers or {},
                          content_type='application/json')


def error(status, message):
    """An error answer, in Redfish's shape."""
    return answer(status, {'error': {'message': message}})


def edit_get_answers(app, view_name, edit):
    """Wrap sushy-tools' view ``view_name`` so that ``edit(identity,
    body)`` changes the JSON body of its successful GET answers
    (``identity`` None for a view without one); once (the wrapped view
    is marked)."""
    import json

    import flask

    view = app.view_functions.get(view_name)
    if view is None:
        # sushy-tools changed: fail loudly rather than serve it unchanged.
        raise RuntimeError('sushy-tools has no %s view; update %s'
                           % (view_name, __file__))
    if getattr(view, 'ironic_like_edited', False):
        return

    @functools.wraps(view)
    def edited(**kwargs):
        response = view(**kwargs)
        if flask.request.method != 'GET' or response.status_code != 200:
            return response
        body = json.loads(response.get_data())
        edit(kwargs.get('identity'), body)
        response.set_data(json.dumps(body))
        return response

    edited.ironic_like_edited = True
    app.view_functions[view_name] = edited
