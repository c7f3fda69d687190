#!/bin/sh
# Fingerprint throughput (run by bench/run.sh): MB/s of text and
# documents/s of ndd-fingerprint per thread count, on 100 MB of English
# (python3-doc) and 100 MB of Chinese (debian-reference-zh-cn) main text,
# with `ndd-fingerprint --dry-run` (read, CRC-check and decode the same
# input, no hashing) as the floor.  Best of 3 by wall time; CPU seconds
# beside it, since a shared machine inflates wall time.  Then, per
# language, the default fingerprint alone on the texts in memory
# (build/bench/fpspeed: thread CPU time, best of 5 passes), steadier on a
# shared machine.
#   FPS_MB=100  FPS_THREADS="1 2"  BENCH_DIR=/tmp/ndd-bench
set -u
# Idle OpenMP threads sleep (as under bench/run.sh), so CPU seconds at -t2
# count work, not spinning.
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-PASSIVE}
export OMP_WAIT_POLICY
BUILD=${BUILD:-build}
BIN=$BUILD/bin
DIR=${BENCH_DIR:-/tmp/ndd-bench}/fps
MB=${FPS_MB:-100}
mkdir -p "$DIR"
if [ ! -d /usr/share/doc/python3/html ] || [ ! -d /usr/share/debian-reference ]; then
	echo "fpspeed: skipped: install python3-doc debian-reference-zh-cn (apt-get install)"
	exit 0
fi
# "N documents, S short, X MB text, ...; W s wall, C s CPU, ..." -> "docs mb wall cpu"
scrape() { sed -n 's/.*: \([0-9]*\) documents, [0-9]* short, \([0-9.]*\) MB text.*; \([0-9.]*\) s wall, \([0-9.]*\) s CPU.*/\1 \2 \3 \4/p' "$1" | tail -1; }
best() { # best of 3 runs of "$@" by wall time
	b=""
	for i in 1 2 3; do
		"$@" 2>"$DIR/log" >/dev/null || { cat "$DIR/log"; return 1; }
		r=$(scrape "$DIR/log")
		b=$(printf '%s\n%s\n' "$b" "$r" | awk 'NF' | sort -k3,3g | head -1)
	done
	echo "$b"
}
printf '%-4s %-12s %-3s %10s %10s %10s %10s %10s\n' lang pass t "MB/s" "MB/CPU-s" "docs/s" wall cpu
for lang in en zh; do
	if [ ! -s "$DIR/$lang.docs" ]; then
		python3 bench/fpspeed.py "$lang" "$MB" "$DIR/$lang.warc" || exit 1
		"$BIN/ndd-extract" -q -o "$DIR/$lang.docs" "$DIR/$lang.warc" || exit 1
		rm -f "$DIR/$lang.warc"
	fi
	for t in ${FPS_THREADS:-1 2}; do
		for pass in read-only fingerprint; do
			if [ $pass = read-only ]; then
				r=$(best "$BIN/ndd-fingerprint" -t "$t" --dry-run "$DIR/$lang.docs") || exit 1
			else
				r=$(best "$BIN/ndd-fingerprint" -t "$t" -o "$DIR/$lang.fps" "$DIR/$lang.docs") || exit 1
			fi
			echo "$r" | awk -v l="$lang" -v p="$pass" -v t="$t" '{
				printf "%-4s %-12s %-3s %10.1f %10.1f %10.0f %10.2f %10.2f\n", l, p, t,
					$2 / $3, $2 / ($4 > 0 ? $4 : 1e-9), $1 / $3, $3, $4 }'
		done
	done
done
for lang in en zh; do
	if [ -x "$BUILD/bench/fpspeed" ]; then
		printf '%-4s ' "$lang"
		"$BUILD/bench/fpspeed" "$DIR/$lang.docs" 5 || exit 1
	fi
done
