#!/usr/bin/env bash
# Builds the reference documentation of every public module into one static web site:
#
#     Scripts/build-docs.sh [--hosting-base-path PATH] [OUTPUT-FOLDER]   (default: .build/docs)
#
# Each module's catalog (Sources/<Module>/<Module>.docc) is converted by the toolchain's own
# `docc` from the symbol graphs `swift package dump-symbol-graph` writes (no package is fetched,
# so no swift-docc-plugin), and the archives are merged into one site whose first page links
# every module. Any `docc` warning fails the script, listed. Open the site through a web server
# (a static DocC site loads its pages with JavaScript, which browsers refuse from file://):
#
#     python3 -m http.server --directory .build/docs 8000   # then http://localhost:8000/documentation/
#
# The site's pages name their scripts from the server's root; to serve it under a path instead
# (https://example.com/objectgraph/documentation/), build it with --hosting-base-path objectgraph.
#
# OBJECTGRAPH_SYMBOL_GRAPHS=DIR reuses symbol graphs already dumped into DIR (Scripts/check-docs.sh
# does, so CI dumps them once).
set -euo pipefail
cd "$(dirname "$0")/.."

# The public library products, each with a catalog Sources/<Module>/<Module>.docc; a module
# comes after the modules it depends on.
mapfile -t modules <Scripts/documented-modules.txt
base_path=
if [ "${1:-}" = "--hosting-base-path" ]; then
    [ $# -ge 2 ] || { echo "usage: Scripts/build-docs.sh [--hosting-base-path PATH] [OUTPUT-FOLDER]" >&2; exit 2; }
    base_path=$2
    shift 2
fi
output=${1:-.build/docs}
work=.build/docs-work

docc=$(command -v docc || true)
if [ -z "$docc" ]; then
    docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
fi
[ -x "$docc" ] || { echo "build-docs: no docc beside $(command -v swift)" >&2; exit 2; }

graphs=${OBJECTGRAPH_SYMBOL_GRAPHS:-}
if [ -z "$graphs" ]; then
    graphs=$(Scripts/dump-symbol-graphs.sh)
fi

rm -rf "$work"
mkdir -p "$work"
# The catalogs are converted from copies, so that the diagrams of the models in Models/ (drawn
# by the objectgraph tool just built, with Graphviz's dot) join the ObjectGraph catalog's
# images (its ExampleModels article shows them) without touching the source tree.
for module in "${modules[@]}"; do
    mkdir -p "$work/catalogs"
    cp -R "Sources/$module/$module.docc" "$work/catalogs/"
done
tool="$(swift build --show-bin-path)/objectgraph"
[ -x "$tool" ] || swift build --product objectgraph >&2
mkdir -p "$work/catalogs/ObjectGraph.docc/Resources"
for model in Models/*.xcdatamodeld; do
    name=$(basename "$model" .xcdatamodeld)
    "$tool" diagram --model "$model" --format png \
        --output "$work/catalogs/ObjectGraph.docc/Resources/$name-diagram.png" || {
        echo "build-docs: could not draw the diagram of $model (is Graphviz's dot installed?)" >&2
        exit 1
    }
done
status=0
for module in "${modules[@]}"; do
    # The module's own symbols and its extensions to other modules' types, nothing else.
    mkdir -p "$work/graphs/$module"
    cp "$graphs/$module.symbols.json" "$work/graphs/$module/"
    for extension in "$graphs/$module@"*.symbols.json; do
        [ -e "$extension" ] && cp "$extension" "$work/graphs/$module/"
    done
    log="$work/$module.log"
    if ! "$docc" convert "$work/catalogs/$module.docc" \
        --additional-symbol-graph-dir "$work/graphs/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "objectgraph.$module" \
        --enable-experimental-external-link-support \
        --output-path "$work/$module.doccarchive" >"$log" 2>&1; then
        cat "$log" >&2
        echo "build-docs: docc could not convert $module" >&2
        status=1
        continue
    fi
    if grep -q 'warning:\|error:' "$log"; then
        cat "$log" >&2
        echo "build-docs: docc warned about $module's documentation (above)" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] || exit "$status"

archives=()
for module in "${modules[@]}"; do archives+=("$work/$module.doccarchive"); done
"$docc" merge "${archives[@]}" --output-path "$work/site.doccarchive" \
    --synthesized-landing-page-name "ObjectGraph" \
    --synthesized-landing-page-kind "Package" >"$work/merge.log" 2>&1 || {
    cat "$work/merge.log" >&2
    echo "build-docs: docc merge failed" >&2
    exit 1
}

if [ -n "$base_path" ]; then
    "$docc" process-archive transform-for-static-hosting "$work/site.doccarchive" \
        --hosting-base-path "$base_path" >"$work/transform.log" 2>&1 || {
        cat "$work/transform.log" >&2
        echo "build-docs: docc could not prepare the site for the base path $base_path" >&2
        exit 1
    }
fi

rm -rf "$output"
mkdir -p "$(dirname "$output")"
cp -R "$work/site.doccarchive" "$output"
if [ -n "$base_path" ]; then
    echo "Documentation in $output, for serving at /${base_path#/}/documentation/"
else
    echo "Documentation in $output: python3 -m http.server --directory $output 8000, then open http://localhost:8000/documentation/"
fi
