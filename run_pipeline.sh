#!/usr/bin/env bash
# run_pipeline.sh - the nightly job: WARC dumps -> duplicate-cluster CSV.
#
#   run_pipeline.sh [options] CORPUS_DIR_OR_FILE...
#
# Finds *.warc and *.warc.gz under the given directories (recursively),
# runs extract -> template -> fingerprint -> permute-and-sort -> compress ->
# self-join, and publishes into the output directory:
#   clusters.csv      the duplicate clusters (the CSV contract of the README)
#   stats.json        inputs, records read/skipped by reason, documents,
#                     pairs, clusters, largest cluster, seconds per stage
#   fingerprints.ndf  tonight's fingerprint catalog  } the index later nights
#   tables.ndf        tonight's compressed tables    } can be queried against
#   templates.ndf     each host's template, learnt from tonight's pages (a
#                     later night's --previous reuses it for small hosts)
#   previous.csv      with --previous DIR: tonight's pages that duplicate a
#                     page of the run in DIR (ndd-query against its index)
# Everything is built in a work directory inside the output directory and
# renamed into place at the end, clusters.csv last: a killed or failed run
# never leaves a half-written or partial result.
#
# Exit status: 0 success; 1 finished, but some input records were skipped
# (counted in stats.json); 2 failed, nothing final written.
set -u


usage() {
	cat <<USAGE
Usage: run_pipeline.sh [options] CORPUS_DIR_OR_FILE...
Find near-duplicate pages in WARC files (*.warc, *.warc.gz) and in tar,
tar.gz, tgz and zip archives of WARCs or of HTML pages (searched
recursively in directories), and write the duplicate-cluster CSV.

  -o, --output DIR   output directory (default: ./ndd-out)
  -k, --distance K   near-duplicate = Hamming distance <= K (0..8, default 6)
  -t, --threads N    threads per stage (default: all cores)
      --previous DIR the output directory of an earlier run: also look up
                     tonight's pages in its index, into DIR_OUT/previous.csv,
                     and reuse its templates for hosts with few pages tonight
      --no-templates decide each page's main text by the page alone (no
                     template learnt from the crawl)
      --bin DIR      where the ndd-* stage programs are (default: build/bin
                     beside this script, else \$PATH)
      --keep-work    keep the intermediate files (documents, raw tables)
  -q, --quiet        only errors and the final line
  -h, --help         this help

Writes DIR/clusters.csv, DIR/stats.json, DIR/fingerprints.ndf, DIR/tables.ndf,
DIR/templates.ndf.
Exit status: 0 success, 1 some input skipped (see stats.json), 2 failed.
USAGE
}

out=./ndd-out k=6 threads="" bindir="" keep=0 quiet=0 previous="" templates=1
inputs=()
while [ $# -gt 0 ]; do
	case $1 in
	-o | --output) out=${2:?}; shift 2 ;;
	-k | --distance) k=${2:?}; shift 2 ;;
	-t | --threads) threads=${2:?}; shift 2 ;;
	--bin) bindir=${2:?}; shift 2 ;;
	--previous) previous=${2:?}; shift 2 ;;
	--keep-work) keep=1; shift ;;
	--no-templates) templates=0; shift ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; inputs+=("$@"); break ;;
	-*) echo "run_pipeline.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	*) inputs+=("$1"); shift ;;
	esac
done

die() { echo "run_pipeline.sh: error: $*" >&2; exit 2; }
say() { [ "$quiet" = 1 ] || echo "run_pipeline.sh: $*" >&2; }

[ ${#inputs[@]} -gt 0 ] || { usage >&2; exit 2; }
case $k in [0-8]) ;; *) die "-k must be 0..8, got '$k'" ;; esac
if [ -n "$threads" ]; then
	case $threads in '' | *[!0-9]* | 0) die "-t must be a positive number, got '$threads'" ;; esac
fi

# The stage programs: --bin, else build/bin beside this script, else PATH.
here=$(cd "$(dirname "$0")" && pwd)
stages="extract fingerprint permute-sort compress self-join"
timed="extract fingerprint permute-sort+compress self-join"
if [ "$templates" = 1 ]; then
	stages="extract template fingerprint permute-sort compress self-join"
	timed="extract template fingerprint permute-sort+compress self-join"
fi
if [ -n "$previous" ]; then
	for f in tables.ndf fingerprints.ndf; do
		[ -f "$previous/$f" ] || die "--previous: '$previous/$f' not found (an output directory of run_pipeline.sh?)"
	done
	stages="$stages query"
	timed="$timed query"
fi
if [ -z "$bindir" ] && [ -x "$here/build/bin/ndd-extract" ]; then
	bindir=$here/build/bin
fi
for s in $stages; do
	if [ -n "$bindir" ]; then
		[ -x "$bindir/ndd-$s" ] || die "stage program '$bindir/ndd-$s' is missing: build it with 'make' (or 'make deps && make' on a new machine)"
	else
		command -v "ndd-$s" >/dev/null || die "stage program 'ndd-$s' is not built: run 'make' in $here (or 'make deps && make' on a new machine), or give --bin DIR"
	fi
done
run_stage() { local s=$1; shift; if [ -n "$bindir" ]; then "$bindir/ndd-$s" "$@"; else "ndd-$s" "$@"; fi; }

# Inputs, in a stable order so document ids and cluster ids are stable.
files=()
for in in "${inputs[@]}"; do
	if [ -d "$in" ]; then
		while IFS= read -r -d '' f; do files+=("$f"); done < <(
			find "$in" -type f \( -name '*.warc' -o -name '*.warc.gz' -o -name '*.tar' -o -name '*.tar.gz' -o -name '*.tgz' -o -name '*.zip' \) -print0 | LC_ALL=C sort -z)
	elif [ -f "$in" ]; then
		files+=("$in")
	else
		die "input '$in' does not exist"
	fi
done
[ ${#files[@]} -gt 0 ] || die "no *.warc or *.warc.gz files found in: ${inputs[*]}"

mkdir -p "$out" || die "cannot create output directory '$out'"
work=$(mktemp -d "$out/.work.XXXXXX") || die "cannot create a work directory in '$out'"
cleanup() { [ "$keep" = 1 ] || rm -rf "$work"; }
trap 'cleanup; exit 2' INT TERM HUP
trap cleanup EXIT

# Stages run side by side on the same cores (and the user's other work
# does too): OpenMP threads that spin while waiting steal those cores.
# Passive waiting halved the piped table stages at 10M fingerprints.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
topt=()
[ -n "$threads" ] && topt=(-t "$threads")
qopt=()
[ "$quiet" = 1 ] && qopt=(-q)
now() { date +%s.%N; }
declare -A secs
status=0

# run NAME CMD...: times a stage; exit 1 is "finished with skipped input".
step() {
	local name=$1 t0 rc
	shift
	t0=$(now)
	"$@"
	rc=$?
	secs[$name]=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
	if [ $rc -eq 1 ]; then
		status=1
	elif [ $rc -ne 0 ]; then
		die "stage $name failed (exit $rc); nothing was written to $out"
	fi
}

say "${#files[@]} input files, k = $k"
step extract run_stage extract "${topt[@]}" "${qopt[@]}" --stats "$work/extract.json" \
	-o "$work/documents.ndf" "${files[@]}"
# Templates: what repeats over a host's pages is its template, not content
# (docs/TEMPLATES.md); fingerprint then decides each page's text without it.
fpopt=()
if [ "$templates" = 1 ]; then
	popt=()
	[ -n "$previous" ] && [ -f "$previous/templates.ndf" ] && popt=(--previous "$previous/templates.ndf")
	step template run_stage template "${topt[@]}" "${qopt[@]}" "${popt[@]}" -T "$work" \
		--stats "$work/template.json" -o "$work/templates.ndf" "$work/documents.ndf"
	fpopt=(--templates "$work/templates.ndf")
fi
step fingerprint run_stage fingerprint "${topt[@]}" "${qopt[@]}" "${fpopt[@]}" \
	--stats "$work/fingerprint.json" -o "$work/fingerprints.ndf" "$work/documents.ndf"
[ "$keep" = 1 ] || rm -f "$work/documents.ndf"
# The raw tables (12 bytes per fingerprint and table: 1.2 GB for 10M
# fingerprints) go straight through a pipe into compress: written to disk
# and read back they cost more than sorting them.  --keep-work stages
# them through a file instead, to be looked at.
sort_and_compress() {
	if [ "$keep" = 1 ]; then
		run_stage permute-sort "${topt[@]}" "${qopt[@]}" -k "$k" \
			-o "$work/tables-raw.ndf" "$work/fingerprints.ndf" || return $?
		run_stage compress "${topt[@]}" "${qopt[@]}" -o "$work/tables.ndf" "$work/tables-raw.ndf"
		return $?
	fi
	run_stage permute-sort "${topt[@]}" "${qopt[@]}" -k "$k" "$work/fingerprints.ndf" |
		run_stage compress "${topt[@]}" "${qopt[@]}" -o "$work/tables.ndf" -
	local rc=("${PIPESTATUS[@]}")
	[ "${rc[0]}" -gt 1 ] && return "${rc[0]}"
	return "${rc[1]}"
}
step permute-sort+compress sort_and_compress
step self-join run_stage self-join "${topt[@]}" "${qopt[@]}" -k "$k" \
	-c "$work/fingerprints.ndf" --stats "$work/join.json" \
	-o "$work/clusters.csv" "$work/tables.ndf"
published="fingerprints.ndf tables.ndf"
[ "$templates" = 1 ] && published="$published templates.ndf"
if [ -n "$previous" ]; then
	step query run_stage query "${topt[@]}" "${qopt[@]}" --tables "$previous/tables.ndf" \
		-c "$previous/fingerprints.ndf" --stats "$work/query.json" \
		-o "$work/previous.csv" "$work/fingerprints.ndf"
	published="$published previous.csv"
fi

# stats.json: the stages' own statistics, the inputs and the times.
json_str() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
{
	echo "{"
	echo "  \"exit_status\": $status,"
	echo "  \"k\": $k,"
	printf '  "inputs": ['
	sep=""
	for f in "${files[@]}"; do printf '%s\n    %s' "$sep" "$(json_str "$f")"; sep=","; done
	echo "],"
	printf '  "extract": '; cat "$work/extract.json"; echo ","
	if [ "$templates" = 1 ]; then printf '  "template": '; cat "$work/template.json"; echo ","; fi
	printf '  "fingerprint": '; cat "$work/fingerprint.json"; echo ","
	printf '  "join": '; cat "$work/join.json"; echo ","
	if [ -n "$previous" ]; then printf '  "previous": '; cat "$work/query.json"; echo ","; fi
	printf '  "seconds": {'
	sep=""
	for s in $timed; do printf '%s"%s": %s' "$sep" "$s" "${secs[$s]}"; sep=", "; done
	echo "}"
	echo "}"
} > "$work/stats.json" || die "cannot write statistics"

# Publish: clusters.csv last, so its presence means the run completed.
for f in $published stats.json clusters.csv; do
	mv -f "$work/$f" "$out/$f" || die "cannot move $f into $out"
done
[ "$keep" = 1 ] && say "intermediate files kept in $work"
say "done: $(grep -o '"clusters": [0-9]*' "$out/stats.json" | head -1 | tr -d '"'), exit status $status"
echo "clusters: $(cd "$out" && pwd)/clusters.csv"
exit $status
