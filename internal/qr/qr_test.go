package qr

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestSVGDrawsTheModules: the SVG's path, read back square by square, is
// exactly the code's modules, with the three finder patterns (7x7 rings)
// in their corners inside the four-module quiet zone, so a phone's camera
// finds the code.
func TestSVGDrawsTheModules(t *testing.T) {
	for _, text := range []string{"https://example.org/d/abcdefghijklmnopqrstuvwxyz0123456789-_ABCDEFG", "x"} {
		svg, err := SVG(text, 40)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := Modules(text)
		n := len(want)
		if !strings.Contains(svg, fmt.Sprintf(`viewBox="0 0 %d %d"`, n, n)) || !strings.Contains(svg, `width="40mm"`) {
			t.Fatalf("%q: the SVG's box: %.120s", text, svg)
		}
		got := make([][]bool, n)
		for i := range got {
			got[i] = make([]bool, n)
		}
		d := regexp.MustCompile(` d="([^"]*)"`).FindStringSubmatch(svg)[1]
		for _, m := range regexp.MustCompile(`M(\d+) (\d+)h(\d+)v1h-(\d+)z`).FindAllStringSubmatch(d, -1) {
			x, _ := strconv.Atoi(m[1])
			y, _ := strconv.Atoi(m[2])
			w, _ := strconv.Atoi(m[3])
			for i := x; i < x+w; i++ {
				if got[y][i] {
					t.Fatalf("module %d,%d drawn twice", i, y)
				}
				got[y][i] = true
			}
		}
		for y := range n {
			for x := range n {
				if got[y][x] != want[y][x] {
					t.Fatalf("%q: module %d,%d drawn %v, the code has %v", text, x, y, got[y][x], want[y][x])
				}
			}
		}
		// Finder patterns: a dark 7x7 ring at (4,4), (n-11,4), (4,n-11); the quiet zone light.
		for _, c := range [][2]int{{4, 4}, {n - 11, 4}, {4, n - 11}} {
			for i := range 7 {
				for _, p := range [][2]int{{c[0] + i, c[1]}, {c[0] + i, c[1] + 6}, {c[0], c[1] + i}, {c[0] + 6, c[1] + i}} {
					if !got[p[1]][p[0]] {
						t.Fatalf("%q: the finder pattern at %v misses module %v", text, c, p)
					}
				}
			}
		}
		for i := range n {
			if got[0][i] || got[i][0] || got[n-1][i] || got[i][n-1] {
				t.Fatalf("%q: the quiet zone is not light", text)
			}
		}
	}
}

func TestSVGRefuses(t *testing.T) {
	for _, text := range []string{"", strings.Repeat("a", MaxText+1)} {
		if _, err := SVG(text, 30); err == nil {
			t.Errorf("%d bytes encoded", len(text))
		}
	}
}
