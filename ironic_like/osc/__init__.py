"""The ``openstack baremetal ...`` commands (an OpenStackClient plugin).

plugin.py is what OpenStackClient loads (entry point
``openstack.cli.extension``); client.py speaks the /v1 API over the
keystoneauth session OpenStackClient builds; v1/ holds one module of
commands per resource.
"""
