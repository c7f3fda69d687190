#!/bin/sh
# A long fuzzing campaign: each TARGET in turn, in sessions of at most
# CHUNK seconds (default 900), until it has run GOAL executions in all
# (default 10,000,000), counted over every session of the same corpus in
# CORPUS/<target>.total, so a campaign stopped (touch CORPUS/STOP, obeyed
# between sessions) or killed carries on where it was.  One fuzzer at a
# time at nice 19: the machine is shared.  Keep CORPUS outside build
# directories (make clean) and worktrees.  BUILD/fuzz holds the targets,
# normally of `make fuzz-campaign-build` (docs/FUZZING.md).
#   sh tests/fuzz/campaign.sh BUILD CORPUS TARGET[:MAXLEN]...
# Sessions log to CORPUS/logs/<target>.<n>.log, a line each to
# CORPUS/campaign.log, crashes to CORPUS/crash/.  A failed session stops
# that target (its count stays) and the campaign goes on to the next.
BUILD=${1:?build directory}
C=${2:?corpus directory}
shift 2
GOAL=${GOAL:-10000000}
CHUNK=${CHUNK:-900}
TIMEOUT=${FUZZ_TIMEOUT:-10}
SEEDS=$C/seeds
mkdir -p "$C/logs" "$C/crash"
STAGES=${FUZZ_STAGES:-build/bin}
[ -x "$STAGES/ndd-extract" ] || STAGES=
python3 tests/fuzz/make_seeds.py "$SEEDS" $STAGES || exit 1
note() {
	echo "$(date -u +%FT%TZ) $*" >>"$C/campaign.log"
}
for spec in "$@"; do
	t=${spec%%:*}
	maxlen=${spec#*:}
	[ "$maxlen" = "$spec" ] && maxlen=1048576
	mkdir -p "$C/$t" "$SEEDS/$t"
	committed=tests/fuzz/corpus/$t
	[ -d "$committed" ] || committed=
	# a -max_len below the seeds' sizes cuts them: each session first runs
	# the seeds and the inputs that once failed whole
	whole=$(ls -d "$SEEDS/$t"/* "$SEEDS/$t-regress"/* 2>/dev/null)
	while [ ! -e "$C/STOP" ]; do
		total=$(cat "$C/$t.total" 2>/dev/null || echo 0)
		[ "$total" -ge "$GOAL" ] && break
		n=0
		while [ -e "$C/logs/$t.$n.log" ]; do n=$((n + 1)); done
		log=$C/logs/$t.$n.log
		note "$t session $n: start, $total executions so far, max_len $maxlen"
		# shellcheck disable=SC2086
		if [ -n "$whole" ] && ! nice -n 19 "$BUILD/fuzz/$t" -timeout="$TIMEOUT" \
			-rss_limit_mb=2560 $whole >"$log.whole" 2>&1; then
			note "$t session $n: FAILED on a whole seed ($log.whole)"
			break
		fi
		nice -n 19 "$BUILD/fuzz/$t" -max_total_time="$CHUNK" -runs=$((GOAL - total)) \
			-timeout="$TIMEOUT" -rss_limit_mb=2560 -max_len="$maxlen" \
			-artifact_prefix="$C/crash/$t-" -print_final_stats=1 \
			"$C/$t" $committed "$SEEDS/$t" >"$log" 2>&1
		rc=$?
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		# a crash prints no final stats: its last status line has the count
		[ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
		total=$((total + ${execs:-0}))
		echo "$total" >"$C/$t.total"
		cov=$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -n 1)
		note "$t session $n: exit $rc, $execs executions, $total in all, $cov"
		if [ $rc -ne 0 ]; then
			note "$t: FAILED (log: $log), next target"
			break
		fi
	done
done
note "campaign done"
