#!/bin/sh
# Runs the benchmarks of this module in interleaved rounds: the test binary
# is built once, then started ROUNDS times, each time running every
# benchmark once, so that the counts of one benchmark are spread over the
# whole run instead of taken back to back. The output goes to OUT.
#
#	./run.sh                       # 8 rounds of everything into new.txt
#	ROUNDS=4 BENCH='W1|W2' OUT=w.txt ./run.sh
#	benchstat baseline.txt new.txt
set -eu
cd "$(dirname "$0")"
rounds="${ROUNDS:-8}"
out="${OUT:-new.txt}"
filter="${BENCH:-.}"
benchtime="${BENCHTIME:-1s}"
bin="$(mktemp -d)/bench.test"
trap 'rm -rf "$(dirname "$bin")"' EXIT
go test -c -o "$bin" .
: >"$out"
i=1
while [ "$i" -le "$rounds" ]; do
	echo "== round $i of $rounds" >&2
	"$bin" -test.run '^$' -test.bench "$filter" -test.benchtime "$benchtime" -test.count 1 | tee -a "$out"
	i=$((i + 1))
done
