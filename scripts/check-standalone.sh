#!/usr/bin/env bash
# Fails if a file of the repository reads the steering folder that sat beside it (a `shared` folder in the
# parent directory): Cinq stands alone. The rules and the record format are in docs/, the sample
# records in tests/data/records/. Lists every offending line and exits 1; exits 0 when there is none.
# Files checked: those git tracks or would track (untracked but not ignored); outside a git work tree (a copy
# of the sources), every file but build trees, data/ and node_modules/.
set -euo pipefail
cd "$(dirname "$0")/.."

# Written so that this script does not match itself.
pattern='\.\./shared|/work/[s]hared'

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files() { git ls-files -z -co --exclude-standard; }
else
  files() {
    find . -type d \( -name .git -o -path './build*' -o -path ./data -o -name node_modules \) -prune \
      -o -type f -print0
  }
fi

hits=$(files | xargs -0 -r grep -nsIE -- "$pattern" || true)
if [[ -n "$hits" ]]; then
  echo "check-standalone: these lines refer to a folder outside the repository (use docs/ or tests/data/):"
  echo "$hits"
  exit 1
fi
echo "check-standalone: no file refers to a folder outside the repository"
