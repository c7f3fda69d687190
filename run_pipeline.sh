#!/usr/bin/env bash
# run_pipeline.sh - the nightly job: WARC dumps -> duplicate-cluster CSV.
#
#   run_pipeline.sh [options] CORPUS_DIR_OR_FILE...
#
# Finds *.warc and *.warc.gz under the given directories (recursively),
# runs extract -> template -> fingerprint -> self-join (the tables built
# and joined in memory; with --tables, or when earlier nights are looked
# up, through permute-and-sort -> compress -> tables.ndf instead), and
# publishes into the output directory:
#   clusters.csv      the duplicate clusters (the CSV contract of the README)
#   stats.json        inputs, records read/skipped by reason, documents,
#                     pairs, clusters, largest cluster, seconds per stage
#   fingerprints.ndf  tonight's fingerprint catalog  } the index later nights
#   tables.ndf        tonight's compressed tables    } can be queried against
#                     (only when built: --tables, --index, --previous)
#   templates.ndf     each host's template, learnt from tonight's pages (a
#                     later night's --previous reuses it for small hosts)
#   previous.csv      with --previous DIR: tonight's pages that duplicate a
#                     page of the run in DIR (ndd-query against its index)
#   documents.csv     every page of tonight, keep or drop (ndd-self-join;
#                     ndd-documents when earlier nights are looked up: with
#                     --index DIR, every night kept in DIR, see "The index
#                     of nights" below)
#   report.html       the night for a person to read (ndd-report)
# Safe under cron: one run at a time per output directory (DIR/.lock);
# every stage writes into a work directory, the outputs are gathered in a
# run directory DIR/.run-ID and published in one step by swapping the
# symbolic link DIR/current; DIR/clusters.csv and the other names are
# fixed links through current (see "Publishing" below).  A signal stops
# the stages and removes the work; a run killed outright (kill -9) takes
# its stages with it (parent-death signal) and the next run removes what
# it left behind, or, given --resume, continues it (see "Resume" below).
#
# Exit status: 0 success; 1 finished, but some input records were skipped
# (counted in stats.json); 2 failed, interrupted or locked: nothing
# published, the previous outputs untouched.
set -u


usage() {
	cat <<USAGE
Usage: run_pipeline.sh [options] CORPUS_DIR_OR_FILE...
Find near-duplicate pages in WARC files (*.warc, *.warc.gz) and in tar,
tar.gz, tgz and zip archives of WARCs or of HTML pages (searched
recursively in directories), and write the duplicate-cluster CSV.

  -o, --output DIR   output directory (default: ./ndd-out)
  -k, --distance K   near-duplicate = Hamming distance <= K (0..8; default 6,
                     with --method simhash 4)
      --method NAME  fingerprints: minhash (default; 1-bit minwise hashing
                     of word 3-shingles) or simhash (SimHash of weighted
                     single words)
  -t, --threads N    threads per stage (default: all cores)
      --previous DIR the output directory of an earlier run: also look up
                     tonight's pages in its index, into DIR_OUT/previous.csv,
                     and reuse its templates for hosts with few pages tonight
      --files-from F read more inputs from file F, one a line ('-': stdin)
      --index DIR    an index of nights: look tonight's pages up against
                     every night kept in DIR (documents.csv names the
                     earlier copies), then add tonight to it
      --night NAME   tonight's name in the index (default: today, UTC,
                     YYYY-MM-DD); a name already there is refused...
      --replace-night ...unless this is given
      --keep-nights N  keep the newest N nights in the index (default: all)
      --list-index DIR list the nights of index DIR (pages, bytes), then exit
      --keep RULE    which copy of a page documents.csv keeps: earliest
                     (default: earliest night, then WARC-Date, then input
                     order), most-linked, shortest-url
      --no-templates decide each page's main text by the page alone (no
                     template learnt from the crawl)
      --bin DIR      where the ndd-* stage programs are (default: build/bin
                     beside this script, else \$PATH)
      --keep-work    keep the intermediate files (documents, raw tables)
      --docs-memory SIZE  keep the documents file (every page's text, from
                     extract to fingerprint and the report) in memory, on a
                     tmpfs, while it holds at most SIZE (K, M, G; 0: on
                     disk); past that it moves to the work directory.
                     Default: a quarter of the memory available at the
                     start, on disk if the inputs pass half of that
      --docs-memory-dir DIR  that tmpfs (default /dev/shm; none: on disk)
      --tables       also build tonight's compressed tables (tables.ndf) and
                     find the pairs through them, not in memory (built anyway
                     when earlier nights are looked up: --index, --previous)
      --resume       continue the newest interrupted run in DIR: its steps
                     whose programs, options and inputs are unchanged and
                     whose outputs check out are reused, the rest run again;
                     a run with --resume that fails or is stopped keeps its
                     work for the next --resume
      --mpi N        run extract, fingerprint and the tables on N MPI ranks
                     (build with 'make MPI=1'; docs/MPI.md): the same outputs.
                     \$NDD_MPIRUN is the launcher (default mpirun; srun works)
  -q, --quiet        only errors and the final line
  -h, --help         this help

Writes DIR/clusters.csv, DIR/documents.csv, DIR/stats.json, DIR/report.html,
DIR/fingerprints.ndf, DIR/templates.ndf, and DIR/tables.ndf when built.
Outputs are links through DIR/current, switched in one step at the end.
Exit status: 0 success, 1 some input skipped (see stats.json), 2 failed,
interrupted, or DIR locked by another run (nothing published).
USAGE
}

# bash 5 (EPOCHREALTIME) times the steps without starting processes (clock, lap)
[ -n "${EPOCHREALTIME:-}" ] || { echo "run_pipeline.sh: error: needs bash 5 or later" >&2; exit 2; }
started=${EPOCHREALTIME/,/.}
cmdline=("$0" "$@")
out=./ndd-out k="" threads="" bindir="" keep=0 quiet=0 previous="" templates=1 mpi=0 want_tables=0
method=minhash index="" night="" replace_night=0 keep_nights="" keep_rule=earliest list_index=""
resume=0 docs_mem=auto docs_mem_dir=/dev/shm
inputs=() lists=()
# need OPTION ARGS...: an option's value, or a usage error (exit 2)
need() {
	[ $# -ge 2 ] && [ -n "$2" ] && return 0
	echo "run_pipeline.sh: option '$1' needs a value" >&2
	usage >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	-o | --output) need "$@"; out=$2; shift 2 ;;
	-k | --distance) need "$@"; k=$2; shift 2 ;;
	-t | --threads) need "$@"; threads=$2; shift 2 ;;
	--bin) need "$@"; bindir=$2; shift 2 ;;
	--previous) need "$@"; previous=$2; shift 2 ;;
	--files-from) need "$@"; lists+=("$2"); shift 2 ;;
	--keep-work) keep=1; shift ;;
	--docs-memory) need "$@"; docs_mem=$2; shift 2 ;;
	--docs-memory-dir) need "$@"; docs_mem_dir=$2; shift 2 ;;
	--tables) want_tables=1; shift ;;
	--resume) resume=1; shift ;;
	--mpi) need "$@"; mpi=$2; shift 2 ;;
	--no-templates) templates=0; shift ;;
	--method) need "$@"; method=$2; shift 2 ;;
	--index) need "$@"; index=$2; shift 2 ;;
	--night) need "$@"; night=$2; shift 2 ;;
	--replace-night) replace_night=1; shift ;;
	--keep-nights) need "$@"; keep_nights=$2; shift 2 ;;
	--list-index) need "$@"; list_index=$2; shift 2 ;;
	--keep) need "$@"; keep_rule=$2; shift 2 ;;
	-q | --quiet) quiet=1; shift ;;
	-h | --help) usage; exit 0 ;;
	--) shift; inputs+=("$@"); break ;;
	-*) echo "run_pipeline.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
	*) inputs+=("$1"); shift ;;
	esac
done

die() { echo "run_pipeline.sh: error: $*" >&2; exit 2; }
say() { [ "$quiet" = 1 ] || echo "run_pipeline.sh: $*" >&2; }

# ---- The index of nights (--index DIR) ----
# DIR/index.conf    what every night of the index shares: k, method,
#                   templates (a run with other settings is refused)
# DIR/nights.txt    the nights' names, oldest first
# DIR/nights/NAME/  one night: fingerprints.ndf (its catalog: fingerprints,
#                   URLs, WARC files and offsets, record ids, dates),
#                   templates.ndf, night.conf (pages, when added, inputs)
# No tables are kept: ndd-documents looks each kept night's fingerprints up
# in tonight's tables, which the run builds anyway.  DIR/.lock is held
# while a run reads and updates the index.

index_conf_get() { sed -n "s/^$2=//p" "$1/index.conf" 2>/dev/null | head -n 1; }
index_nights() { [ ! -f "$1/nights.txt" ] || cat "$1/nights.txt"; }

# index_list DIR: the nights of DIR, their pages and bytes, and its settings.
index_list() {
	local dir=$1 n pages bytes added total=0 count=0
	[ -f "$dir/index.conf" ] || die "'$dir' is not an index of nights (no index.conf)"
	printf 'index %s: k = %s, method %s, templates %s\n' "$dir" "$(index_conf_get "$dir" k)" \
		"$(index_conf_get "$dir" method)" "$(index_conf_get "$dir" templates)"
	printf '%-24s %12s %14s  %s\n' night pages bytes added
	while IFS= read -r n; do
		pages=$(sed -n 's/^pages=//p' "$dir/nights/$n/night.conf" 2>/dev/null)
		added=$(sed -n 's/^added=//p' "$dir/nights/$n/night.conf" 2>/dev/null)
		bytes=$(du -sb "$dir/nights/$n" 2>/dev/null | cut -f1)
		printf '%-24s %12s %14s  %s\n' "$n" "${pages:-?}" "${bytes:-?}" "${added:-?}"
		total=$((total + ${bytes:-0}))
		count=$((count + 1))
	done < <(index_nights "$dir")
	printf 'total: %d nights, %d bytes\n' "$count" "$total"
}

# Adding a night and publishing the outputs are two steps that cannot be
# one: the night is staged in DIR/.new-NAME (its night.conf names the
# output directory and the run directory it is published as), then the
# outputs are published, then the night is committed (renamed into
# nights/, appended to nights.txt).  A run that stops before publishing
# leaves a staged night whose run is not the output's current one: the
# next run on the index removes it.  A run that stops after publishing
# leaves a staged (or renamed but unlisted) night whose run is current:
# the next run on the index commits it and says so.

# index_open: lock the index, repair or remove what a stopped run left in
# it, and refuse settings other than the index's or a night it holds.
index_open() {
	local ik im it
	mkdir -p "$index/nights" || die "cannot create the index directory '$index'"
	lock_dir "$index" 7
	rm -rf "$index"/.old-* "$index"/.nights.tmp "$index"/.conf.tmp
	index_repair
	# settings staged by a run that never added a night bind nothing
	[ -n "$(index_nights "$index")" ] || rm -f "$index/index.conf"
	if [ -f "$index/index.conf" ]; then
		ik=$(index_conf_get "$index" k) im=$(index_conf_get "$index" method)
		it=$(index_conf_get "$index" templates)
		[ "$ik" = "$k" ] || die "the index '$index' holds nights compared at k = $ik, not $k: run with -k $ik, or use another index"
		[ "$im" = "$method" ] || die "the index '$index' holds fingerprints of --method $im, not $method: they cannot be compared"
		[ "$it" = "$templates" ] || die "the index '$index' holds fingerprints made with templates=$it, this run has templates=$templates (--no-templates): they cannot be compared"
	fi
	if index_nights "$index" | grep -qxF -- "$night" && [ "$replace_night" = 0 ]; then
		die "night '$night' is already in the index '$index': give another --night NAME, or --replace-night"
	fi
}

# index_repair: each staged night (.new-NAME) and each night directory
# nights.txt does not list is committed if its run was published, else
# removed (see above).
index_repair() {
	local d n o r
	for d in "$index"/.new-* "$index"/nights/*; do
		[ -d "$d" ] || continue
		n=${d##*/}
		n=${n#.new-}
		if [ "$d" = "$index/nights/$n" ] && index_nights "$index" | grep -qxF -- "$n"; then
			continue
		fi
		o=$(sed -n 's/^output=//p' "$d/night.conf" 2> /dev/null)
		r=$(sed -n 's/^run=//p' "$d/night.conf" 2> /dev/null)
		if [ -n "$r" ] && [ -n "$o" ] && [ "$(readlink "$o/current" 2> /dev/null)" = "$r" ]; then
			index_commit "$n" || die "cannot add night '$n' to the index '$index'"
			echo "run_pipeline.sh: warning: night '$n' was published in $o but a run stopped before adding it to the index '$index': added now" >&2
		else
			rm -rf "$d"
			say "removed night '$n' from the index '$index': the run that staged it did not publish it"
		fi
	done
}

# index_earlier: the --earlier options of ndd-documents, oldest first
# (into the array earlier), and the newest night's templates (latest_tpl).
index_earlier() {
	local n
	earlier=() latest_tpl=""
	while IFS= read -r n; do
		[ "$n" = "$night" ] && continue
		earlier+=(--earlier "$n=$index/nights/$n/fingerprints.ndf")
		[ -f "$index/nights/$n/templates.ndf" ] && latest_tpl=$index/nights/$n/templates.ndf
	done < <(index_nights "$index")
}

# stat_of FILE NAME: the number NAME of the work directory's FILE (a
# stage's --stats JSON, one member a line).
stat_of() { sed -n "s/^  \"$2\": \([0-9]*\),*\$/\1/p" "$work/$1" 2>/dev/null | head -n 1; }

# index_stage PAGES: stage tonight's catalog and templates (from the work
# directory, before publish moves them; hard links where the file system
# allows) as DIR/.new-NIGHT, and the index's settings if it has none.
index_stage() {
	local new=$index/.new-$night f
	rm -rf "$new"
	mkdir "$new" || die "cannot create '$new'"
	for f in fingerprints.ndf templates.ndf; do
		[ -f "$work/$f" ] || continue
		ln "$work/$f" "$new/$f" 2> /dev/null || cp "$work/$f" "$new/$f" ||
			die "cannot copy $f into the index '$index'"
	done
	printf 'pages=%s\nadded=%s\ninputs=%s\noutput=%s\nrun=%s\nclusters=%s\ndropped=%s\n' "$1" \
		"$(date -u +%Y-%m-%dT%H:%M:%SZ)" "${#files[@]}" "$out_abs" "$run_name" \
		"$(stat_of join.json clusters)" "$(stat_of documents.json dropped)" \
		> "$new/night.conf" || die "cannot write '$new/night.conf'"
	if [ ! -f "$index/index.conf" ]; then
		{ printf 'k=%s\nmethod=%s\ntemplates=%s\n' "$k" "$method" "$templates" > "$index/.conf.tmp" &&
			mv "$index/.conf.tmp" "$index/index.conf"; } || die "cannot write '$index/index.conf'"
	fi
}

# index_commit NAME: the staged night NAME (DIR/.new-NAME, or DIR/nights/NAME
# not yet listed) becomes the newest night of the index.
index_commit() {
	local n=$1 new=$index/.new-$1 dst=$index/nights/$1
	if [ -d "$new" ]; then
		if [ -d "$dst" ]; then mv -T "$dst" "$index/.old-$n" || return 1; fi
		mv -T "$new" "$dst" || return 1
		rm -rf "$index/.old-$n"
	fi
	{ index_nights "$index" | grep -vxF -- "$n"; echo "$n"; } > "$index/.nights.tmp" &&
		mv "$index/.nights.tmp" "$index/nights.txt"
}

# index_expire: remove the oldest nights past --keep-nights.
index_expire() {
	local n old
	[ -n "$keep_nights" ] || return 0
	n=$(index_nights "$index" | wc -l)
	while [ "$n" -gt "$keep_nights" ]; do
		old=$(head -n 1 "$index/nights.txt")
		{ tail -n +2 "$index/nights.txt" > "$index/.nights.tmp" &&
			mv "$index/.nights.tmp" "$index/nights.txt"; } || die "cannot update '$index/nights.txt'"
		rm -rf "${index:?}/nights/$old"
		say "night '$old' expired from the index (--keep-nights $keep_nights)"
		n=$((n - 1))
	done
}

if [ -n "$list_index" ]; then
	index_list "$list_index"
	exit 0
fi

[ ${#inputs[@]} -gt 0 ] || [ ${#lists[@]} -gt 0 ] || { usage >&2; exit 2; }
case $method in
minhash) k=${k:-6} ;;
simhash) k=${k:-4} ;;
*) die "--method must be minhash or simhash, got '$method'" ;;
esac
case $k in [0-8]) ;; *) die "-k must be 0..8, got '$k'" ;; esac
case $keep_rule in earliest | most-linked | shortest-url) ;; *) die "--keep must be earliest, most-linked or shortest-url, got '$keep_rule'" ;; esac
if [ -n "$keep_nights" ]; then
	case $keep_nights in '' | *[!0-9]* | 0) die "--keep-nights must be a positive number, got '$keep_nights'" ;; esac
	[ -n "$index" ] || die "--keep-nights needs --index DIR"
fi
if [ -n "$index" ]; then
	[ -z "$previous" ] || die "--previous and --index are two ways to name earlier nights: give one"
	night=${night:-$(date -u +%Y-%m-%d)}
	case $night in .* | *[!A-Za-z0-9._-]*) die "--night NAME: letters, digits, '.', '_' and '-', not beginning with '.'; got '$night'" ;; esac
fi
if [ -n "$threads" ]; then
	case $threads in '' | *[!0-9]* | 0) die "-t must be a positive number, got '$threads'" ;; esac
fi

case $mpi in '' | *[!0-9]*) die "--mpi must be a number of ranks, got '$mpi'" ;; esac
case $docs_mem in
auto) ;;
*[0-9] | *[0-9][KkMmGg]) [[ $docs_mem =~ ^[0-9]+[KkMmGg]?$ ]] || die "--docs-memory must be a size (K, M, G) or auto, got '$docs_mem'" ;;
*) die "--docs-memory must be a size (K, M, G) or auto, got '$docs_mem'" ;;
esac

# The stage programs: --bin, else build/bin beside this script, else PATH.
here=$(cd "$(dirname "$0")" && pwd)
stages="extract fingerprint permute-sort compress self-join documents stats report"
timed="extract fingerprint permute-sort+compress self-join documents"
if [ "$templates" = 1 ]; then
	stages="extract template fingerprint permute-sort compress self-join documents stats report"
	timed="extract template fingerprint permute-sort+compress self-join documents"
fi
if [ -n "$previous" ]; then
	[ -f "$previous/fingerprints.ndf" ] || die "--previous: '$previous/fingerprints.ndf' not found (an output directory of run_pipeline.sh?)"
	stages="$stages query"
	timed="$timed query"
fi
if [ -z "$bindir" ] && [ -x "$here/build/bin/ndd-extract" ]; then
	bindir=$here/build/bin
fi
[ "$mpi" -gt 0 ] && stages="$stages mpi"
for s in $stages; do
	if [ -n "$bindir" ]; then
		[ -x "$bindir/ndd-$s" ] || die "stage program '$bindir/ndd-$s' is missing: build it with 'make' (or 'make deps && make' on a new machine)"
	else
		command -v "ndd-$s" >/dev/null || die "stage program 'ndd-$s' is not built: run 'make' in $here (or 'make deps && make' on a new machine), or give --bin DIR"
	fi
done

# ---- Inputs ----

# add_input PATH: a file as it is; a directory searched for WARCs and
# archives (any case of the suffix, through symbolic links), in a stable
# order so document ids and cluster ids are stable.
add_input() {
	if [ -d "$1" ]; then
		find -L "$1" -type f \( -iname '*.warc' -o -iname '*.warc.gz' -o -iname '*.tar' \
			-o -iname '*.tar.gz' -o -iname '*.tgz' -o -iname '*.zip' \) -print0 |
			LC_ALL=C sort -z > "$names" || die "cannot list '$1'"
		mapfile -t -d '' -O ${#files[@]} files < "$names"
	elif [ -f "$1" ]; then
		files+=("$1")
	else
		die "input '$1' does not exist"
	fi
}

# --files-from LIST: one name a line ('-': standard input).
add_inputs_from() {
	local f
	cat -- "$1" > "$names.from" || die "--files-from: cannot read '$1'"
	while IFS= read -r f || [ -n "$f" ]; do
		[ -n "$f" ] && add_input "$f"
	done < "$names.from"
}

# The names go through a file: bash reads a pipe one byte a call, which
# took 14 s for 40,000 names.
files=()
names=$(mktemp) || die "cannot create a temporary file"
trap 'rm -f "$names" "$names.from"' EXIT
for in in "${inputs[@]}"; do add_input "$in"; done
for in in "${lists[@]}"; do add_inputs_from "$in"; done
rm -f "$names" "$names.from"
[ ${#files[@]} -gt 0 ] || die "no WARC files or archives found in: ${inputs[*]} ${lists[*]}"

# ---- The documents file in memory ----
# Template's copy of the documents (every page's text, which fingerprint
# and the report read) is written on a tmpfs while it holds at most
# $docs_budget bytes: there it costs the night less system time than in
# a disk file's page cache, and none of the disk (docs/SCALE.md, "The
# documents file in memory").  Past the budget, or when the tmpfs is full,
# ndd-template moves it into the work directory and goes on there.  The
# work directory's link docs.mem names its directory on the tmpfs
# (ndd-docs.XXXXXX), and documents.ndf is a link through it when the copy
# stayed in memory.  Whatever removes a work directory removes that
# directory first; a work directory kept for later (--keep-work, a
# --resume run that failed) gets its documents back on disk, so that no
# memory stays taken until the next run.

# docs_budget: the bytes the documents may hold in memory (0: on disk).
docs_budget() {
	local want avail bsize inputs
	if [ "$templates" != 1 ] || [ "$mpi" != 0 ] || [ ! -d "$docs_mem_dir" ]; then
		echo 0
		return
	fi
	read -r avail bsize < <(stat -f -c '%a %S' -- "$docs_mem_dir" 2> /dev/null) || { echo 0; return; }
	case $docs_mem in
	auto)
		want=$(awk '/^MemAvailable:/ { printf "%.0f", $2 * 1024 / 4 }' /proc/meminfo 2> /dev/null)
		# documents are 1 to 2 times a .warc.gz crawl's bytes: a crawl
		# this large would move to disk on the way
		inputs=$(xargs -0 -r stat -L -c %s -- < "$work/inputs.list" | awk '{ s += $1 } END { printf "%.0f", s }')
		[ "$((inputs * 2))" -le "${want:-0}" ] || want=0
		;;
	*[Kk]) want=$((${docs_mem%?} << 10)) ;;
	*[Mm]) want=$((${docs_mem%?} << 20)) ;;
	*[Gg]) want=$((${docs_mem%?} << 30)) ;;
	*) want=$docs_mem ;;
	esac
	want=${want:-0}
	echo $((want < avail * bsize ? want : avail * bsize))
}

# memory_docs WORK: the directory on the tmpfs that work directory WORK
# links to, if it is one this script made.
memory_docs() {
	local d
	d=$(readlink -- "$1/docs.mem") || return 0
	case ${d##*/} in ndd-docs.??????) echo "$d" ;; esac
}

# drop_memory_docs WORK: remove WORK's documents in memory and its link.
# shellcheck disable=SC2317 # called from the EXIT trap too
drop_memory_docs() {
	local d
	d=$(memory_docs "$1")
	[ -z "$d" ] || rm -rf -- "$d"
	rm -f -- "$1/docs.mem"
}

# docs_to_disk: the kept work directory's documents, if in memory, onto
# its disk (a copy renamed over the link: a run stopped meanwhile leaves
# them in memory, where the next run finds them).
# shellcheck disable=SC2317 # called from the EXIT trap
docs_to_disk() {
	[ -e "$work/docs.mem" ] || [ -L "$work/docs.mem" ] || return 0
	if [ -L "$work/documents.ndf" ] && [ -f "$work/documents.ndf" ]; then
		if ! { cp -- "$work/documents.ndf" "$work/documents.ndf.disk" &&
			mv -f -- "$work/documents.ndf.disk" "$work/documents.ndf"; }; then
			rm -f -- "$work/documents.ndf.disk"
			echo "run_pipeline.sh: warning: the documents file stays in memory, in $(memory_docs "$work"), until the next run" >&2
			return 0
		fi
	fi
	drop_memory_docs "$work"
}

# ---- Lock, leftovers and publishing (the output directory's layout) ----

# lock_dir DIR FD: hold DIR/.lock (flock(1)) on descriptor FD until this
# script exits, and write this script's pid in it; if another run holds
# it, exit 2 at once naming that run's pid.  The stages do not inherit FD,
# so the lock of a killed run is free as soon as the script is gone.
lock_dir() {
	local dir=$1 fd=$2 holder
	eval "exec $fd<>\"\$dir/.lock\"" || die "cannot open the lock file '$dir/.lock'"
	if ! flock -n "$fd"; then
		holder=$(cat "$dir/.lock" 2>/dev/null)
		[ -n "$holder" ] || { sleep 0.2; holder=$(cat "$dir/.lock" 2>/dev/null); }
		echo "run_pipeline.sh: error: '$dir' is locked by pid ${holder:-?} (another run is writing it)" >&2
		exit 2
	fi
	echo $$ > "$dir/.lock"
}

# clean_leftovers: remove what a killed run left in $out (work and run
# directories not published, half-made links).  Runs under the lock, so
# none of them belongs to a live run.  $1, if given, is a work directory
# to spare (the one --resume continues).
clean_leftovers() {
	local spare=${1:-} cur f n=0
	cur=$(readlink "$out/current" 2>/dev/null)
	for f in "$out"/.work.* "$out"/.run-* "$out"/.link-*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		[ "${f##*/}" = "$cur" ] || [ "$f" = "$spare" ] && continue
		[ ! -d "$f" ] || drop_memory_docs "$f"
		rm -rf "$f" && n=$((n + 1))
	done
	[ $n -eq 0 ] || say "removed $n leftover(s) of an interrupted run from $out"
}

# Publishing.  $out/current is a symbolic link to the run directory
# ($out/.run-ID) of the last complete run; $out/clusters.csv and the other
# outputs are fixed links through it (clusters.csv -> current/clusters.csv).
# Renaming a new link over current is atomic: a reader sees all of the old
# run's files or all of the new run's, and a crash before it leaves the old
# run published.  A name the new run did not write (previous.csv without
# --previous) loses its link.  Add new outputs to publish_names.
run_name=.run-$(date -u +%Y%m%dT%H%M%SZ)-$$
publish_names="clusters.csv documents.csv stats.json fingerprints.ndf tables.ndf templates.ndf previous.csv report.html"

# publish FILE...: move FILEs (in the work directory) into a new run
# directory and make it current.
publish() {
	local run=$out/$run_name old name
	old=$(readlink "$out/current" 2>/dev/null)
	mkdir "$run" || die "cannot create a run directory in '$out'"
	mv -t "$run" -- "${@/#/$work/}" || die "cannot move the outputs into $run; nothing was published"
	# the stages left the syncing to this (NDD_NO_FSYNC); a file system
	# that cannot sync a directory is no reason to stop, a file that
	# cannot be written is
	local err
	if ! err=$(sync -- "$run"/* "$run" 2>&1); then
		case $err in *"/${run##*/}/"*) die "cannot write the outputs to disk: $err; nothing was published" ;; esac
	fi
	if ! { ln -s "${run##*/}" "$out/.link-current" && mv -T "$out/.link-current" "$out/current"; }; then
		die "cannot publish $run as $out/current; the previous outputs stay"
	fi
	[ -z "$old" ] || [ "$old" = "${run##*/}" ] || in_background rm -rf "${out:?}/$old"
	# the links there are, read by one process (a readlink each was a
	# process a name)
	local -A link=()
	local l t
	while IFS= read -r -d '' l && IFS= read -r -d '' t; do link[$l]=$t; done < <(
		find "$out/" -mindepth 1 -maxdepth 1 -type l -printf '%f\0%l\0' 2>/dev/null)
	for name in $publish_names; do
		if [ -e "$run/$name" ]; then
			[ "${link[$name]:-}" = "current/$name" ] && continue
			ln -s "current/$name" "$out/.link-$name" && mv -T "$out/.link-$name" "$out/$name" ||
				echo "run_pipeline.sh: warning: cannot link $out/$name to current/$name" >&2
		elif [ -L "$out/$name" ] || [ -f "$out/$name" ]; then
			rm -f "$out/$name"
		fi
	done
}

# ---- Running the stages: children of this script that die with it ----

# stage_bin[NAME]: the program of stage NAME, resolved once (a $(...)
# per use was a process each: 90 of them to hash the programs).
declare -A stage_bin
for s in $stages; do
	if [ -n "$bindir" ]; then stage_bin[$s]=$bindir/ndd-$s; else stage_bin[$s]=$(command -v "ndd-$s"); fi
done

# The stages run in the background of this script and are waited for, so a
# signal is handled at once (bash runs a trap only between foreground
# commands) and each stage's status is known.  Each has a parent-death
# signal: when this script dies, even by kill -9, the kernel sends its
# stages SIGTERM, and they remove their partial outputs and exit.  An
# ndd-* stage arms it itself when NDD_PARENT_PID names its parent (no
# program more to start per stage); what is not ours (mpirun) gets it
# from setpriv.  They do not inherit the lock descriptors (7, 8, 9).
deathsig=()
command -v setpriv >/dev/null && deathsig=(setpriv --pdeathsig TERM)
stage_pids=()

# spawn IN OUT NAME ARGS...: start stage NAME, stdin from IN, stdout to OUT
# ('-': this script's); its pid goes to $spawned and stage_pids.
spawn() {
	# (expanded in the forked child, $BASHPID would be the child's own)
	local in=$1 to=$2 bin=${stage_bin[$3]} me=$BASHPID
	shift 3
	if [ "$to" = - ]; then
		NDD_PARENT_PID=$me "$bin" "$@" < "$in" 7>&- 8>&- 9>&- &
	else
		NDD_PARENT_PID=$me "$bin" "$@" < "$in" > "$to" 7>&- 8>&- 9>&- &
	fi
	spawned=$!
	stage_pids+=("$spawned")
}

# reap PID: wait for stage PID; return its exit status.
reap() {
	local rc p left=()
	wait "$1"
	rc=$?
	for p in "${stage_pids[@]}"; do [ "$p" = "$1" ] || left+=("$p"); done
	stage_pids=("${left[@]}")
	return $rc
}

# run_stage NAME ARGS...: run stage NAME to its end.
run_stage() { spawn /dev/null - "$@"; reap "$spawned"; }

# shellcheck disable=SC2317 # called from the traps
stop_stages() {
	[ ${#stage_pids[@]} -eq 0 ] && return
	kill -TERM "${stage_pids[@]}" 2>/dev/null
	wait "${stage_pids[@]}" 2>/dev/null
	stage_pids=()
}

# SIGINT, SIGTERM, SIGHUP: stop the stages, remove the work (EXIT trap),
# say so, exit 2.
# shellcheck disable=SC2317 # called from the traps
on_signal() {
	trap '' INT TERM HUP
	stop_stages
	if keeps_work; then
		echo "run_pipeline.sh: interrupted by SIG$1: stages stopped, work kept in $work for --resume; $out keeps its previous outputs" >&2
	else
		echo "run_pipeline.sh: interrupted by SIG$1: stages stopped, work removed; $out keeps its previous outputs" >&2
	fi
	exit 2
}

# ---- Resume: completion markers, one per step ----
# A step (a stage, or stages piped together: extract+template,
# permute-sort+compress) that ends well leaves WORK/.done-STEP: its key,
# its seconds and exit status, and an entry per output file (sum_file).  The key hashes what decides the outputs: the step's
# name, its programs (their bytes), its arguments but
# -q and -t N, the size and modification time of every input from outside the work
# directory (WARCs, earlier nights, --previous), and the previous step's
# key, so a change anywhere upstream changes every later key.
# --resume adopts the newest work directory left in DIR and walks the
# steps in order: a step is reused while its marker's key is this run's
# and its outputs still match their checksums; from the first step that
# is not, that step and all later ones run.  A step that streams into
# another (permute-sort | compress) is one step and resumes as one.
# Documents files are removed after publishing (report.html reads titles
# in them); a resumed run that finds one gone runs again from extract
# (re-exec).

# sum_file FILE: an output's entry in its marker.  For an .ndf file,
# ndf:SIZE:TAIL, its size and the hex of its last 40 bytes (the last
# section's tail: its size, record count, payload CRC and the footer's
# CRC), read without reading the file: every run pays for the entry,
# only --resume for the check, and ndd-stats --verify checks the blocks'
# own CRCs there (ndf_intact).  Other files: CRC-32 and size (cksum)
# (docs/DESIGN-NOTES.md, "Resuming a run").
sum_file() {
	local c n
	case $1 in
	*.ndf)
		n=$(stat -L -c %s -- "$1") || return
		if [ "$n" -ge 40 ]; then
			c=$(od -An -v -tx1 -j $((n - 40)) -N 40 -- "$1") || return
			c=${c//[$' \n']/}
			echo "ndf:$n:$c"
			return
		fi
		;;
	esac
	c=$(cksum < "$1") && echo "${c// /:}"
}

# entry_ok FILE ENTRY: FILE matches its marker's ENTRY; an .ndf entry
# holds only the size and the tail, so the whole file is verified too.
entry_ok() {
	[ "$(sum_file "$1")" = "$2" ] || return
	case $2 in
	ndf:*) "${stage_bin[stats]}" --verify -- "$1" 2> /dev/null ;;
	esac
}

# temp_consumer FILE: the last reader of intermediate FILE, which is not
# published: the documents file is read last by the report (no step, so
# never reused: the file must be there); fails for published files.
temp_consumer() { case $1 in documents.ndf | docs.*.ndf) echo report ;; *) return 1 ;; esac; }

# resume_pick: the newest work directory in $out with a completion marker.
resume_pick() {
	local d best=""
	for d in "$out"/.work.*; do
		if [ -d "$d" ] && [ ! -L "$d" ] && compgen -G "$d/.done-*" > /dev/null &&
			{ [ -z "$best" ] || [ "$d" -nt "$best" ]; }; then
			best=$d
		fi
	done
	echo "$best"
}

# resume_adopt: keep, in the adopted work directory, only the files its
# markers name (a killed stage's temporary files and FIFOs go).
resume_adopt() {
	local f keepers
	keepers=$(sed -n 's/^file [^ ]* //p' "$work"/.done-* 2> /dev/null)
	for f in "$work"/* "$work"/.[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		case ${f##*/} in .done-* | docs.mem) continue ;; esac
		grep -qxF -- "${f##*/}" <<< "$keepers" || rm -rf "$f"
	done
	say "resuming the interrupted run in $work"
}

# step_key NAME PROGRAMS CMD...: key = the key of step NAME (see above).
# (Through a pipe, not a file: a file created right after a stage wrote
# its output waits for the file system's journal.)
step_key() {
	local h
	h=$(key_text "$@" | b2sum) && key=${h:0:128}
}

# key_text NAME PROGRAMS CMD...: what the key of step NAME hashes.
key_text() {
	local name=$1 progs=$2 a p list="" ext=() skip=0
	shift 2
	{
		printf 'ndd-resume 1\nstep %s\nmpi %s\n' "$name" "$mpi"
		for p in $progs; do printf 'program %s %s\n' "$p" "${prog_hash[$p]}"; done
		for a in "$@"; do
			# outputs are the same at any thread count (the tests compare
			# them), so another -t still resumes
			[ "$skip" = 1 ] && skip=0 && continue
			[ "$a" = -t ] && skip=1 && continue
			[ "$a" = -q ] && continue
			printf 'arg %s\0' "$a"
			[ "$a" = --files0-from ] && list=next && continue
			[ "$list" = next ] && list=$a
			case $a in "$work"/*) continue ;; esac
			if [ -f "$a" ]; then ext+=("$a"); elif [ -f "${a#*=}" ]; then ext+=("${a#*=}"); fi
		done
		[ ${#ext[@]} -eq 0 ] || printf '%s\0' "${ext[@]}" | xargs -0 stat -L -c 'input %s %.9Y' --
		if [ -n "$list" ] && [ -f "$list" ]; then
			cat "$list"
			xargs -0 -r stat -L -c 'input %s %.9Y' -- < "$list"
		fi
		# the previous step's key decides its outputs (the stages are
		# deterministic), so its marker need not be written yet
		[ -z "$prev_key" ] || printf 'after %s\n' "$prev_key"
	}
}

# hash_programs: prog_hash[NAME] = the hash of stage NAME's program, for
# the keys; one b2sum for all of them.
declare -A prog_hash
hash_programs() {
	local s h f paths=()
	for s in $stages; do paths+=("${stage_bin[$s]}"); done
	# -z: names unescaped, records end in NUL
	while IFS= read -r -d '' h; do
		f=${h#*  } h=${h%% *}
		for s in $stages; do [ "${stage_bin[$s]}" = "$f" ] && prog_hash[$s]=${h:0:128}; done
	done < <(b2sum -z -- "${paths[@]}")
	for s in $stages; do [ -n "${prog_hash[$s]:-}" ] || die "cannot read the stage program of $s"; done
}

# step_reusable NAME KEY: the marker of step NAME has KEY and its outputs
# check out.  A removed intermediate is noted in missing_temps: fine as
# long as the step that reads it is reused too (resume_stop checks).
step_reusable() {
	local m=$work/.done-$1 tag sum f c
	[ -f "$m" ] || { say "step $1: not finished by the interrupted run"; return 1; }
	[ "$(sed -n 's/^key //p' "$m")" = "$2" ] ||
		{ say "step $1: its program, options or inputs changed"; return 1; }
	while read -r tag sum f; do
		[ "$tag" = file ] || continue
		if [ -f "$work/$f" ]; then
			entry_ok "$work/$f" "$sum" ||
				{ say "step $1: $f does not match its checksum"; return 1; }
		elif c=$(temp_consumer "$f"); then
			missing_temps+=("$1:$f:$c")
		else
			say "step $1: its output $f is missing"
			return 1
		fi
	done < "$m"
}

# resume_stop NAME: step NAME is the first to run: stop reusing, drop the
# markers of this and later steps, and if a reused step's intermediate
# this or a later step reads is gone, start again with that step redone.
resume_stop() {
	local f r
	reusing=0
	resume_temps "step $1"
	for f in "$work"/.done-*; do
		for r in "${reused[@]}"; do [ "${f##*/.done-}" = "$r" ] && continue 2; done
		rm -f "$f"
	done
}

# resume_temps WHO: if a reused step's intermediate that WHO (this or a
# later step, or the report) reads is gone, start again with that step
# redone.
resume_temps() {
	local e producer f consumer r
	for e in "${missing_temps[@]}"; do
		IFS=: read -r producer f consumer <<< "$e"
		for r in "${reused[@]}"; do [ "$r" = "$consumer" ] && continue 2; done
		rm -f "$work/.done-$producer"
		say "$1 needs $f, which is gone: running again from step $producer"
		restart
	done
}

# restart: this script again, with the same arguments (it adopts the same
# work directory); the locks are taken again.
restart() { wait_marks; exec "$BASH" "${cmdline[@]}"; }

# mark NAME KEY 'GLOBS' STATUS SECONDS: write step NAME's marker (SECONDS:
# its 'seconds NAME S' lines), listing the files of $work matching GLOBS.
# step() runs it in the background: the next step starts while the
# outputs are summed (a quarter of a gigabyte of documents for 250 MB of
# crawl), and wait_marks waits for it before anything reads the markers
# or moves the files.
mark() {
	local m=$work/.done-$1 g f
	{
		printf 'key %s\n%sstatus %s\n' "$2" "$5" "$4"
		for g in $3; do
			for f in "$work"/$g; do
				if [ -f "$f" ]; then printf 'file %s %s\n' "$(sum_file "$f")" "${f##*/}"; fi
			done
		done
	} > "$m.tmp" && mv "$m.tmp" "$m"
}

# wait_marks: the markers step() is writing are written.  A run that
# stops (a signal, a failed stage) waits for them too, not kills them: a
# finished step keeps its marker for --resume.
mark_pids=()
wait_marks() {
	local p
	for p in "${mark_pids[@]}"; do
		wait "$p" || die "cannot write a completion marker in $work"
	done
	mark_pids=()
}

# in_background CMD...: CMD (a removal of what the run no longer needs)
# runs beside the script, and wait_background waits for every such
# command: the script does not end, whatever way it ends, before them.
bg_pids=()
in_background() { "$@" 7>&- 8>&- 9>&- & bg_pids+=("$!"); }
wait_background() { [ ${#bg_pids[@]} -eq 0 ] || wait "${bg_pids[@]}"; bg_pids=(); }

mkdir -p "$out" || die "cannot create output directory '$out'"
out_abs=$(cd "$out" && pwd)
lock_dir "$out" 9
if [ -e "$out/current" ] && [ ! -L "$out/current" ]; then
	die "'$out/current' is not the link this script publishes through (a file or directory of that name is in the way): move it, or choose another output directory"
fi
work=""
[ "$resume" = 1 ] && work=$(resume_pick)
clean_leftovers "$work"
earlier=() latest_tpl=""
if [ -n "$index" ]; then
	index_open
	index_earlier
elif [ -n "$previous" ]; then
	earlier=(--earlier "previous=$previous/fingerprints.ndf")
	[ -f "$previous/templates.ndf" ] && latest_tpl=$previous/templates.ndf
fi
reusing=0
if [ -n "$work" ]; then
	resume_adopt
	reusing=1
else
	work=$(mktemp -d "$out/.work.XXXXXX") || die "cannot create a work directory in '$out'"
fi
published_ok=0
# keeps_work: the work survives this run: --keep-work, or --resume until
# the outputs are published (the next --resume continues from it).
# shellcheck disable=SC2317 # called from the traps
keeps_work() { [ "$keep" = 1 ] || { [ "$resume" = 1 ] && [ "$published_ok" = 0 ]; }; }
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	stop_stages
	if [ ${#mark_pids[@]} -gt 0 ]; then
		keeps_work || kill -TERM "${mark_pids[@]}" 2>/dev/null
		wait "${mark_pids[@]}" 2>/dev/null
	fi
	wait_background
	if keeps_work; then
		docs_to_disk
	elif [ -e "$work" ]; then
		drop_memory_docs "$work"
		rm -rf "$work"
	fi
}
trap cleanup EXIT
for sig in INT TERM HUP; do
	# shellcheck disable=SC2064 # $sig is meant to expand now, once per signal
	trap "on_signal $sig" "$sig"
done

# Stages run side by side on the same cores (and the user's other work
# does too): OpenMP threads that spin while waiting steal those cores.
# Passive waiting halved the piped table stages at 10M fingerprints.
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-PASSIVE}"
# The outputs are made durable once, when published (publish syncs them):
# a stage only starts its files' writeback instead of waiting for the
# disk (an fsync and a journal commit each, one stage after another).
export NDD_NO_FSYNC=1
topt=()
[ -n "$threads" ] && topt=(-t "$threads")
qopt=()
[ "$quiet" = 1 ] && qopt=(-q)
# clock VAR: VAR = the time, seconds since the epoch to the microsecond,
# and lap VAR T0: VAR = the seconds since clock gave T0, to the
# millisecond; both without a process (bash's EPOCHREALTIME, its decimal
# mark the locale's): a date and an awk a timing were 21 of the ~150
# processes a run started.
clock() { local t=$EPOCHREALTIME; printf -v "$1" '%s' "${t/,/.}"; }
lap() {
	local t=$EPOCHREALTIME d
	t=${t/[.,]/}
	d=$(((10#$t - 10#${2/./} + 500) / 1000))
	printf -v "$1" '%d.%03d' $((d / 1000)) $((d % 1000))
}
declare -A secs
status=0

prev_key="" reused=() missing_temps=()
declare -A ran

# step NAME PROGRAMS 'OUTPUT GLOBS' CMD...: one step of the run: reused
# (--resume) or run and timed, then marked done; exit 1 of CMD is
# "finished with skipped input".
step() {
	local name=$1 progs=$2 outs=$3 t0 rc key s0=$status sn sv
	local -A before=()
	shift 3
	ran[$name]=1
	step_key "$name" "$progs" "$@" || die "cannot hash the key of step $name"
	if [ "$reusing" = 1 ]; then
		if step_reusable "$name" "$key"; then
			while read -r sn sv; do secs[$sn]=$sv; done < <(sed -n 's/^seconds //p' "$work/.done-$name")
			[ "$(sed -n 's/^status //p' "$work/.done-$name")" = 1 ] && status=1
			reused+=("$name")
			prev_key=$key
			say "step $name: reused (done by the interrupted run)"
			return 0
		fi
		resume_stop "$name"
	fi
	for sn in "${!secs[@]}"; do before[$sn]=${secs[$sn]}; done
	clock t0
	"$@"
	rc=$?
	lap "secs[$name]" "$t0"
	if [ $rc -eq 1 ]; then
		status=1
	elif [ $rc -ne 0 ]; then
		die "stage $name failed (exit $rc); nothing was published in $out"
	fi
	# the seconds the step set (a step of two piped stages times each),
	# and whether it skipped input (such a step sets status itself)
	sv=""
	for sn in "${!secs[@]}"; do
		[ "${before[$sn]:-}" = "${secs[$sn]}" ] || sv+="seconds $sn ${secs[$sn]}"$'\n'
	done
	[ "$status" = 1 ] && [ "$s0" = 0 ] && rc=1
	mark "$name" "$key" "$outs" "$rc" "$sv" &
	mark_pids+=("$!")
	prev_key=$key
}

# --mpi N: extract, fingerprint and the tables run as MPI jobs of N ranks
# (ndd-mpi, docs/MPI.md); each step's parts come together in the same
# files as on one machine.  A job that fails or loses a rank exits
# non-zero: the run stops there, having published nothing.
# shellcheck disable=SC2317 # run through step()
mpi_run() {
	local launcher=${NDD_MPIRUN:-mpirun} rc
	local -a cmd=("$launcher" -np "$mpi")
	case $("$launcher" --version 2>&1) in
	*"Open MPI"* | *OpenRTE*)
		cmd+=(--oversubscribe)
		[ "$(id -u)" = 0 ] && cmd+=(--allow-run-as-root) ;;
	*slurm*) cmd=("$launcher" -n "$mpi") ;;
	esac
	rm -f "$work/mpi.status"
	# mpirun as a stage (spawn()): dies with this script, and takes its ranks along
	"${deathsig[@]}" "${cmd[@]}" "${stage_bin[mpi]}" --status "$work/mpi.status" "$@" \
		< /dev/null 2> >(tee -a "$work/mpirun.log" >&2) 7>&- 8>&- 9>&- &
	spawned=$!
	stage_pids+=("$spawned")
	reap "$spawned"
	rc=$?
	# with --status, ndd-mpi exits 0 or 2: any other exit is a rank's crash
	if [ "$rc" = 0 ]; then
		read -r rc < "$work/mpi.status" || rc=2
	elif [ "$rc" = 1 ]; then
		rc=2
	fi
	if [ "$rc" -gt 1 ]; then
		local why
		why=$(grep -Eio '(process )?rank [0-9]+[^.]*' "$work/mpirun.log" | head -3 | paste -sd ';' -)
		echo "run_pipeline.sh: error: MPI job '$1' on $mpi ranks failed (exit $rc)${why:+: $why}" >&2
	fi
	return "$rc"
}
# The ranks' statistics of a stage, summed into one file like the stage's.
mpi_stats() {
	local out=$1; shift
	python3 - "$out" "$@" <<'PY'
import json, sys
def add(a, b):
    if isinstance(a, dict):
        return {k: add(v, b.get(k, v if not isinstance(v, (int, float)) or isinstance(v, bool) else 0)) for k, v in a.items()}
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return a + b
    return a
parts = [json.load(open(p)) for p in sys.argv[2:]]
tot = parts[0]
for p in parts[1:]:
    tot = add(tot, p)
json.dump(tot, open(sys.argv[1], "w"), indent=2)
PY
}
mpi_parts() { local r; for ((r = 0; r < mpi; r++)); do [ -f "$work/$1.$r.$2" ] && echo "$work/$1.$r.$2"; done; }

# extract_and_template: ndd-extract's documents go through a FIFO into
# ndd-template, which learns the hosts' templates while the crawl is
# still being read and writes what it reads into documents.ndf (for
# fingerprint): the shell pipe 'ndd-extract | tee documents.ndf |
# ndd-template -' without tee's two more copies of the documents.  Its
# seconds: extract's until it ends, template's only what it takes after.
# shellcheck disable=SC2317 # run through step()
extract_and_template() {
	local t0 pe pg rce rcg d mem=()
	drop_memory_docs "$work"
	if [ "$docs_budget" -gt 0 ] && d=$(mktemp -d "$docs_mem_dir/ndd-docs.XXXXXX" 2> /dev/null); then
		if ln -s "$d" "$work/docs.mem"; then
			mem=(--copy-memory "$work/docs.mem/documents.ndf" --copy-memory-max "$docs_budget")
		else
			rmdir -- "$d"
		fi
	fi
	mkfifo "$work/docs.fifo" || die "cannot create a FIFO in $work"
	clock t0
	spawn /dev/null "$work/docs.fifo" extract "${topt[@]}" "${qopt[@]}" \
		--stats "$work/extract.json" --files0-from "$work/inputs.list"
	pe=$spawned
	spawn "$work/docs.fifo" - template "${topt[@]}" "${qopt[@]}" "${popt[@]}" -T "$work" \
		--stats "$work/template.json" --copy "$work/documents.ndf" "${mem[@]}" -o "$work/templates.ndf" -
	pg=$spawned
	reap "$pe"; rce=$?
	lap "secs[extract]" "$t0"
	clock t0
	reap "$pg"; rcg=$?
	lap "secs[template]" "$t0"
	rm -f "$work/docs.fifo"
	# the first to fail is named: a template that stopped reading (its
	# copy could not be written, say) kills extract by SIGPIPE
	[ "$rcg" -gt 1 ] && { [ "$rce" -le 1 ] || [ "$rce" -gt 128 ]; } &&
		die "stage template failed (exit $rcg); nothing was published in $out"
	[ "$rce" -gt 1 ] && die "stage extract failed (exit $rce); nothing was published in $out"
	[ "$rcg" -gt 1 ] && die "stage template failed (exit $rcg); nothing was published in $out"
	[ "$rce" -eq 1 ] || [ "$rcg" -eq 1 ] && status=1
	# template wrote the copy in memory or, past its budget, on disk
	if [ -f "$work/docs.mem/documents.ndf" ]; then
		ln -sfn docs.mem/documents.ndf "$work/documents.ndf" || die "cannot link the documents file in $work"
	else
		drop_memory_docs "$work"
	fi
	return 0
}

# extract_and_fingerprint: without templates a page's fingerprint depends
# on that page alone, so fingerprint reads extract's documents as they
# come (the plain shell pipe 'ndd-extract | ndd-fingerprint'); no
# documents file is written.  Seconds as in extract_and_template.
# shellcheck disable=SC2317 # run through step()
extract_and_fingerprint() {
	local t0 pe pf rce rcf
	mkfifo "$work/docs.fifo" || die "cannot create a FIFO in $work"
	clock t0
	spawn /dev/null "$work/docs.fifo" extract "${topt[@]}" "${qopt[@]}" \
		--stats "$work/extract.json" --files0-from "$work/inputs.list"
	pe=$spawned
	spawn "$work/docs.fifo" - fingerprint "${topt[@]}" "${qopt[@]}" "${fpopt[@]}" \
		--stats "$work/fingerprint.json" -o "$work/fingerprints.ndf" -
	pf=$spawned
	reap "$pe"; rce=$?
	lap "secs[extract]" "$t0"
	clock t0
	reap "$pf"; rcf=$?
	lap "secs[fingerprint]" "$t0"
	rm -f "$work/docs.fifo"
	# a fingerprint that stopped reading kills extract by SIGPIPE
	[ "$rcf" -gt 1 ] && { [ "$rce" -le 1 ] || [ "$rce" -gt 128 ]; } &&
		die "stage fingerprint failed (exit $rcf); nothing was published in $out"
	[ "$rce" -gt 1 ] && die "stage extract failed (exit $rce); nothing was published in $out"
	[ "$rcf" -gt 1 ] && die "stage fingerprint failed (exit $rcf); nothing was published in $out"
	[ "$rce" -eq 1 ] || [ "$rcf" -eq 1 ] && status=1
	return 0
}

hash_programs
say "${#files[@]} input files, k = $k, method $method${index:+, index $index, night $night}"
docs=("$work/documents.ndf")
# The names go through a file: 40,000 of them pass the argument limit.
printf '%s\0' "${files[@]}" > "$work/inputs.list" || die "cannot write the input list"
docs_budget=$(docs_budget)
[ "$docs_budget" = 0 ] || say "the documents file in memory ($docs_mem_dir) up to $docs_budget bytes"
popt=()
[ -n "$latest_tpl" ] && popt=(--previous "$latest_tpl")
fpopt=()
[ "$templates" = 1 ] && fpopt=(--templates "$work/templates.ndf")
fpopt+=(--method "$method")
# The steps' arguments after the program names are their keys' (see
# "Resume"): the functions that pipe stages together read the same
# settings from the script's variables.
if [ "$mpi" -gt 0 ]; then
	step extract mpi "docs.*.ndf extract.*.json" mpi_run extract "$work" "${topt[@]}" "${qopt[@]}" --files0-from "$work/inputs.list"
	# the parts extract wrote, as its marker names them: the same list
	# for template's key when a resumed run finds them already removed
	wait_marks
	mapfile -t docs < <(sed -n 's/^file [^ ]* \(docs\.[0-9]*\.ndf\)$/\1/p' "$work/.done-extract" | sort -t. -k2,2n)
	docs=("${docs[@]/#/$work/}")
	mapfile -t parts < <(mpi_parts extract json)
	mpi_stats "$work/extract.json" "${parts[@]}" || die "cannot sum the ranks' statistics"
	# Templates: what repeats over a host's pages is its template, not
	# content (docs/TEMPLATES.md); fingerprint then decides each page's
	# text without it.  Each host is learnt on one rank, from the pages
	# the ranks' documents hold of it (docs/MPI.md).
	[ "$templates" = 0 ] || step template mpi "templates.ndf template.json" mpi_run template \
		"${topt[@]}" "${qopt[@]}" "${popt[@]}" -T "$work" \
		--stats "$work/template.json" "$work" "$work/templates.ndf"
	step fingerprint mpi "fingerprints.ndf fingerprint.*.json" mpi_run fingerprint "$work" "$work/fingerprints.ndf" "${topt[@]}" "${qopt[@]}" "${fpopt[@]}"
	mapfile -t parts < <(mpi_parts fingerprint json)
	mpi_stats "$work/fingerprint.json" "${parts[@]}" || die "cannot sum the ranks' statistics"
	[ "$keep" = 1 ] || rm -f "$work"/fps.*.ndf
elif [ "$templates" = 1 ]; then
	step extract+template "extract template" "documents.ndf extract.json templates.ndf template.json" \
		extract_and_template "${topt[@]}" "${popt[@]}" --files0-from "$work/inputs.list"
	step fingerprint fingerprint "fingerprints.ndf fingerprint.json" run_stage fingerprint "${topt[@]}" "${qopt[@]}" "${fpopt[@]}" \
		--stats "$work/fingerprint.json" -o "$work/fingerprints.ndf" "$work/documents.ndf"
elif [ "$keep" = 1 ]; then
	step extract extract "documents.ndf extract.json" run_stage extract "${topt[@]}" "${qopt[@]}" --stats "$work/extract.json" \
		-o "$work/documents.ndf" --files0-from "$work/inputs.list"
	step fingerprint fingerprint "fingerprints.ndf fingerprint.json" run_stage fingerprint "${topt[@]}" "${qopt[@]}" "${fpopt[@]}" \
		--stats "$work/fingerprint.json" -o "$work/fingerprints.ndf" "$work/documents.ndf"
else
	step extract+fingerprint "extract fingerprint" "fingerprints.ndf extract.json fingerprint.json" \
		extract_and_fingerprint "${topt[@]}" "${fpopt[@]}" --files0-from "$work/inputs.list"
fi
# The documents stay until report.html has read the titles of the largest
# clusters' members from them (ndd-report decodes only their blocks).
# The raw tables (12 bytes per fingerprint and table: 1.2 GB for 10M
# fingerprints) go straight through a pipe into compress: written to disk
# and read back they cost more than sorting them.  --keep-work stages
# them through a file instead, to be looked at.
# With --mpi the ranks sort and join the tables (ndd-mpi tables); rank 0
# streams the sorted tables through a FIFO into ndd-compress, and writes
# the pairs for self-join --found-pairs.
# shellcheck disable=SC2317 # run through step()
mpi_tables() {
	local raw=$work/tables-raw.ndf pid rc
	[ "$keep" = 1 ] || { mkfifo "$raw" || return 2; }
	if [ "$keep" != 1 ]; then
		spawn "$raw" - compress "${topt[@]}" "${qopt[@]}" -o "$work/tables.ndf" -
		pid=$spawned
	fi
	mpi_run tables "${topt[@]}" "${qopt[@]}" -k "$k" --raw "$raw" --pairs "$work/pairs.bin" \
		--stats "$work/mpi.json" "$work/fingerprints.ndf"
	rc=$?
	if [ "$keep" != 1 ]; then
		# a job that failed before rank 0 opened the FIFO leaves compress
		# waiting to open it: open and close it once
		[ "$rc" -gt 1 ] && { kill "$pid" 2>/dev/null; exec 3<> "$raw"; exec 3>&-; }
		reap "$pid" || { [ "$rc" -gt 1 ] || rc=2; }
		return "$rc"
	fi
	[ "$rc" -gt 1 ] && return "$rc"
	run_stage compress "${topt[@]}" "${qopt[@]}" -o "$work/tables.ndf" "$raw"
}
# (its arguments are only for the step's key)
tprogs="permute-sort compress"
[ "$mpi" -gt 0 ] && tprogs="mpi compress"
# shellcheck disable=SC2317 # run through step()
sort_and_compress() {
	[ "$mpi" -gt 0 ] && { mpi_tables; return $?; }
	local p1 rc1 rc2
	if [ "$keep" = 1 ]; then
		run_stage permute-sort "${topt[@]}" "${qopt[@]}" -k "$k" \
			-o "$work/tables-raw.ndf" "$work/fingerprints.ndf" || return $?
		run_stage compress "${topt[@]}" "${qopt[@]}" -o "$work/tables.ndf" "$work/tables-raw.ndf"
		return $?
	fi
	mkfifo "$work/tables-raw.fifo" || return 2
	spawn /dev/null "$work/tables-raw.fifo" permute-sort "${topt[@]}" "${qopt[@]}" -k "$k" \
		"$work/fingerprints.ndf"
	p1=$spawned
	spawn "$work/tables-raw.fifo" - compress "${topt[@]}" "${qopt[@]}" -o "$work/tables.ndf" -
	reap "$p1"; rc1=$?
	reap "$spawned"; rc2=$?
	[ "$rc1" -gt 1 ] && return "$rc1"
	return "$rc2"
}
# The pairs: by default the tables are built and joined in memory, one at
# a time (self-join --from-fingerprints): the same clusters, no tables on
# disk, and at 10M fingerprints, k = 6, 15 s of CPU and 0.47 GB against
# 38 s and 0.77 GB for the three table stages (docs/SCALE.md).  The
# compressed tables are built when asked (--tables), when ndd-documents
# looks earlier nights up in them, and by the MPI ranks.
use_tables=$want_tables
if [ ${#earlier[@]} -gt 0 ] || [ "$mpi" -gt 0 ]; then use_tables=1; fi
jopt=() dopt=()
if [ "$use_tables" = 1 ]; then
	step permute-sort+compress "$tprogs" "tables.ndf pairs.bin mpi.json" sort_and_compress \
		"${topt[@]}" -k "$k" "$work/fingerprints.ndf"
	[ "$mpi" -gt 0 ] && jopt=(--found-pairs "$work/pairs.bin")
	jopt+=("$work/tables.ndf")
	dopt=(--tables "$work/tables.ndf")
	published=(fingerprints.ndf tables.ndf documents.csv)
else
	timed=${timed/permute-sort+compress /}
	jopt=(--from-fingerprints)
	published=(fingerprints.ndf documents.csv)
fi
# documents.csv: each page of tonight kept or dropped, against tonight's
# clusters and the earlier nights (--index, --previous): ndd-documents
# reads the clusters and the catalog back and looks the nights up.  With
# no earlier night, self-join writes the same file itself from what it
# holds (one step, self-join+documents).
# shellcheck disable=SC2317 # run through step()
join_and_documents() {
	local t0 rc line d=0.000 ms
	clock t0
	run_stage self-join "$@"
	rc=$?
	lap "secs[self-join]" "$t0"
	[ "$rc" -gt 1 ] && return "$rc"
	# the seconds self-join spent on documents.csv are documents'
	while IFS= read -r line; do
		case $line in '  "seconds": '*) d=${line#*: } ;; esac
	done < "$work/documents.json"
	printf -v "secs[documents]" '%s' "$d"
	ms=$((10#${secs[self-join]/./} - 10#${d/./}))
	[ "$ms" -ge 0 ] || ms=0
	printf -v "secs[self-join]" '%d.%03d' $((ms / 1000)) $((ms % 1000))
	return "$rc"
}
jopt=("${topt[@]}" "${qopt[@]}" -k "$k" -c "$work/fingerprints.ndf" --stats "$work/join.json" \
	-o "$work/clusters.csv" "${jopt[@]}")
if [ ${#earlier[@]} -eq 0 ]; then
	step self-join+documents self-join "clusters.csv join.json documents.csv documents.json" \
		join_and_documents "${jopt[@]}" --keep "$keep_rule" --documents "$work/documents.csv" \
		--documents-stats "$work/documents.json"
else
	step self-join self-join "clusters.csv join.json" run_stage self-join "${jopt[@]}"
	step documents documents "documents.csv documents.json" run_stage documents "${topt[@]}" "${qopt[@]}" -k "$k" --keep "$keep_rule" \
		-c "$work/fingerprints.ndf" "${dopt[@]}" --clusters "$work/clusters.csv" \
		"${earlier[@]}" --stats "$work/documents.json" -o "$work/documents.csv"
fi
[ "$templates" = 1 ] && published+=(templates.ndf)
# --previous DIR of a run that joined in memory has no tables.ndf: its
# tables are built here from its fingerprints, for tonight's k.
# shellcheck disable=SC2317 # run through step()
query_previous() {
	local ptab=$previous/tables.ndf
	if [ ! -f "$ptab" ]; then
		ptab=$work/previous-tables.ndf
		mkfifo "$work/previous-raw.fifo" || return 2
		spawn /dev/null "$work/previous-raw.fifo" permute-sort "${topt[@]}" "${qopt[@]}" \
			-k "$k" "$previous/fingerprints.ndf"
		local p1=$spawned rc1 rc2
		spawn "$work/previous-raw.fifo" - compress "${topt[@]}" "${qopt[@]}" -o "$ptab" -
		reap "$p1"; rc1=$?
		reap "$spawned"; rc2=$?
		[ "$rc1" -gt 1 ] && return "$rc1"
		[ "$rc2" -gt 1 ] && return "$rc2"
	fi
	run_stage query "${topt[@]}" "${qopt[@]}" --tables "$ptab" \
		-c "$previous/fingerprints.ndf" --stats "$work/query.json" \
		-o "$work/previous.csv" "$work/fingerprints.ndf"
}
if [ -n "$previous" ]; then
	pkey=("$previous/fingerprints.ndf")
	[ -f "$previous/tables.ndf" ] && pkey+=("$previous/tables.ndf")
	step query "query permute-sort compress" "previous.csv query.json" query_previous \
		"${topt[@]}" -k "$k" "${pkey[@]}"
	published+=(previous.csv)
fi

# stats.json, written by ndd-stats (names are bytes: it escapes them).
# ran_stage NAME: a step of this run ran or reused stage NAME (a step of
# piped stages is named by them: extract+template).
ran_stage() {
	local r
	for r in "${!ran[@]}"; do
		case "+$r+" in *"+$1+"*) return 0 ;; esac
	done
	return 1
}
write_stats() {
	local a=() st idxset=() tpl_setting=false
	[ "$templates" = 0 ] || tpl_setting=true
	[ -z "$index" ] || idxset=(--setting "index=$index" --setting "night=$night")
	# the statistics of this run's steps only (an adopted work directory
	# may hold a step this run does not have)
	local member file from
	for st in extract:extract:extract template:template:template fingerprint:fingerprint:fingerprint \
		join:join:self-join documents:documents:documents previous:query:query \
		mpi:mpi:permute-sort+compress; do
		IFS=: read -r member file from <<< "$st"
		if ran_stage "$from" && [ -f "$work/$file.json" ]; then
			a+=(--stage "$member=$work/$file.json")
		fi
	done
	[ ${#reused[@]} -eq 0 ] || idxset+=(--setting "resumed_steps=${reused[*]}")
	for st in $timed; do a+=(--seconds "$st=${secs[$st]}"); done
	local ended
	clock ended
	run_stage stats -o "$work/stats.json" --started "$started" --ended "$ended" \
		--exit-status "$status" --setting "k=$k" --setting "method=$method" --setting "templates=$tpl_setting" \
		--setting "threads=${threads:-all}" "${idxset[@]}" --setting "mpi_ranks=$mpi" \
		--inputs0 "$work/inputs.list" "${a[@]}" -- "${cmdline[@]}"
}
write_stats || die "cannot write statistics"

# report.html, for a person to read.  A report that fails does not stop
# the night's data: the run publishes without one (and the last run's
# report goes with the rest of its outputs).  Titles come from the
# documents file, which extract piped into fingerprint (--no-templates)
# does not write.
[ "$reusing" = 0 ] || resume_temps "the report"
ropt=(--clusters "$work/clusters.csv" --documents "$work/documents.csv" --stats "$work/stats.json")
for d in "${docs[@]}"; do [ ! -f "$d" ] || ropt+=(--docs "$d"); done
[ -z "$index" ] || ropt+=(--index "$index" --night "$night")
if run_stage report "${qopt[@]}" "${ropt[@]}" -o "$work/report.html"; then
	published+=(report.html)
else
	echo "run_pipeline.sh: warning: ndd-report failed: no report.html for this run" >&2
fi
# The report was the documents file's last reader.  It is the crawl's
# text, and unlinking it waits on the file system: it goes while the
# outputs are published (a run stopped from here on and resumed extracts
# again, as the work it left has no documents file).
memdocs=$(memory_docs "$work")
[ "$keep" = 1 ] || [ ! -f "${docs[0]}" ] || in_background rm -rf -- "${docs[@]}" ${memdocs:+"$memdocs"}

# The index and the outputs: stage the night, publish, commit the night
# (see "Adding a night and publishing" above).
[ -z "$index" ] ||
	index_stage "$(sed -n 's/^  "documents": \([0-9]*\),*$/\1/p' "$work/documents.json" | head -n 1)"
wait_marks
publish "${published[@]}" stats.json clusters.csv
published_ok=1
# published: no --resume may adopt what is left of the work
[ "$keep" = 1 ] || in_background rm -rf -- "$work"
if [ -n "$index" ]; then
	index_commit "$night" || die "published in $out, but cannot add night '$night' to the index '$index' (the next run on the index retries)"
	index_expire
	say "night '$night' added to the index $index ($(index_nights "$index" | wc -l) nights)"
fi
[ "$keep" = 1 ] && say "intermediate files kept in $work"
[ "$quiet" = 1 ] || say "done: $(grep -o '"clusters": [0-9]*' "$out/stats.json" | head -1 | tr -d '"'), exit status $status"
wait_background
echo "clusters: $out_abs/clusters.csv"
exit $status
