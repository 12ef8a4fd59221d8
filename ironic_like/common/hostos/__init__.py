"""Host OS configuration: the pure rules (no database, no network).

selector: Kubernetes label selectors over node labels; semver: module
versions; items: the state items a configuration derives for a node, their
names, hashes, order and states; values: values checked against a module's
JSON schema; archive: reading and building module archives. See
doc/hostos.md.
"""
