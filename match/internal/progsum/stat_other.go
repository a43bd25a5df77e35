//go:build !linux

package progsum

import "os"

// keyOf is fi's key. Without the change time and the inode, a file's
// modification time alone can be set back: such a system hashes once per
// process only (ok true, never remembered on disk: see settled).
func keyOf(path string, fi os.FileInfo) (key, bool) {
	return key{path: path, size: uint64(fi.Size()), mtimeNs: fi.ModTime().UnixNano(), ctimeNs: -1}, true
}
