#!/bin/sh
# Run every test: the unit-test binaries given as arguments, then every
# tests/t_*.sh script (golden CLI tests, end-to-end runs).  Each script
# gets BIN (the stage binaries) and exits 0 on success.  Prints one line
# per test and closes with "N passed, M failed".
BUILD=${BUILD:-build}
BIN=$(cd "$BUILD/bin" && pwd)
export BUILD BIN
TOP=$(pwd)
export TOP
# A sanitizer's report exits 1 by default, which the stages use for
# "some input skipped": a test expecting 1 would take the report for a
# pass.  86 is no stage's status.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=86:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS
pass=0
fail=0
failed=""
mkdir -p "$BUILD/test-logs"
run() {
	name=$1
	shift
	log="$BUILD/test-logs/$name.log"
	if "$@" >"$log" 2>&1; then
		pass=$((pass + 1))
		echo "PASS $name"
	else
		fail=$((fail + 1))
		failed="$failed $name"
		echo "FAIL $name (log: $log)"
		tail -n 30 "$log" | sed 's/^/    /'
	fi
}
for t in "$@"; do
	run "$(basename "$t")" "$t"
done
for t in tests/t_*.sh; do
	[ -f "$t" ] || continue
	run "$(basename "$t" .sh)" sh "$t"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
