//go:build !windows

package cb

import "github.com/ebitengine/purego"

// openLibrary is dlopen: a path with a "/" as it is, a bare name from the
// loader's search paths.
func openLibrary(path string) (uintptr, error) {
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

// librarySymbol is dlsym.
func librarySymbol(h uintptr, name string) (uintptr, error) { return purego.Dlsym(h, name) }

// closeLibrary is dlclose.
func closeLibrary(h uintptr) { purego.Dlclose(h) }
