"""Boot sessions: the pure rules of a BOS v2 compatible boot service."""
