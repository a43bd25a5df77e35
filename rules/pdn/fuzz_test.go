package pdn

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPDNReader feeds arbitrary text to the reader. It must not panic or
// loop, every game it reads must survive a write and read round trip, and
// auditing it must not panic either.
func FuzzPDNReader(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pdn")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		// Seed with the first games of each file (whole files are too big to mutate well).
		text := string(data)
		if i := strings.Index(text[1:], "\n[Event"); i > 0 {
			text = text[:i+1]
		}
		f.Add(text)
	}
	f.Add(good + "1. 32-28 (1. 33-28 {c} 18-23 (1... 19-23 2. 28x19) 2. 39-33) 17-22!? $14 ; x\n% esc\n2. 28x17 2-0")
	f.Add("[FEN \"B:W14,15,18,21,22,23,30:B6,7,8,10,12,13\"]\n1... 10x26 18-14 *")
	f.Add("\xEF\xBB\xBF[GameType \"25\"]\r\n1. c3-d4 d6-e5 2. d4:f6 e7:g5 *\r\n")
	f.Add("[White \"Jos\xe9\"]\r\n[Black M\xfcller \x96 \x81]\r\n1. 32-28 *\r\n")                                                                          // Latin-1, Windows-1252
	f.Add("[White \"\xc8\xe2\xe0\xed\xee\xe2\"]\r\n{ \xf5\xee\xf0\xee\xf8\xee }\r\n1. c3-d4 *\r\n")                                                        // Windows-1251: Иванов, хорошо
	f.Add("[White \"\xe9\xd7\xc1\xce\xcf\xd7\"]\n1. c3-d4 *\n")                                                                                            // KOI8-R: Иванов
	f.Add("\xff\xfe[\x00W\x00 \x00\"\x00\x18\x04\"\x00]\x00\n\x001\x00.\x00 \x003\x002\x00-\x002\x008\x00 \x00*\x00")                                      // UTF-16LE with BOM
	f.Add("[\x00E\x00 \x00\"\x00\x00\xd8\"\x00]\x00\n\x00*")                                                                                               // UTF-16LE, no BOM, a lone surrogate, odd length
	f.Add("/FEN \"W:W31-50:B1-20\"/\n/FEN \"B:W28,31-36,38-50:B1-20\"/\n01... 20-25 (1... 19-23 /fen W:W28:B19/ 2. 28x19) /FEN \"?:W28:B19\"/ 2. 28x19 *") // PDN 3.0 set-ups
	f.Add("[Event \"x\"]\n1. 32-28 /FEN \"W:W31:B1\"/ *\n[&#x00c9;v&#x00e9;nement \"y\"]\n[Type de jeu \"25\"]\n[Blancs \"z\"]\n1. c3-d4 *")               // a set-up with no move after it; French tags
	f.Add("[Result \"2-0\"]\n1. 32-28 19-23 0-2\n")                                                                                                        // the Result tag and the text disagree
	f.Add("1. 11-15 {never closed\n\n[Event \"x\"]\n1. 9-13 *")
	// The forms people write (testdata/form-*.pdn seed their first games):
	// padded squares and spaced separators, alphanumeric moves without a
	// separator, "?" as the side to move, a man on its king row, a padded
	// square before a move number.
	f.Add("  23. 23x 3 15-20  24.  3x25  1- 7 1. 31 - 27 19 -24 20- 25 26x 17x 10 2-0")
	f.Add("1.a3b4 b6a5 2.b4c5 d6b4 *")
	f.Add("[FEN \"?:W14,K4,26,30:B6,13,K31,20\"]\n1. 14-9 31x22 *\n[FEN \"?:W29:B4\"]\n*")
	f.Add("[FEN \"W:W2,18,27:B30,6,K9\"]\n1. 2-7 30-26 *")
	f.Add("1. 11-15 22- 3. 9-13 *")
	f.Add("[Result \"4-6\"]\n01. 32-28  19-23 02. 28x19 4-6\n[Result \"1-9\"]\n1. 4-6 1-9 *") // Dambase scores
	f.Add("[\n[Event \"x\"]\n1. 32-28 *\n\nEvent \"y\"]\n[Site \"\"]\n1. 33-28 -\n[[Result \"-\"] 1.31-26 -")
	f.Add("[Event \"x\"]\n[Site \"wk\"]\\r\n\\r\n1. 32-28 {[%clock w1:29:46 B1:29:40]} 19-23 1-1\\r\n\\r\n\n[Empty]\n[Event \"y\"]\\r\n1. 33-28 *")
	f.Add("1. 9-13 23-19 2. 6-9 26-22Whiteoversteppedthetimecontrolonthismove. 1-0\n")
	f.Add("1. 33-29 19-23 2. 35-30 { nested { comment } } 1-1\n[Event \"lost\"]\n1. - - 2. - - 1/2-1/2\n")
	// RULES.md section 8: algebraic squares on all 64 squares (Turkish,
	// GameType 30), Alquerque's grid, Frisian (40) with its state field.
	f.Add("[GameType \"30\"]\n1. a3-a4 b6-b5 2. a4xa6 *")
	f.Add("[Variant \"alquerque\"]\n[FEN \"W:Wd3:Be4:RWd3/c3\"]\n1. d3-e3 e4xe2 *")
	f.Add("[GameType \"40\"]\n[FEN \"W:WK46,15:B1:KW46/2\"]\n1. 46-41 1-6 *")
	f.Fuzz(func(t *testing.T, text string) {
		r := NewReader(strings.NewReader(text), "fuzz.pdn")
		for i := 0; ; i++ {
			if i > len(text)+2 {
				t.Fatalf("more calls to Next than bytes of input: the reader is not advancing")
			}
			g, err := r.Next()
			if err == io.EOF {
				return
			}
			var pe *ParseError
			if errors.As(err, &pe) {
				if pe.Line < 1 || pe.Game < 1 || pe.Err == nil {
					t.Fatalf("incomplete error %+v", pe)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			_ = Check(g, nil).String()
			if g.Tag("Result") == "" {
				g.SetTag("Result", g.Result)
			}
			var b strings.Builder
			if err := Write(&b, g); err != nil {
				t.Fatal(err)
			}
			back, err := NewReader(strings.NewReader(b.String()), "back.pdn").Next()
			if err != nil {
				t.Fatalf("written game does not read back: %v\n%s", err, b.String())
			}
			sameGame(t, g, back)
		}
	})
}
