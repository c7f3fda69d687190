#!/bin/sh
# Run every libFuzzer target of BUILD/fuzz for SECONDS each, from the seed
# corpora (make_seeds.py), the committed corpora of the
# long campaigns (tests/fuzz/corpus/<target>) and what earlier runs found
# (BUILD/fuzz/corpus/<target>, kept between runs).  An input that takes
# longer than FUZZ_TIMEOUT seconds (default 10) counts as a failure, so a
# slow path is reported as a hang is (libFuzzer's -timeout is wall-clock
# time: the 6 MB flood regress input takes 0.3 s of CPU under ASan but
# 1.8 s of wall time on a loaded machine, so the bound stays generous).  Crashes and slow inputs are written
# to BUILD/fuzz/crash/.  Targets run FUZZ_JOBS at a time (default: the
# cores), each on one core, so CI's fuzzing takes SECONDS times the targets
# over the cores; the report lines come in the targets' order.  Exit 1 if
# any target failed.
#   sh tests/fuzz/run.sh BUILD SECONDS [TARGET...]
BUILD=${1:?build directory}
SECONDS_EACH=${2:-60}
shift 2 2>/dev/null || shift $#
TIMEOUT=${FUZZ_TIMEOUT:-10}
DIR=$BUILD/fuzz
STAGES=${FUZZ_STAGES:-build/bin}
[ -x "$STAGES/ndd-extract" ] || STAGES=
python3 tests/fuzz/make_seeds.py "$DIR/seeds" $STAGES || exit 1
mkdir -p "$DIR/crash"
targets=${*:-$(cd "$DIR" && ls fuzz_* 2>/dev/null | grep -v '\.log$')}
JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1

# fuzz_one TARGET: run it; its report lines go to $DIR/TARGET.result, its
# verdict (ok or FAILED) to $DIR/TARGET.verdict
fuzz_one() {
	t=$1
	out=$DIR/$t.result
	mkdir -p "$DIR/corpus/$t" "$DIR/seeds/$t"
	# the minimised corpus of the long campaigns (docs/FUZZING.md)
	committed=tests/fuzz/corpus/$t
	[ -d "$committed" ] || committed=
	# the WARC reader must take multi-MB inputs: its seeds reach 6 MB
	case $t in
	fuzz_warc|fuzz_archive) maxlen=8388608 ;;
	*) maxlen=1048576 ;;
	esac
	log=$DIR/$t.log
	# inputs that once failed, or too big to fuzz, each run once first
	if [ -d "$DIR/seeds/$t-regress" ] && ! "$DIR/$t" -timeout="$TIMEOUT" -rss_limit_mb=2560 \
		"$DIR/seeds/$t-regress"/* >"$log" 2>&1; then
		echo "$t: FAILED on $DIR/seeds/$t-regress (log: $log)" >"$out"
		echo FAILED >"$DIR/$t.verdict"
		return
	fi
	if "$DIR/$t" -max_total_time="$SECONDS_EACH" -timeout="$TIMEOUT" -rss_limit_mb=2560 \
		-max_len=$maxlen -artifact_prefix="$DIR/crash/$t-" -print_final_stats=1 \
		"$DIR/corpus/$t" $committed "$DIR/seeds/$t" >"$log" 2>&1; then
		res=ok
	else
		res=FAILED
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	echo "$t: $res, ${execs:-?} execs, ${cov:-cov: ?} (log: $log)" >"$out"
	[ $res = ok ] || tail -n 40 "$log" | sed 's/^/    /' >>"$out"
	echo $res >"$DIR/$t.verdict"
}

running=0
for t in $targets; do
	rm -f "$DIR/$t.result" "$DIR/$t.verdict"
	fuzz_one "$t" &
	running=$((running + 1))
	if [ $running -ge "$JOBS" ]; then
		wait
		running=0
	fi
done
wait
fail=0
for t in $targets; do
	cat "$DIR/$t.result" 2>/dev/null || echo "$t: FAILED, no result"
	[ "$(cat "$DIR/$t.verdict" 2>/dev/null)" = ok ] || fail=1
	rm -f "$DIR/$t.result" "$DIR/$t.verdict"
done
exit $fail
