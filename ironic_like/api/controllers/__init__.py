"""Pecan controllers: routing, policy and RPC; views render, schemas
validate."""
