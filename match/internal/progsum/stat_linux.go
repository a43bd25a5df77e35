package progsum

import (
	"os"
	"syscall"
)

// keyOf is fi's key; ok is false when the system does not say enough.
func keyOf(path string, fi os.FileInfo) (key, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return key{}, false
	}
	return key{path: path, ino: st.Ino, size: uint64(st.Size),
		mtimeNs: st.Mtim.Nano(), ctimeNs: st.Ctim.Nano()}, true
}
