package director

import (
	"errors"
	"strings"
	"testing"
)

func TestParsePlayers(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		n      int      // players read
		errors []string // "line:column" of each problem
	}{
		{"full", "name,club,federation,fed_id,rating\nAnna,DC Oslo,nor,123,2100\nBo,,DEN,,\n", 2, nil},
		{"semicolons and BOM", "\ufeffName;Rating\nAnna;1900\n", 1, nil},
		{"quoted comma", "name,club\n\"Smith, J.\",\"A, B\"\n", 1, nil},
		{"blank lines", "name\nA\n\nB\n", 2, nil},
		{"empty", "", 0, []string{"1:"}},
		{"header only", "name,rating\n", 0, []string{"2:"}},
		{"unknown column", "name,shoe size\nA,44\n", 0, []string{"1:2"}},
		{"no name column", "club\nX\n", 0, []string{"1:"}},
		{"twice", "name,name\nA,B\n", 0, []string{"1:2"}},
		{"bad rating and no name", "name,rating\nA,12x\n,1500\nC,100000\n", 0, []string{"2:2", "3:1", "4:2"}},
		{"too many fields", "name,club\nA,B,C\n", 0, []string{"2:3"}},
		{"bare quote", "name\nA\"b\n", 0, []string{"2:2"}},
		{"bad utf-8", "name\nA\xff\n", 0, []string{"2:"}}, // a whole line: no column
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := ParsePlayers([]byte(tc.in))
			if tc.errors == nil {
				if err != nil || len(ps) != tc.n {
					t.Fatalf("got %d players, %v", len(ps), err)
				}
				return
			}
			var ce *CSVError
			if !errors.As(err, &ce) || ps != nil {
				t.Fatalf("got %v, %v", ps, err)
			}
			var got []string
			for _, p := range ce.Problems {
				got = append(got, p.Args["line"]+":"+p.Args["column"])
			}
			if strings.Join(got, " ") != strings.Join(tc.errors, " ") {
				t.Fatalf("problems at %v, want %v (%v)", got, tc.errors, err)
			}
		})
	}
	ps, _ := ParsePlayers([]byte("name,club,federation,fed_id,rating\nAnna,DC Oslo,nor,123,2100\n"))
	if p := ps[0]; p.Name != "Anna" || p.Club != "DC Oslo" || p.Federation != "NOR" || p.FedID != "123" || p.Rating != 2100 {
		t.Fatalf("read %+v", p)
	}
	if _, err := ParsePlayers(make([]byte, MaxCSV+1)); err == nil {
		t.Fatal("an oversized file read")
	}
}

func FuzzParsePlayers(f *testing.F) {
	f.Add([]byte("name,club,federation,fed_id,rating\nAnna,DC,NOR,1,2000\n"))
	f.Add([]byte("name;rating\n\"a;b\";1\n"))
	f.Add([]byte("\ufeffname\n\"unterminated\n"))
	f.Add([]byte("name,title,club\nAnna,GMI,DC\n\nanna,gmi,dc\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, lines, err := ParsePlayerLines(data)
		if len(lines) != len(ps) {
			t.Fatalf("%d players on %d lines", len(ps), len(lines))
		}
		for i := 1; i < len(lines); i++ {
			if lines[i] <= lines[i-1] || lines[0] < 2 {
				t.Fatalf("lines %v not rising from 2", lines)
			}
		}
		if err == nil {
			// Look-alikes in the file are named by line, never a crash.
			_ = (&Snapshot{}).duplicates(ps, lines)
		}
		if err != nil {
			if ps != nil {
				t.Fatal("players and an error")
			}
			var ce *CSVError
			if !errors.As(err, &ce) || len(ce.Problems) == 0 {
				t.Fatalf("error %v is not a CSVError", err)
			}
			return
		}
		for _, p := range ps {
			if _, err := checkPlayer(p); err != nil {
				t.Fatalf("read a player that does not check: %+v", p)
			}
		}
	})
}

func FuzzParseOutcome(f *testing.F) {
	for _, s := range []string{"1-0", "½-½", "+-", "--", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := ParseOutcome(s)
		if ok && (Board{WhiteResult: r[0], BlackResult: r[1]}).Score() == "" {
			t.Fatalf("%q read as %v", s, r)
		}
	})
}
