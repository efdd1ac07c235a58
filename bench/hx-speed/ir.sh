#!/bin/sh
# ir.sh BIN BENCH [A B]: instructions per op of BENCH = (Ir at Bx - Ir at Ax)/(B-A), whole process, GOMAXPROCS=1, GOGC=off unless GOGC is set. BIN must be an absolute path (the runs start in /tmp).
bin=$1; bench=$2; a=${3:-1}; b=${4:-4}
run() {
  out=/tmp/speedcg/cg.$$.$1.out
  (cd /tmp && GOGC=${GOGC:-off} GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=$out "$bin" -test.run '^$' -test.bench "$bench" -test.benchtime ${1}x >/dev/null 2>&1)
  grep -E '^totals:' $out | awk '{print $2}'; rm -f $out
}
ia=$(run $a); ib=$(run $b)
echo "$bench $(echo "$ia $ib $a $b" | awk '{printf "%.2f MIr/op", ($2-$1)/($4-$3)/1e6}')"
