package cb

import (
	"os"
	"path/filepath"
	"testing"
)

// TestLibraryFile checks where a host started in a directory finds its
// library: beside it for a bare name that is there, the loader's search
// paths only for a bare name that is not.
func TestLibraryFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kingsrow.so"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir, lib, want string
		ok             bool
	}{
		{dir, "kingsrow.so", filepath.Join(dir, "kingsrow.so"), true},
		{dir, "libc.so.6", "libc.so.6", false},
		{dir, "./kingsrow.so", filepath.Join(dir, "kingsrow.so"), true},
		{dir, "/opt/cake.so", "/opt/cake.so", true},
		{"", "sub/cake.so", "sub/cake.so", true},
	} {
		got, ok := LibraryFile(c.dir, c.lib)
		if got != c.want || ok != c.ok {
			t.Errorf("LibraryFile(%q, %q) = %q, %v; want %q, %v", c.dir, c.lib, got, ok, c.want, c.ok)
		}
	}
	// From the host's own directory, a bare name beside it keeps a "/", or
	// dlopen would search its paths instead.
	t.Chdir(dir)
	if got, ok := LibraryFile(".", "kingsrow.so"); got != "./kingsrow.so" || !ok {
		t.Errorf(`LibraryFile(".", "kingsrow.so") = %q, %v; want "./kingsrow.so", true`, got, ok)
	}
}
