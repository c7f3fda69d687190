#!/bin/sh
# Stand-in for an ndd-* stage in tests/t_cron.sh: records its pid in
# $NDD_TEST_PIDS/NAME, then runs $NDD_TEST_BIN/ndd-NAME, or, when NAME is
# $NDD_TEST_HANG, sleeps in its place (a stage caught mid-work).
# A real stage arms its own parent-death signal (NDD_PARENT_PID); the
# sleep asks setpriv for it, and says it has started only once armed.
name=${0##*/ndd-}
if [ "$name" = "${NDD_TEST_HANG:-}" ]; then
	exec setpriv --pdeathsig TERM sh -c 'echo $$ > "$1"; exec sleep 600' sh "$NDD_TEST_PIDS/$name"
fi
echo $$ > "$NDD_TEST_PIDS/$name"
exec "$NDD_TEST_BIN/ndd-$name" "$@"
