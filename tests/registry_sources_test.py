#!/usr/bin/env python3
"""The games are listed once, in rules/games.inc; bots read the games through their public views.

1. No source file lists the games, the tests' included: a file outside the places a game owns (its rules
   folder, its policy, its board module, its help page; in tests/, its test folder tests/rules/ID/, its test
   data, and a test file named for it: tests/browser/games/NAME.mjs, tests/server/games/NAME.py,
   tests/lobby/ID_room_test.cpp, tests/browser/NAME.test.mjs) that names four or more of the games as code
   (outside comments) is a list of them, and fails: tests loop over games() or the game table, and what
   they need of each game is in its own places. A game is named by its folder id (`tablut`, `kopf`), its
   name (`kopf-oder-knopf`) or its record name (`KOPF-ODER-KNOPF`).
2. No file of bots/ includes a game's header other than its public view (rules/ID/view.h), and none casts
   down to a game's state class.

Usage: registry_sources_test.py SOURCE_DIR"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1])
ids = re.findall(r"^CINQ_GAME\((\w+)\)", (ROOT / "rules/games.inc").read_text(), re.M)
failures = []

# Each game's names, read from its rules: the name() and record_name() overrides.
names = {}
for gid in ids:
    text = " ".join(p.read_text() for p in (ROOT / "rules" / gid).glob("*.cpp"))
    found = {gid}
    for key in ("name", "record_name"):
        m = re.search(r"std::string_view %s\(\) const override\s*\{\s*return \"([^\"]+)\";" % key, text)
        if m:
            found.add(m.group(1))
    names[gid] = found
    if not any(n.isupper() for n in found):
        failures.append(f"rules/{gid}: record_name() not found")

CODE = {".cpp", ".h", ".js", ".mjs", ".py", ".sh", ".txt", ".cmake", ".inc"}
SKIP_DIRS = {"build", "build-asan", "node_modules", ".git", "data", "docs", "artifacts"}


def owned(rel, gid):
    """Whether `rel` is a place that belongs to game `gid` (it may name others there)."""
    spellings = names[gid]
    parts = rel.parts
    return (
        (parts[0] == "rules" and len(parts) > 2 and parts[1] == gid)
        or (parts[0] == "bots" and rel.name.startswith(gid + "_"))
        or (parts[:2] in (("web-client", "boards"), ("web-client", "help")) and rel.stem in spellings)
        or (parts[0] == "tests" and len(parts) > 2 and parts[1] == "rules" and parts[2] == gid)
        or (parts[0] == "tests" and (rel.name.split(".")[0] in spellings or rel.name.startswith(gid + "_")))
    )


def code_only(text, suffix):
    """The text without comments and prose strings' words that are not names (approximately)."""
    if suffix in (".py", ".sh", ".txt", ".cmake"):
        text = re.sub(r'"""[\s\S]*?"""', "", text)
        text = re.sub(r"(?m)#(?![!=-]).*$", "", text) if suffix != ".txt" else re.sub(r"(?m)^\s*#.*$", "", text)
    else:
        text = re.sub(r"/\*[\s\S]*?\*/", "", text)
        text = re.sub(r"(?m)(?<![:'\"`])//.*$", "", text)
    return text


ALLOWED = {pathlib.Path("rules/games.inc"), pathlib.Path("tests/registry_sources_test.py")}
for path in sorted(ROOT.rglob("*")):
    rel = path.relative_to(ROOT)
    if not path.is_file() or path.suffix not in CODE and path.name != "CMakeLists.txt":
        continue
    # Build folders by any name (build-*, as scripts make them) hold generated files, not sources.
    if set(rel.parts[:-1]) & SKIP_DIRS or rel.parts[0].startswith("build") or rel in ALLOWED:
        continue
    text = code_only(path.read_text(errors="replace"), path.suffix)
    named = []
    for gid in ids:
        if owned(rel, gid):
            continue
        pattern = r"(?<![A-Za-z0-9-])(%s)(?![A-Za-z0-9-])" % "|".join(re.escape(n) for n in names[gid])
        if re.search(pattern, text):
            named.append(gid)
    if len(named) >= 4:
        failures.append(f"{rel}: names {', '.join(named)}: a list of the games (use games() or the game table)")

# The bots read the games through their public views only.
for path in sorted((ROOT / "bots").glob("*")):
    text = path.read_text()
    for inc in re.findall(r'#include "rules/(\w+)/([\w.]+)"', text):
        if inc[1] != "view.h":
            failures.append(f"bots/{path.name}: includes rules/{inc[0]}/{inc[1]} (only rules/GAME/view.h)")
    for cast in re.findall(r"(?:dynamic|static)_cast<const \w*State\s*&>", text):
        failures.append(f"bots/{path.name}: casts down to a game's state ({cast})")

for failure in failures:
    print(failure)
print(f"{len(ids)} games; {'FAIL' if failures else 'ok'}")
sys.exit(1 if failures else 0)
