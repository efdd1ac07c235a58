#!/usr/bin/env bash
# The cost of change detection in the fleet (issue 33), on the W3-shaped
# site of run.sh (200 sitemaps of 50 URLs, 20 ms a response): sitemap-fleet
# run of this tree against that of a base commit (default 8f7abda, before
# change detection), in interleaved rounds, each keeping its -dir:
#   plain     no -state: the crawl without change detection
#   first     -state NEW: a first crawl (base: conditional fetching alone;
#             this tree: change detection too, every URL new)
#   again     the same -state again, on a site without validators: every
#             sitemap read and compared (base: read again whole)
#   again304  the same -state again, on a site with ETags: every document
#             answered 304 (this tree with -changes: nothing printed)
# It prints the median wall and CPU (user+sys) seconds of each.
# Usage: bench/changes.sh [RUNS] [BASE] (default 5 8f7abda).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
base="${2:-8f7abda}"
tmp="$(mktemp -d)"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/base" "$tmp/new"
git -C .. archive "$base" | tar -x -C "$tmp/base"
go build -o "$tmp/new/" ./cmd/sitemap-fleet ./bench/site
(cd "$tmp/base/fleet" && go build -o "$tmp/base/" ./cmd/sitemap-fleet)
"$tmp/new/site" -sitemaps 200 -urls 50 -latency 20ms >"$tmp/plain.url" &
pids+=($!)
"$tmp/new/site" -sitemaps 200 -urls 50 -latency 20ms -etag >"$tmp/etag.url" &
pids+=($!)
while [[ ! -s "$tmp/plain.url" || ! -s "$tmp/etag.url" ]]; do sleep 0.1; done
plain="$(cat "$tmp/plain.url")"
etag="$(cat "$tmp/etag.url")"

declare -A wall cpu
# one NAME BIN ARGS...: a run of BIN, its wall and CPU time kept under NAME.
one() {
	local name="$1" bin="$2"
	shift 2
	/usr/bin/time -f "%e %U %S" -o "$tmp/time" "$tmp/$bin/sitemap-fleet" run -dir "$tmp/$bin.dir" -format jsonl "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
	read -r e u s <"$tmp/time"
	wall[$name]+="$e "
	cpu[$name]+="$(echo "$u + $s" | bc) "
}
for ((r = 1; r <= runs; r++)); do
	for bin in base new; do
		one "plain-$bin" "$bin" "$plain"
		one "first-$bin" "$bin" -state "p$r" "$plain"
		one "again-$bin" "$bin" -state "p$r" "$plain"
		one "first304-$bin" "$bin" -state "e$r" "$etag"
		flags=()
		[[ $bin == new ]] && flags=(-changes)
		one "again304-$bin" "$bin" -state "e$r" "${flags[@]}" "$etag"
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for k in plain first again first304 again304; do
	for bin in base new; do
		printf '%-9s %-4s wall %.3f s  cpu %.3f s  (walls: %s)\n' "$k" "$bin" \
			"$(echo "${wall[$k-$bin]}" | median)" "$(echo "${cpu[$k-$bin]}" | median)" "${wall[$k-$bin]}"
	done
done
echo "lines: plain $(wc -l <"$tmp/plain-new.out"), first $(wc -l <"$tmp/first-new.out") (base $(wc -l <"$tmp/first-base.out")), again $(wc -l <"$tmp/again-new.out") (base $(wc -l <"$tmp/again-base.out")), again304 with -changes $(wc -l <"$tmp/again304-new.out") (base $(wc -l <"$tmp/again304-base.out"))"
grep -h "URLs:" "$tmp/again-new.err" "$tmp/again304-new.err" || true
