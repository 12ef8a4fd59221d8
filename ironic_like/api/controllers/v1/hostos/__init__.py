"""/v1/hostos: host OS configuration, after Mirantis's
HostOSConfiguration and HostOSConfigurationModules (doc/hostos.md).

One module per resource; version.HostOSController is mounted as
``hostos`` in the v1 controller. Like /v1/boot, these paths take no
Ironic microversion: GET /v1/hostos is their own version document.
"""
