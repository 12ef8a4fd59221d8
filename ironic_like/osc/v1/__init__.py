"""Commands of the baremetal API v1, one module per resource."""
