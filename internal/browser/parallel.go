package browser

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// CheckTestsBegin reads the test files of the current directory (the
// package under test) and fails t for each top-level test that calls one
// of opens (the package's functions that open a page), directly or through
// another function of the package, without beginning with a call of begin
// (the package's browserTest, which makes it parallel). Such a test would
// run alone, after or before the others, and add its whole time to the
// package's.
func CheckTestsBegin(t *testing.T, begin string, opens ...string) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ast.FuncDecl{}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("reading the tests: %v", err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Body != nil {
				funcs[fd.Name.Name] = fd
			}
		}
	}
	opening := map[string]bool{}
	for _, name := range opens {
		opening[name] = true
	}
	for changed := true; changed; {
		changed = false
		for name, fd := range funcs {
			if !opening[name] && calls(fd.Body, opening) {
				opening[name], changed = true, true
			}
		}
	}
	for name, fd := range funcs {
		if !strings.HasPrefix(name, "Test") || name == "TestMain" || !opening[name] {
			continue
		}
		if firstCall(fd.Body) != begin {
			t.Errorf("%s (%s) opens a page but does not begin with %s(t): it would run alone", name, fset.Position(fd.Pos()), begin)
		}
	}
}

// calls reports whether body calls one of the functions named in names.
func calls(body ast.Node, names map[string]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && names[id.Name] {
				found = true
			}
		}
		return !found
	})
	return found
}

// firstCall is the name of the function the body's first statement calls,
// or "".
func firstCall(body *ast.BlockStmt) string {
	if len(body.List) == 0 {
		return ""
	}
	if es, ok := body.List[0].(*ast.ExprStmt); ok {
		if c, ok := es.X.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok {
				return id.Name
			}
		}
	}
	return ""
}
