package imports

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/draughts-arbiter/arbiter"

// rule is what a package may import of the module: the packages in may
// (a name ending in "/..." is that package and everything below it), and
// none of those in not (the same patterns, checked first). http says
// whether it may import net/http: only the HTTP front and the command may.
type rule struct {
	may, not []string
	http     bool
}

// The domain's vocabulary and the referee: what every wing builds on.
var core = []string{"rules/...", "arbiter", "internal/message"}

// rules are the packages' rules, the most specific pattern first, as their
// doc comments state them. Data flows config -> schedule -> games -> (rules,
// arbiter) -> store -> reports; the two wings under match/ share the game
// (match), the schedule and the Player, not each other's events.
var rules = []struct {
	pkg string
	rule
}{
	{"rules", rule{}},
	{"rules/tally", rule{}},
	{"rules/pdn", rule{may: []string{"rules"}}},
	{"rules/egdb", rule{may: []string{"rules"}}},
	{"internal/...", rule{}},
	{"arbiter", rule{may: []string{"rules", "rules/pdn", "internal/message"}}},
	{"reports/stats", rule{}},
	{"reports/rating", rule{may: []string{"rules/tally"}}},
	{"reports/tiebreak", rule{may: []string{"rules/tally"}}},
	{"reports/sheets", rule{may: []string{"rules/...", "reports/tiebreak", "reports/rating", "internal/message"}}},
	{"reports", rule{may: append([]string{"reports/...", "internal/filelock"}, core...)}},
	{"configs", rule{may: append([]string{"match/schedule", "match/schedule/swiss", "match/engines/adjudicate", "reports/stats", "reports/tiebreak"}, core...)}},
	{"match/schedule/...", rule{may: []string{"rules/tally", "match/schedule/..."}}},
	{"match/internal/...", rule{}},
	{"match", rule{may: append([]string{"match/internal/..."}, core...)}},
	// The engines' wing: protocols, players and engine events. Never the
	// people's wing nor the web.
	{"match/engines/...", rule{
		not: []string{"match/people/...", "match/web/..."},
		may: append([]string{"match", "match/internal/...", "match/engines/...", "match/schedule/...", "configs", "reports", "reports/stats", "internal/sqlitefile"}, core...),
	}},
	// The people's wing: online games and directed events. An engine
	// player (match/engines), never the engines' events (tournament,
	// store, cluster) nor their protocols.
	{"match/people/...", rule{
		not: []string{"match/engines/tournament/...", "match/engines/store/...", "match/engines/cluster/...", "match/web/..."},
		may: append([]string{"match", "match/engines", "match/people/...", "match/schedule/...", "configs", "reports/tiebreak", "reports/stats", "reports/rating", "internal/sqlitefile", "internal/strictjson"}, core...),
	}},
	// The HTTP front over both wings.
	{"match/web", rule{may: []string{"...", "!cmd/..."}, http: true}},
	{"cmd/...", rule{may: []string{"..."}, http: true}},
}

// match reports whether pkg (relative to the module) is named by pattern.
func match(pattern, pkg string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

func ruleOf(pkg string) (rule, bool) {
	for _, r := range rules {
		if match(r.pkg, pkg) {
			return r.rule, true
		}
	}
	return rule{}, false
}

// allowed reports whether a package under r may import imp.
func (r rule) allowed(imp string) bool {
	for _, p := range r.not {
		if match(p, imp) {
			return false
		}
	}
	ok := false
	for _, p := range r.may {
		if neg, isNeg := strings.CutPrefix(p, "!"); isNeg {
			if match(neg, imp) {
				return false
			}
		} else if match(p, imp) {
			ok = true
		}
	}
	return ok
}

// pkgInfo is one package of the tree: its imports (of its non-test files)
// and its doc comment.
type pkgInfo struct {
	imports map[string]bool
	doc     string
}

func readTree(t *testing.T) map[string]*pkgInfo {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the module root: %v", err)
	}
	pkgs := map[string]*pkgInfo{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "out" || n == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		info := pkgs[rel]
		if info == nil {
			info = &pkgInfo{imports: map[string]bool{}}
			pkgs[rel] = info
		}
		if f.Doc != nil {
			info.doc += f.Doc.Text()
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			info.imports[ip] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// TestImportGraph: every package imports only what its rule allows; only
// the HTTP front and the command know net/http.
func TestImportGraph(t *testing.T) {
	pkgs := readTree(t)
	if len(pkgs) < 20 {
		t.Fatalf("read %d packages: the walk missed the tree", len(pkgs))
	}
	names := make([]string, 0, len(pkgs))
	for n := range pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, pkg := range names {
		r, ok := ruleOf(pkg)
		if !ok {
			t.Errorf("%s: no rule for this package: add one to imports_test.go as its doc comment states it", pkg)
			continue
		}
		for imp := range pkgs[pkg].imports {
			if imp == "net/http" || strings.HasPrefix(imp, "net/http/") {
				if !r.http {
					t.Errorf("%s imports %s: a domain package knows nothing of HTTP", pkg, imp)
				}
				continue
			}
			rel, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue // the standard library or another module
			}
			if !r.allowed(rel) {
				t.Errorf("%s imports %s, which its rule does not allow", pkg, rel)
			}
		}
	}
}

// TestPackageDocs: every package says what it is and who may import it
// (a doc comment that speaks of its importers: "Imported by ...", "Anyone
// may import it", "nothing imports it" for a command).
func TestPackageDocs(t *testing.T) {
	for pkg, info := range readTree(t) {
		doc := strings.ToLower(info.doc)
		switch {
		case strings.TrimSpace(doc) == "":
			t.Errorf("%s has no doc comment", pkg)
		case !strings.Contains(doc, "import"):
			t.Errorf("%s: its doc comment does not say who may import it", pkg)
		}
	}
}

// TestRuleRefusals: the rules refuse the imports the design forbids.
func TestRuleRefusals(t *testing.T) {
	for _, c := range []struct{ pkg, imp string }{
		{"reports", "match"},
		{"reports", "match/schedule/swiss"},
		{"reports/sheets", "match/people/director"},
		{"rules", "arbiter"},
		{"arbiter", "match"},
		{"match/engines/tournament", "match/people/online"},
		{"match/engines/hub", "match/web"},
		{"match/people/online", "match/engines/tournament"},
		{"match/people/director", "match/engines/store"},
		{"match/people/online", "match/engines/cluster"},
		{"match/people/online", "match/engines/hub"},
		{"match/schedule/swiss", "match"},
		{"configs", "reports"},
		{"match/web", "cmd/arbiter"},
	} {
		r, ok := ruleOf(c.pkg)
		if !ok || r.allowed(c.imp) {
			t.Errorf("%s may import %s", c.pkg, c.imp)
		}
	}
	for _, pkg := range []string{"rules", "arbiter", "match/people/online", "match/people/director", "match/engines/tournament", "reports", "reports/sheets", "configs"} {
		if r, _ := ruleOf(pkg); r.http {
			t.Errorf("%s may import net/http", pkg)
		}
	}
}
