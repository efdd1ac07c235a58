#!/usr/bin/env bash
# The speed figures of the fleet, on a loopback site shaped as W3's (an
# index of 200 sitemaps of 50 URLs, 20 ms a response): the time of
#   sitemap -format jsonl                      (the library in one process)
#   sitemap-fleet run -format jsonl            (the same, on the embedded server)
#   three sitemap-fleet worker on one serve    (submit, then urls to the end)
# in interleaved runs, and the median of each (and of the CPU time of the
# first two); then the output of each is
# compared with sitemap's, sorted. run keeps its -dir from one run to the
# next, as its default ./sitemap-fleet-data is kept (the first run creates it). Usage: bench/run.sh [RUNS] (default 7).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-7}"
tmp="$(mktemp -d)"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/" ./cmd/sitemap-fleet ./bench/site github.com/gositemap/sitemap/cmd/sitemap
"$tmp/site" -sitemaps 200 -urls 50 -latency 20ms >"$tmp/site.url" &
pids+=($!)
port=$(( 20000 + RANDOM % 20000 ))
"$tmp/sitemap-fleet" serve -listen "127.0.0.1:$port" -dir "$tmp/serve" 2>"$tmp/serve.log" &
pids+=($!)
while [[ ! -s "$tmp/site.url" ]] || ! grep -q serving "$tmp/serve.log"; do sleep 0.1; done
url="$(cat "$tmp/site.url")"
nats="nats://127.0.0.1:$port"
for i in 1 2 3; do
	"$tmp/sitemap-fleet" worker -nats "$nats" -name "bench$i" 2>"$tmp/worker$i.log" &
	pids+=($!)
done

now() { date +%s.%N; }
# childcpu VAR: sets VAR to the CPU time (user and system) of the script's
# children so far, from the builtin times, run in this shell (not in a
# subshell, whose children are its own).
childcpu() {
	times >"$tmp/times"
	printf -v "$1" '%s' "$(awk 'NR == 2 {split($1, u, "m"); split($2, s, "m"); print (u[1] * 60 + u[2]) + (s[1] * 60 + s[2])}' "$tmp/times")"
}
declare -A times cpus
for ((r = 1; r <= runs; r++)); do
	t0=$(now)
	childcpu c0
	"$tmp/sitemap" -format jsonl "$url" >"$tmp/sitemap.jsonl" 2>/dev/null
	t1=$(now)
	childcpu c1
	"$tmp/sitemap-fleet" run -dir "$tmp/run" -format jsonl "$url" >"$tmp/run.jsonl" 2>/dev/null
	t2=$(now)
	childcpu c2
	crawl="$("$tmp/sitemap-fleet" submit -nats "$nats" "$url")"
	"$tmp/sitemap-fleet" urls -nats "$nats" -format jsonl "$crawl" >"$tmp/workers.jsonl" 2>/dev/null
	t3=$(now)
	times[sitemap]+="$(echo "$t1 - $t0" | bc) "
	times[run]+="$(echo "$t2 - $t1" | bc) "
	times[workers]+="$(echo "$t3 - $t2" | bc) "
	cpus[sitemap]+="$(echo "$c1 - $c0" | bc) "
	cpus[run]+="$(echo "$c2 - $c1" | bc) "
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base="$(echo "${times[sitemap]}" | median)"
for k in sitemap run workers; do
	m="$(echo "${times[$k]}" | median)"
	c=""
	if [[ -n "${cpus[$k]:-}" ]]; then
		c="$(printf 'CPU %.3f s  ' "$(echo "${cpus[$k]}" | median)")"
	fi
	printf '%-8s median %.3f s  (%.2fx sitemap)  %sruns: %s\n' "$k" "$m" "$(echo "$m / $base" | bc -l)" "$c" "${times[$k]}"
done
echo "load: $(uptime)"
sort "$tmp/sitemap.jsonl" >"$tmp/a"
for k in run workers; do
	sort "$tmp/$k.jsonl" >"$tmp/b"
	if cmp -s "$tmp/a" "$tmp/b"; then
		echo "$k: the same $(wc -l <"$tmp/a") lines as sitemap -format jsonl"
	else
		echo "$k: differs from sitemap -format jsonl" >&2
		exit 1
	fi
done
