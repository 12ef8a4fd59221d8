"""Host OS configuration on the conductor side (doc/hostos.md)."""
