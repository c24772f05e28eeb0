"""Baltek in tests/server/patch_client_test.py: the games it plays (options, actions before resigning), and how a player chooses so that goals happen."""

# Fewer goals and a turn limit for a shorter game.
RUNS = [("goals=2 turns=60", 220)]


def choose(rng, seat, choices, position, end):
    """Seat 0 shoots when it can, and often kicks furthest forward or runs to the ball, so goals happen (a goal
    resets the field: a patch of its own kind); None: a plain random choice. `end` stands for ending the
    turn among the choices."""
    if seat != 0:
        return None
    shots = [c for c in choices if c is not end and c.startswith("@") and c.endswith("#")]
    if shots:
        return rng.choice(shots)
    kicks = [c for c in choices if c is not end and c.startswith("@")]
    if kicks and rng.random() < 0.8:
        return max(kicks, key=lambda c: c.split()[-1][0])  # towards l3, the goal seat 0 attacks
    ball = position["view"].get("ball")
    to_ball = [c for c in choices if c is not end and not c.startswith("@") and c.split()[-1] == ball]
    if to_ball and rng.random() < 0.8:
        return rng.choice(to_ball)
    return None
