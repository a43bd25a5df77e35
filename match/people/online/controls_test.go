package online

import "testing"

// A game stored before control characters were refused still exports
// without them raw (issue 24, finding 6).
func TestEscapeControls(t *testing.T) {
	for in, want := range map[string]string{
		"32-28":                 "32-28",
		"a\x1b[2Jb":             "a\uFFFD[2Jb",
		"bell\a nul\x00":        "bell\uFFFD nul\uFFFD",
		"two\nlines\tkept":      "two\nlines\tkept",
		"C1 \u009b31m, DEL\x7f": "C1 \uFFFD31m, DEL\uFFFD",
	} {
		if got := escapeControls(in); got != want {
			t.Errorf("escapeControls(%q) = %q, want %q", in, got, want)
		}
	}
}
