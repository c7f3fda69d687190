#!/bin/sh
# Main-text quality must not regress: bench/mainquality.sh on the labelled
# set of real pages (tests/data/maintext/) must reach overall token F1 >=
# 0.90 (micro, and the mean over pages too) with no navigation/footer line
# left in any page's text.  When python3 is there, the committed reference
# texts must also be what bench/maintext_ref.py makes of the committed
# pages (so a page or a selector cannot change without its reference).
#
# Run by tests/run_all.sh from the repository root with BUILD and BIN set.
TOP=${TOP:-$(pwd)}
cd "$TOP" || exit 1
BUILD=${BUILD:-build}
export BUILD
status=0
if command -v python3 >/dev/null 2>&1; then
	python3 bench/maintext_ref.py --check tests/data/maintext || status=1
else
	echo "t_mainquality: python3 missing, reference texts not re-derived"
fi
MAINQ_MIN_F1=0.90 sh bench/mainquality.sh || {
	echo "t_mainquality: FAIL: main-text quality below target or chrome kept" >&2
	status=1
}
exit $status
