#!/bin/sh
# Main-text quality (run by bench/run.sh and by tests/t_mainquality.sh):
# the labelled set of real documentation pages in tests/data/maintext/ is
# written into one WARC, run through ndd-extract --json (the real path:
# HTTP, charset, extraction), and scored by build/bench/mainquality
# against the reference texts: token precision/recall/F1 per page, per
# template and overall, and every navigation/footer line that survived.
#
#   MAINQ_QUIET=1     only the per-template and overall lines
#   MAINQ_MIN_F1=0.9  the target (exit 1 below it, or if chrome is kept)
set -u
BUILD=${BUILD:-build}
BIN=${BIN:-$BUILD/bin}
DIR=${MAINQ_DIR:-tests/data/maintext}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mainquality.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' 0
trap 'exit 2' INT TERM HUP

"$BUILD/bench/mainquality" warc "$DIR" >"$tmp/set.warc" || exit 2
"$BIN/ndd-extract" -q --json -o "$tmp/set.jsonl" "$tmp/set.warc" || exit 2
verbose=-v
[ -n "${MAINQ_QUIET:-}" ] && verbose=
n=$(grep -vc '^#' "$DIR/manifest.tsv")
echo "main-text quality: $n pages of $DIR (bench/mainquality.sh)"
# shellcheck disable=SC2086
"$BUILD/bench/mainquality" score $verbose --min-f1 "${MAINQ_MIN_F1:-0.90}" "$DIR" "$tmp/set.jsonl"
