package sitemap_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/gositemap/sitemap"
)

// FuzzLint: lint of any bytes never panics, ends, and gives findings with
// a code, a severity and the document.
func FuzzLint(f *testing.F) {
	for _, c := range append(append(lintDocumentCases(), lintEntryCases()[:12]...), lintExtensionCases()[:6]...) {
		if len(c.bad) < 4096 {
			f.Add([]byte(c.bad))
		}
	}
	f.Add([]byte("\xef\xbb\xbf\n<?xml version='1.0' encoding='windows-1252'?><!DOCTYPE a [<!ENTITY b 'c'>]><urlset><url><loc>\x93</loc></url>"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		s := sitemap.New().SetSelection(sitemap.Selection{RootOnly: true})
		for fd := range s.Lint(context.Background(), lintBase, bytes.NewReader(doc), &sitemap.LintOptions{NoRobots: true, Now: lintNow}) {
			if fd.Code == "" || fd.Severity == "" || fd.Document != lintBase || fd.Line < 0 || fd.Column < 0 {
				t.Fatalf("finding %+v", fd)
			}
		}
	})
}
