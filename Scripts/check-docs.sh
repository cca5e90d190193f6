#!/usr/bin/env bash
# CI's documentation check: every public symbol of the public modules has a documentation
# comment (Scripts/undocumented-symbols.swift lists those that do not, and says what counts),
# and every DocC catalog builds with no warning (Scripts/build-docs.sh). The symbol graphs are
# dumped once, for both.
#
#     Scripts/check-docs.sh [OUTPUT-FOLDER]        (default: .build/docs)
set -euo pipefail
cd "$(dirname "$0")/.."

# The public library products (see Scripts/build-docs.sh).
mapfile -t modules <Scripts/documented-modules.txt
graphs=$(Scripts/dump-symbol-graphs.sh)

status=0
swift Scripts/undocumented-symbols.swift "$graphs" "${modules[@]}" || status=$?
OBJECTGRAPH_SYMBOL_GRAPHS="$graphs" Scripts/build-docs.sh "$@" || status=1
if [ "$status" -ne 0 ]; then
    echo "check-docs: the documentation check failed (above)" >&2
    exit 1
fi
