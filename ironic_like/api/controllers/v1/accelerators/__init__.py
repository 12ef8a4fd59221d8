"""/v1/accelerators: the PCI accelerators of nodes (doc/accelerators.md),
read-only: devices, deployables and attach handles.

version.AcceleratorsController is mounted as ``accelerators`` in the v1
controller; node.NodeAcceleratorsController is /v1/nodes/{node}/
accelerators (the node's accelerators, and re-inventory on demand). Like
/v1/hostos, these paths take no Ironic microversion: GET /v1/accelerators
is their own version document.
"""
