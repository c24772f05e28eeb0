"""Batik in tests/server/patch_client_test.py: the games it plays (options, actions before resigning)."""

# A single game (at most 18 drops), and a match: games after the first start from a new set.
RUNS = [("match=off", 40), ("", 30)]
