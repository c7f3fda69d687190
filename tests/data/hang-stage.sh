#!/bin/sh
# Stand-in for an ndd-* stage in tests/t_cron.sh: records its pid in
# $NDD_TEST_PIDS/NAME, then runs $NDD_TEST_BIN/ndd-NAME, or, when NAME is
# $NDD_TEST_HANG, sleeps in its place (a stage caught mid-work).
name=${0##*/ndd-}
echo $$ > "$NDD_TEST_PIDS/$name"
[ "$name" = "${NDD_TEST_HANG:-}" ] && exec sleep 600
exec "$NDD_TEST_BIN/ndd-$name" "$@"
