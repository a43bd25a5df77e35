package web

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// The browser code defines each of its small helpers once, in dom.js
// (issue 21: $ had been defined five times, el three times with different
// signatures, fmtClock twice); every other script imports them.
func TestDomHelpersDefinedOnce(t *testing.T) {
	def := regexp.MustCompile(`(?m)^(?:export\s+)?(?:const|let|var|function)\s+(\$|el|fmtClock)[\s=(]`)
	files, err := fs.Glob(Assets, "assets/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts found: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "/dom.js") {
			continue
		}
		data, err := fs.ReadFile(Assets, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range def.FindAllSubmatch(data, -1) {
			t.Errorf("%s defines %s again: import it from dom.js", f, m[1])
		}
	}
}
