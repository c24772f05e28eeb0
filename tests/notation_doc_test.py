#!/usr/bin/env python3
"""docs/notation.md's table of side letters says what the games' rules say: a row for every game of the
registry (`cinq games --json`, the server's game table) and none other, each with the game's title, its
record name (the `#!` line's) and its two side letters with their names, side 0 first.

Usage: notation_doc_test.py CINQ_BINARY SOURCE_DIR"""
import json
import pathlib
import re
import subprocess
import sys

games = json.loads(subprocess.run([sys.argv[1], "games", "--json"], check=True, capture_output=True,
                                  text=True).stdout)["games"]
doc = (pathlib.Path(sys.argv[2]) / "docs/notation.md").read_text()
section = doc.split("## Side letters", 1)[1].split("\n## ", 1)[0]
rows = {}
for line in section.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) >= 4 and cells[0] not in ("game", "") and not set(cells[0]) <= set("-"):
        rows[cells[0]] = cells

failures = []
for game in games:
    row = rows.pop(game["title"], None)
    if row is None:
        failures.append(f"{game['title']}: no row in docs/notation.md's table of side letters")
        continue
    if row[1] != f"`{game['record_name']}`":
        failures.append(f"{game['title']}: record name {row[1]}, the rules say `{game['record_name']}`")
    for cell, side in zip(row[2:4], game["sides"]):
        m = re.fullmatch(r"`(\w)` (.+)", cell)
        if not m or m.group(1) != side["letter"] or m.group(2).lower() != side["name"].lower():
            failures.append(f"{game['title']}: side {cell!r}, the rules say `{side['letter']}` {side['name']}")
for title in rows:
    failures.append(f"{title}: a row in docs/notation.md for no game of the registry")

for failure in failures:
    print(failure)
print(f"{len(games)} games; {'FAIL' if failures else 'ok'}")
sys.exit(1 if failures else 0)
