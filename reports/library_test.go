package reports

import (
	"strings"
	"testing"
)

// The echarts library is written into the page as it is, outside the
// template (see libraryMark): it must not end its own script element, and
// the template must keep the mark it is written at, once, outside any
// action.
func TestLibraryWrittenAsItIs(t *testing.T) {
	if strings.Contains(strings.ToLower(echartsJS), "</script") {
		t.Error("the echarts library holds </script: it cannot go into the page as it is")
	}
	if n := strings.Count(reportTemplate, libraryMark); n != 1 {
		t.Fatalf("report.html.tmpl has %d library marks, want 1", n)
	}
	page := pageTemplates()
	for i, tm := range page {
		if tm == nil || tm.Tree == nil {
			t.Errorf("part %d of the page did not parse", i)
		}
	}
}
