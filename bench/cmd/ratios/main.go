// Command ratios reads the output of the bench module's benchmarks (one or
// more files of run.sh) and prints the ratios that issue 19 sets its
// targets on: the median of each benchmark's metric over the median of its
// reference, on the clock (ns/op) and in CPU time (cpu-ns/op), and the
// absolute rows of W3 and the allocations.
//
//	go run ./cmd/ratios new.txt
//	go run ./cmd/ratios baseline.txt new.txt    # a column for each file
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// samples holds, for each benchmark and metric, the values read.
type samples map[string]map[string][]float64

// nameRE takes the "Benchmark" prefix and the GOMAXPROCS suffix off a name.
var nameRE = regexp.MustCompile(`^Benchmark(.*?)(-\d+)?$`)

func read(path string) (samples, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s := samples{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := nameRE.FindStringSubmatch(fields[0])[1]
		if s[name] == nil {
			s[name] = map[string][]float64{}
		}
		// After the name and the count come value-unit pairs.
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			s[name][fields[i+1]] = append(s[name][fields[i+1]], v)
		}
	}
	return s, sc.Err()
}

// median is the median of the values of name's metric, or 0 with none.
func (s samples) median(name, metric string) float64 {
	v := slices.Clone(s[name][metric])
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// A ratio is a target of issue 19: of over ref, at most target.
type ratio struct{ of, ref, target string }

var ratios = []ratio{
	{"W1/parse", "W1/gosax-extract", "≤ 1.0×"},
	{"W2/parse", "W2/gosax-extract", "≤ 1.0×"},
	{"W1/scan", "W1/gosax-events", "≤ 1.3×"},
	{"W2/scan", "W2/gosax-events", "≤ 1.3×"},
	{"RSS/scan", "RSS/gosax-events", ""},
	{"W1/parse-gzip", "W1/parse", "≤ 1.15×"},
	{"W2/parse-gzip", "W2/parse", "≤ 1.15×"},
	{"RSS/parse", "RSS/gosax-events", "≤ 2×"},
	{"Text/parse", "Text/linescan-kept", "≤ 1.5×"},
}

// An absolute row is one benchmark's metric, scaled.
type absolute struct {
	name, metric, unit string
	scale              float64
	target             string
}

var absolutes = []absolute{
	{"W3/latency=0s/first-call", "ns/op", "s", 1e9, "≤ 1.0 s"},
	{"W3/latency=20ms/first-call", "ns/op", "s", 1e9, "≤ 1.0 s"},
	{"W3/latency=0s/parse", "ns/op", "s", 1e9, "≤ 0.7 s"},
	{"W3/latency=20ms/parse", "ns/op", "s", 1e9, "≤ 0.7 s"},
	{"W3/latency=0s/first-call", "cpu-ns/op", "s CPU", 1e9, ""},
	{"W3/latency=20ms/first-call", "cpu-ns/op", "s CPU", 1e9, ""},
	{"W3/latency=0s/parse", "cpu-ns/op", "s CPU", 1e9, ""},
	{"W3/latency=20ms/parse", "cpu-ns/op", "s CPU", 1e9, ""},
	{"W3/latency=0s/parse", "peak-MiB", "MiB", 1, "no higher"},
	{"W3/latency=20ms/parse", "peak-MiB", "MiB", 1, "no higher"},
	{"W3/latency=0s/first-call", "peak-MiB", "MiB", 1, "no higher"},
	{"W3/latency=20ms/first-call", "peak-MiB", "MiB", 1, "no higher"},
	{"W3/latency=0s/stream", "peak-MiB", "MiB", 1, "flat"},
	{"W3/latency=20ms/stream", "peak-MiB", "MiB", 1, "flat"},
	{"W1/parse", "allocs/url", "", 1, "no higher"},
	{"W2/parse", "allocs/url", "", 1, "no higher"},
	{"RSS/parse", "allocs/url", "", 1, "no higher"},
	{"Text/parse", "allocs/url", "", 1, "no higher"},
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: ratios FILE...")
		os.Exit(2)
	}
	var files []samples
	for _, p := range os.Args[1:] {
		s, err := read(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		files = append(files, s)
	}
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprint(w, "ratio\ttarget")
	for _, p := range os.Args[1:] {
		fmt.Fprintf(w, "\t%s clock\t%s CPU", p, p)
	}
	fmt.Fprintln(w)
	for _, r := range ratios {
		fmt.Fprintf(w, "%s / %s\t%s", r.of, r.ref, r.target)
		for _, s := range files {
			for _, m := range []string{"ns/op", "cpu-ns/op"} {
				fmt.Fprintf(w, "\t%s", div(s.median(r.of, m), s.median(r.ref, m)))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "row\ttarget")
	for _, p := range os.Args[1:] {
		fmt.Fprintf(w, "\t%s\t", p)
	}
	fmt.Fprintln(w)
	for _, a := range absolutes {
		fmt.Fprintf(w, "%s %s\t%s", a.name, a.metric, a.target)
		for _, s := range files {
			v := s.median(a.name, a.metric)
			if v == 0 {
				fmt.Fprint(w, "\t-\t")
				continue
			}
			fmt.Fprintf(w, "\t%.4g %s\t", v/a.scale, a.unit)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
}

// div formats a/b as a ratio, or "-" when either is missing.
func div(a, b float64) string {
	if a == 0 || b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", a/b)
}
