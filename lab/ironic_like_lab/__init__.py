"""The simulated deploy agent (ironic-python-agent look-alike).

One process hosts many virtual agents behind one HTTP server; see
:mod:`ironic_like_lab.simulator`.
"""
