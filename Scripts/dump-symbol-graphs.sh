#!/usr/bin/env bash
# Dumps the symbol graphs of every module (public symbols, without the members a type only
# inherits from protocol default implementations) with `swift package dump-symbol-graph`, which
# builds the package in debug as `swift build` does and so reuses that build, and prints the
# folder they are in.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! swift package dump-symbol-graph --skip-synthesized-members >"$log" 2>&1; then
    cat "$log" >&2
    echo "dump-symbol-graphs: swift package dump-symbol-graph failed" >&2
    exit 1
fi
folder=$(sed -n 's/^Files written to //p' "$log" | tail -1)
if [ -z "$folder" ] || [ ! -d "$folder" ]; then
    cat "$log" >&2
    echo "dump-symbol-graphs: cannot tell where the symbol graphs were written" >&2
    exit 1
fi
echo "$folder"
