package cb

import (
	"os"
	"path/filepath"
	"strings"
)

// LibraryFile is the file a host started in dir loads for lib: a path as
// given (relative to dir), and a bare name (no "/") the file of that name in
// dir when there is one, as an engine author who puts kingsrow.so beside the
// event's config expects. Only a bare name with no such file is left to the
// dynamic loader's own search paths; ok is false then, as the file is not
// known.
func LibraryFile(dir, lib string) (path string, ok bool) {
	// A path on Windows may name its folders with "\\" as well as "/".
	if !strings.ContainsAny(lib, "/"+string(filepath.Separator)) {
		if _, err := os.Stat(filepath.Join(dir, lib)); err != nil {
			return lib, false
		}
		lib = "./" + lib // dlopen takes a name without "/" from its search paths
	}
	if !filepath.IsAbs(lib) && dir != "" && dir != "." {
		lib = filepath.Join(dir, lib)
	}
	return lib, true
}
