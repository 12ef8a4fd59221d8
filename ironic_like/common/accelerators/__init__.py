"""Accelerators: the pure rules (no database, no network).

pci: PCI addresses (BDF) normalised; traits: the trait and resource class
names a device is offered under; inventory: the agent's ``accelerators``
list checked, normalised, laid out as deployables and attach handles, and
diffed against what is stored; specs: a flavor's extra specs read as an
accelerator request. See doc/accelerators.md.
"""
