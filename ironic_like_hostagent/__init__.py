"""The host agent: day-2 configuration of a deployed host.

A small program installed on the host (``ironic-like-host-agent``). It
heartbeats to ``POST /v1/hostos/agents/heartbeat``, receives the host's
state items (module downloads and Ansible playbooks) and runs them, then
reports each result. See ``doc/hostos.md``.

Standard library only, and nothing of the service (``ironic_like``): it
runs on hosts where the service is not installed.
"""

AGENT_VERSION = '1.0'
