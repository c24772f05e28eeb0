#!/usr/bin/env python3
"""An independent, naive Tablut perft (docs/rules/tablut.md), to cross-check the C++ walk.

Written from the rules file alone, sharing no code with rules/tablut: a board is a dict of squares, every
move copies it. Run by hand: `python3 tests/data/tablut/perft_reference.py [MAX_DEPTH]`; its figures are
pinned in tests/rules/tablut/perft_test.cpp. Up to depth 3: seconds; every case (depth 4): about ten minutes.
"""
import sys

COLS = "abcdefghi"
CORNERS = {(0, 0), (0, 8), (8, 0), (8, 8)}  # (col, row), row 0 = row 1
THRONE = (4, 4)

START = """
  9   # . . A A A . . #
  8   . . . . A . . . .
  7   . . . . D . . . .
  6   A . . . D . . . A
  5   A A D D K D D A A
  4   A . . . D . . . A
  3   . . . . D . . . .
  2   . . . . A . . . .
  1   # . . A A A . . #
"""


def parse(diagram):
    board = {}
    for line in diagram.strip("\n").splitlines():
        parts = line.split()
        if not parts or not parts[0].isdigit():
            continue
        r = int(parts[0]) - 1
        for c, ch in enumerate(parts[1:]):
            if ch in "ADK":
                board[(c, r)] = ch
    return board


class Game:
    def __init__(self, armed=True, special=True):
        self.armed, self.special = armed, special

    def side_of(self, piece):
        return "A" if piece == "A" else "D"

    def moves(self, board, side):
        out = []
        for (c, r), p in board.items():
            if self.side_of(p) != side:
                continue
            for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                x, y = c + dc, r + dr
                while 0 <= x < 9 and 0 <= y < 9 and (x, y) not in board:
                    may_stop = p == "K" or ((x, y) not in CORNERS and not (self.special and (x, y) == THRONE))
                    if may_stop:
                        out.append(((c, r), (x, y)))
                    x, y = x + dc, y + dr
        return out

    def hostile(self, board, sq, victim):
        """Is `sq` hostile to a soldier of kind `victim` ('A' or 'D')?"""
        if not (0 <= sq[0] < 9 and 0 <= sq[1] < 9):
            return False
        if sq in CORNERS:
            return True
        p = board.get(sq)
        if victim == "D":
            if p == "A":
                return True
            return self.special and sq == THRONE and p is None
        if p == "D" or (p == "K" and self.armed):
            return True
        return self.special and sq == THRONE and p is None

    def play(self, board, side, move):
        """The new board and the captured squares."""
        frm, to = move
        b = dict(board)
        piece = b.pop(frm)
        b[to] = piece
        taken = []
        if piece == "K" and not self.armed:
            return b, taken
        for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            n = (to[0] + dc, to[1] + dr)
            far = (to[0] + 2 * dc, to[1] + 2 * dr)
            q = b.get(n)
            if q is None:
                continue
            if side == "A" and q == "D" and self.hostile(b, far, "D"):
                taken.append(n)
            if side == "D" and q == "A" and self.hostile(b, far, "A"):
                taken.append(n)
            if side == "A" and q == "K":
                kc, kr = n
                if 0 < kc < 8 and 0 < kr < 8:
                    around = [(kc + 1, kr), (kc - 1, kr), (kc, kr + 1), (kc, kr - 1)]
                    if all(b.get(s) == "A" or (self.special and s == THRONE) for s in around):
                        taken.append(n)
        for s in taken:
            del b[s]
        return b, taken


# The positions of tests/rules/tablut/perft_test.cpp.
MID = """
  9   # . . A . A . . #
  8   . . . . A . . . .
  7   . . D . . . D . .
  6   A . . . D A . . A
  5   A A . D K . D A .
  4   . . . A D . . . A
  3   . . D . . . . . .
  2   . . . . A . . D .
  1   # A . . A A . . #
"""
KING = """
  9   # . . . . . . . #
  8   . . . A A . . . .
  7   . D . . . . . A .
  6   . . . . . A . . .
  5   A . . D + K . A D
  4   . . . . . A D . .
  3   . . A . . . . D .
  2   . . . . D . . . .
  1   # . . . . . A . #
"""
ESCAPE = """
  9   # . . . . . . . #
  8   . . A D . . . . .
  7   . K . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . D . . A . .
  3   . . . . . . . . .
  2   . . A . . . D . .
  1   # . . . . . . A #
"""
BLOCK = """
  9   # . . . . . . . #
  8   D . . . . . . . .
  7   A A . . . . . . .
  6   . . . . . . . . .
  5   . . . . + . . . .
  4   . . . . . . . . .
  3   . . . . . . . . .
  2   . . A . . . . . .
  1   # A K A . . . . #
"""
# Back and forth from the start: the position reached is a second occurrence, and a third comes at ply 3.
SHUFFLE = ("d1 d2", "e3 d3", "d2 d1", "d3 e3", "d1 d2")
OPTIONS = [(), ("king=unarmed",), ("throne=plain",), ("king=unarmed", "throne=plain")]
CASES = (
    [("start", START, "A", (), d, ()) for d in (1, 2, 3, 4)]
    + [("start", START, "D", ("first=defenders",), d, ()) for d in (1, 2, 3, 4)]
    + [("start", START, "A", o, 3, ()) for o in OPTIONS[1:]]
    + [("shuffle", START, "A", (), 4, SHUFFLE)]
    + [(n, p, s, o, d, ()) for n, p in (("mid", MID), ("king", KING), ("escape", ESCAPE))
       for s in "AD" for o in OPTIONS for d in (3, 4)]
    + [("block", BLOCK, s, (), d, ()) for s in "AD" for d in (1, 2, 3, 4)]
)


def key(board, side):
    return (tuple(sorted(board.items())), side)


def perft(game, board, side, history, depth, root=True):
    """history: keys since the last capture, the current position's last."""
    if depth == 0:
        return 1
    moves = game.moves(board, side)
    if not moves:
        return 0 if root else 1  # blocked: the game ended on the move into here
    if depth == 1:
        return len(moves)
    other = "D" if side == "A" else "A"
    total = 0
    for m in moves:
        b, taken = game.play(board, side, m)
        k = key(b, other)
        h = [k] if taken else history + [k]
        king = [s for s, p in b.items() if p == "K"]
        over = not king or king[0] in CORNERS or h.count(k) >= 3
        total += 1 if over else perft(game, b, other, h, depth - 1, False)
    return total


def run(name, diagram, side, options, depth, prefix=()):
    game = Game(armed="king=unarmed" not in options, special="throne=plain" not in options)
    board = parse(diagram)
    history = [key(board, side)]
    for text in prefix:  # moves played first, as "e2 c2"
        f, t = text.split()
        sq = lambda s: (COLS.index(s[0]), int(s[1]) - 1)
        board, taken = game.play(board, side, (sq(f), sq(t)))
        side = "D" if side == "A" else "A"
        k = key(board, side)
        history = [k] if taken else history + [k]
    n = perft(game, board, side, history, depth)
    print(f"{name:12} {side} {' '.join(options) or '-':28} depth {depth}: {n}", flush=True)


if __name__ == "__main__":
    max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    for name, diagram, side, options, depth, prefix in CASES:
        if depth <= max_depth:
            run(name, diagram, side, options, depth, prefix)
