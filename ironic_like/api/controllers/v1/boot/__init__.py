"""/v1/boot: boot sessions, the shape of Cray BOS v2 (doc/boot-sessions.md).

One module per resource; version.BootController is mounted as ``boot`` in
the v1 controller.
"""
