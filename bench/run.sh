#!/bin/sh
# Runs the benchmarks of this module in interleaved rounds: the test binary
# is built once, then started ROUNDS times, each time running every
# benchmark once, so that the counts of one benchmark are spread over the
# whole run instead of taken back to back. The output goes to OUT.
#
# With BEFORE set to the bench directory of another checkout (the library
# at an earlier commit), its binary is built too and each round runs both,
# the one first that went second in the round before, so that the two
# share the machine's load alike: its output goes to BEFORE_OUT.
#
#	./run.sh                       # 8 rounds of everything into new.txt
#	ROUNDS=4 BENCH='W1|W2' OUT=w.txt ./run.sh
#	BEFORE=/tmp/before/bench ./run.sh && benchstat before.txt new.txt
set -eu
cd "$(dirname "$0")"
rounds="${ROUNDS:-8}"
out="${OUT:-new.txt}"
before_out="${BEFORE_OUT:-before.txt}"
filter="${BENCH:-.}"
benchtime="${BENCHTIME:-1s}"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/new.test" .
: >"$out"
if [ -n "${BEFORE:-}" ]; then
	(cd "$BEFORE" && go test -c -o "$dir/before.test" .)
	: >"$before_out"
fi
one() { # one BINARY OUTPUT: a round of every benchmark of BINARY
	"$1" -test.run '^$' -test.bench "$filter" -test.benchtime "$benchtime" -test.count 1 | tee -a "$2"
}
i=1
while [ "$i" -le "$rounds" ]; do
	echo "== round $i of $rounds" >&2
	if [ -z "${BEFORE:-}" ]; then
		one "$dir/new.test" "$out"
	elif [ $((i % 2)) -eq 1 ]; then
		one "$dir/before.test" "$before_out"
		one "$dir/new.test" "$out"
	else
		one "$dir/new.test" "$out"
		one "$dir/before.test" "$before_out"
	fi
	i=$((i + 1))
done
