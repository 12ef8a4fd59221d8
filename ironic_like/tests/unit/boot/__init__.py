"""Unit tests of the boot session rules (ironic_like.common.boot)."""
