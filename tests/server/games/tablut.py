"""Tablut in tests/server/patch_client_test.py: the games it plays (options, actions before resigning)."""

RUNS = [("", 120)]
