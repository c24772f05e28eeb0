#!/usr/bin/env python3
"""An independent, slow reference of Bi-litaire's move generation (docs/rules/bilitaire.md),
written from the rules text alone, to check the C++ engine's counts.

  python3 reference.py perft DEPTH            perft from the start (action sequences, turn ends included)
  python3 reference.py check < positions      for each line `trays marbles phase announced`, prints the
                                              sorted legal action texts (`|`-separated)
"""
import sys

# Slots (col, row) 0..3; holes (col, row) 0..7. A tray on slot (c, r) carries holes 2c..2c+1 x 2r..2r+1.
DIRS = {'>': (1, 0), '<': (-1, 0), '^': (0, 1), 'v': (0, -1)}


def slot_name(c, r):
    return "ABCD"[c] + str(r + 1)


def hole_name(c, r):
    return "abcdefgh"[c] + str(r + 1)


class Pos:
    def __init__(self, trays, marbles, phase, announced=0):
        self.trays = set(trays)      # {(c, r)}
        self.marbles = set(marbles)  # {(c, r)} holes
        self.phase = phase           # first | tray | done | marbles
        self.announced = announced

    def copy(self):
        return Pos(self.trays, self.marbles, self.phase, self.announced)

    def is_hole(self, h):
        c, r = h
        return 0 <= c < 8 and 0 <= r < 8 and (c // 2, r // 2) in self.trays


def start():
    trays = [(c, r) for c in range(4) for r in range(4) if (c, r) not in [(0, 0), (3, 0), (0, 3), (3, 3)]]
    marbles = [(2 * c + i, 2 * r + j) for (c, r) in trays for i in range(2) for j in range(2)]
    return Pos(trays, marbles, "first")


def pushes(p):
    out = []
    for (c, r) in sorted(p.trays):
        for mark, (dx, dy) in DIRS.items():
            group = []
            x, y = c, r
            while (x, y) in p.trays:
                group.append((x, y))
                x, y = x + dx, y + dy
            if len(group) > 3:
                continue
            for n in range(1, 4 - len(group) + 1):
                # the n slots ahead of the front tray must exist and be free
                fx, fy = group[-1]
                ok = all(0 <= fx + i * dx < 4 and 0 <= fy + i * dy < 4 and (fx + i * dx, fy + i * dy) not in p.trays
                         for i in range(1, n + 1))
                if ok:
                    out.append(((c, r), mark, n, group))
    return out


def apply_push(p, group, dx, dy, n):
    q = p.copy()
    moved = [h for h in p.marbles if (h[0] // 2, h[1] // 2) in group]
    q.trays = (p.trays - set(group)) | {(x + n * dx, y + n * dy) for (x, y) in group}
    q.marbles = (p.marbles - set(moved)) | {(x + 2 * n * dx, y + 2 * n * dy) for (x, y) in moved}
    return q


def chains_from(p, start_hole, length):
    """Chains of exactly `length` jumps (length 0: every chain, any length) as lists of holes."""
    out = []

    def walk(marbles, at, path):
        if length and len(path) - 1 == length:
            out.append(list(path))
            return
        if not length and len(path) > 1:
            out.append(list(path))
        for dx, dy in DIRS.values():
            over = (at[0] + dx, at[1] + dy)
            land = (at[0] + 2 * dx, at[1] + 2 * dy)
            if over in marbles and p.is_hole(land) and land not in marbles:
                path.append(land)
                walk(marbles - {over}, land, path)
                path.pop()

    walk(p.marbles - {start_hole}, start_hole, [start_hole])
    return out


def longest(p):
    best = 0
    for h in p.marbles:
        for ch in chains_from(p, h, 0):
            best = max(best, len(ch) - 1)
    return best


def has_jump(p):
    return any(chains_from(p, h, 1) for h in p.marbles)


def legal(p):
    """(text, next position, round over) for every legal action; text '' is the end of the turn."""
    out = []
    if p.phase == "first":
        for h in sorted(p.marbles):
            q = p.copy()
            q.marbles.discard(h)
            q.phase = "tray"
            out.append(("x " + hole_name(*h), q, False))
    elif p.phase == "tray":
        for (slot, mark, n, group) in pushes(p):
            dx, dy = DIRS[mark]
            q = apply_push(p, group, dx, dy, n)
            q.phase = "done"
            out.append((slot_name(*slot) + " " + mark + str(n), q, False))
        for s in sorted(p.trays):
            if not any((h[0] // 2, h[1] // 2) == s for h in p.marbles):
                q = p.copy()
                q.trays.discard(s)
                q.phase = "done"
                out.append(("x " + slot_name(*s), q, False))
    elif p.phase == "done":
        for k in range(2, longest(p) + 1):
            q = p.copy()
            q.phase, q.announced = "marbles", k
            out.append(("!" + str(k), q, False))
        q = p.copy()
        q.phase, q.announced = "marbles", 0
        out.append(("", q, not has_jump(p)))
    elif p.phase == "marbles":
        for h in sorted(p.marbles):
            for ch in chains_from(p, h, p.announced or 1):
                q = p.copy()
                q.marbles.discard(ch[0])
                for a, b in zip(ch, ch[1:]):
                    q.marbles.discard(((a[0] + b[0]) // 2, (a[1] + b[1]) // 2))
                q.marbles.add(ch[-1])
                q.phase, q.announced = "tray", 0
                out.append((" ".join(hole_name(*x) for x in ch), q, False))
    return out


def perft(p, depth):
    if depth == 0:
        return 1
    moves = legal(p)
    if depth == 1:
        return len(moves)
    # A round that ends moves on to a fresh round; counting stays within round 1 at these depths.
    return sum(perft(q, depth - 1) if not over else 1 for (_, q, over) in moves)


def parse(line):
    trays_bits, marble_bits, phase, announced = line.split()
    trays_bits, marble_bits = int(trays_bits), int(marble_bits)
    trays = [(s % 4, s // 4) for s in range(16) if trays_bits >> s & 1]
    marbles = [(h % 8, h // 8) for h in range(64) if marble_bits >> h & 1]
    return Pos(trays, marbles, phase, int(announced))


if __name__ == "__main__":
    if sys.argv[1] == "perft":
        print(perft(start(), int(sys.argv[2])))
    else:
        for line in sys.stdin:
            if line.strip():
                print("|".join(sorted(t for (t, _, _) in legal(parse(line)))))
