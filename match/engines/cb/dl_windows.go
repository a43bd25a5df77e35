package cb

import (
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"
)

// openLibrary is LoadLibraryEx. A path with a folder is made absolute and
// loaded with the DLL's own folder first in the search for the DLLs it
// needs in turn (an engine's endgame-database or runtime DLL beside it, as
// CheckerBoard finds them); a bare name is left to the system's search.
// A 64-bit arbiter loads 64-bit engines only (Windows cannot mix them in
// one process): a 32-bit DLL fails here with ERROR_BAD_EXE_FORMAT.
func openLibrary(path string) (uintptr, error) {
	var flags uintptr
	if strings.ContainsAny(path, `/\`) {
		abs, err := filepath.Abs(path)
		if err != nil {
			return 0, err
		}
		path, flags = abs, windows.LOAD_WITH_ALTERED_SEARCH_PATH
	}
	h, err := windows.LoadLibraryEx(path, 0, flags)
	return uintptr(h), err
}

// librarySymbol is GetProcAddress.
func librarySymbol(h uintptr, name string) (uintptr, error) {
	return windows.GetProcAddress(windows.Handle(h), name)
}

// closeLibrary is FreeLibrary.
func closeLibrary(h uintptr) { windows.FreeLibrary(windows.Handle(h)) }
