// Package qr draws a QR code as an SVG image, for the printed pages that
// carry a link a person should open on a phone (the director's "keep
// this" card, a board's result link). The encoding is
// github.com/skip2/go-qrcode's; this package only draws its modules. Any
// package may import it.
package qr

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// MaxText bounds what a code carries: a link, not a document.
const MaxText = 1024

// SVG is text as a QR code (error correction M, the quiet zone of four
// modules around it), an <svg> element of size mm millimetres whose
// modules are one path of black squares on white: it prints sharp at any
// size and needs no style sheet.
func SVG(text string, mm int) (string, error) {
	if text == "" || len(text) > MaxText {
		return "", fmt.Errorf("qr: %d bytes to encode; from 1 to %d", len(text), MaxText)
	}
	code, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return "", fmt.Errorf("qr: %w", err)
	}
	bits := code.Bitmap() // with the quiet zone
	n := len(bits)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="qr" viewBox="0 0 %d %d" width="%dmm" height="%dmm" shape-rendering="crispEdges" role="img">`, n, n, mm, mm)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y, row := range bits {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			// One rectangle per run of dark modules keeps the path short.
			fmt.Fprintf(&b, "M%d %dh%dv1h-%dz", start, y, x-start, x-start)
		}
	}
	b.WriteString(`"/></svg>`)
	return b.String(), nil
}

// Modules is the code's modules (true dark), quiet zone included: what
// SVG draws, for a test to compare with a decoder's reading.
func Modules(text string) ([][]bool, error) {
	code, err := qrcode.New(text, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("qr: %w", err)
	}
	return code.Bitmap(), nil
}
