"""Saloon Showdown (seed 001): the pure rules engine (standard library and ``cards`` only)."""
