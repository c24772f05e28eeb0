"""Kopf oder Knopf in tests/server/patch_client_test.py: the games it plays (options, actions before resigning)."""

# A lower target for a shorter game.
RUNS = [("target=8", 160)]
