package configs

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Data flows config -> schedule -> games -> store -> reports: the config
// package may use the statistics (reports/stats, for the SPRT settings) but
// never the reports themselves.
func TestConfigsDoNotImportReports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	for _, f := range files {
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasSuffix(path, "/arbiter/reports") {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}
