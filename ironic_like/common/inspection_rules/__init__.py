"""Inspection rules (API 1.96, migrated from ironic-inspector).

A pure engine: no database, no conductor, no web framework. The API
validates rule bodies with :func:`validation.validate_rule`; the conductor
loads the built-in rules with :func:`engine.load_rules_file`, applies the
rules with :func:`engine.apply_rules` to an in-memory
:class:`engine.NodeChanges` and writes the differences afterwards.

Modules, one concern each:

* ``errors`` -- the exceptions the engine raises.
* ``arguments`` -- the argument signature of an operation; named (dict) or
  deprecated positional (list) ``args``.
* ``paths`` -- "/a/b" and "a.b" paths into nested dictionaries.
* ``masked`` -- read-only views of the inspection data with secrets masked.
* ``interpolation`` -- "{inventory[...]}" formatting of arguments.
* ``operators`` -- the conditions.
* ``changes`` -- NodeChanges, the node state the actions edit.
* ``actions`` and ``api_call`` -- the actions.
* ``validation`` -- checks and normalizes a rule body.
* ``engine`` -- runs rules; loads the built-in rules file.
"""
