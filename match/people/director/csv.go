package director

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/draughts-arbiter/arbiter/internal/message"
)

// The CSV columns ParsePlayers knows, by the names a header may give them
// (case and spaces aside).
var csvColumns = map[string]string{
	"name": "name", "player": "name",
	"club":       "club",
	"federation": "federation", "fed": "federation", "country": "federation",
	"fed_id": "fed_id", "federation id": "fed_id", "federation_id": "fed_id", "id": "fed_id", "fmjd id": "fed_id", "fide id": "fed_id",
	"rating": "rating", "elo": "rating",
	"title": "title",
}

// CSVError is every problem of a CSV import, each naming its line and
// column; nothing is imported when there is one.
type CSVError struct {
	Problems []*Error
}

func (e *CSVError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// maxCSVProblems bounds the problems a CSVError lists.
const maxCSVProblems = 50

// ParsePlayers reads players from CSV: a header row naming the columns
// (name is required; club, federation, fed_id, rating and title are optional;
// comma, semicolon or tab separated; a UTF-8 BOM is skipped), then one
// player a row. Every problem is reported with its line and column, and
// then no player is returned: an import is all or nothing.
func ParsePlayers(data []byte) ([]Player, error) {
	ps, _, err := ParsePlayerLines(data)
	return ps, err
}

// ParsePlayerLines is ParsePlayers with the line each player is on, for
// AddOptions.Lines.
func ParsePlayerLines(data []byte) ([]Player, []int, error) {
	ps, lines, err := parsePlayers(data)
	if err != nil {
		return nil, nil, err
	}
	return ps, lines, nil
}

func parsePlayers(data []byte) ([]Player, []int, error) {
	if len(data) > MaxCSV {
		return nil, nil, &CSVError{[]*Error{csvProblem(0, 0, fmt.Sprintf("the file is larger than %d bytes", MaxCSV))}}
	}
	r, bad := csvReader(data)
	if bad != nil {
		return nil, nil, bad
	}
	var problems []*Error
	add := func(line, col int, detail string) {
		if len(problems) < maxCSVProblems {
			problems = append(problems, csvProblem(line, col, detail))
		}
	}
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil, &CSVError{[]*Error{csvProblem(1, 0, "empty: a header row (name, club, federation, fed_id, rating) and one row per player")}}
	}
	if err != nil {
		return nil, nil, &CSVError{[]*Error{parseProblem(err)}}
	}
	cols := make([]string, len(header))
	seen := map[string]int{}
	for i, h := range header {
		key := strings.ToLower(strings.TrimSpace(h))
		c, ok := csvColumns[key]
		if !ok {
			add(1, i+1, fmt.Sprintf("unknown column %q (name, club, federation, fed_id, rating, title)", h))
			continue
		}
		if j, dup := seen[c]; dup {
			add(1, i+1, fmt.Sprintf("column %q again (column %d is %s)", h, j, c))
			continue
		}
		seen[c] = i + 1
		cols[i] = c
	}
	if _, ok := seen["name"]; !ok {
		add(1, 0, "no name column")
		return nil, nil, &CSVError{problems}
	}
	var out []Player
	var lines []int
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
				continue // FieldsPerRecord is -1: not reached
			}
			problems = append(problems, parseProblem(err))
			break
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		if len(rec) > len(header) {
			add(line, len(header)+1, fmt.Sprintf("%d fields where the header has %d", len(rec), len(header)))
			continue
		}
		if len(out) >= MaxPlayers {
			add(line, 0, fmt.Sprintf("more than %d players", MaxPlayers))
			break
		}
		var p Player
		for i, v := range rec {
			switch cols[i] {
			case "name":
				p.Name = v
			case "club":
				p.Club = v
			case "federation":
				p.Federation = v
			case "fed_id":
				p.FedID = v
			case "title":
				p.Title = v
			case "rating":
				v = strings.TrimSpace(v)
				if v == "" {
					continue
				}
				n, err := strconv.Atoi(v)
				if err != nil {
					add(line, i+1, fmt.Sprintf("rating %q is not a whole number", v))
					continue
				}
				p.Rating = n
			}
		}
		checked, err := checkPlayer(p)
		if err != nil {
			col := 0
			var e *Error
			if errors.As(err, &e) {
				col = seen[e.Args["field"]]
				err = errors.New(e.Args["field"] + ": " + e.Args["detail"])
			}
			add(line, col, err.Error())
			continue
		}
		out = append(out, checked)
		lines = append(lines, line)
	}
	if len(problems) > 0 {
		return nil, nil, &CSVError{problems}
	}
	if len(out) == 0 {
		return nil, nil, &CSVError{[]*Error{csvProblem(2, 0, "no players after the header row")}}
	}
	return out, lines, nil
}

func csvProblem(line, col int, detail string) *Error {
	return placed(message.Invalid, "director.csv", line, col, detail)
}

// placed is a problem of an imported file (code "director.csv" or
// "director.trf") at its line and column, naming only the place known: a
// problem of the whole file (line 0: too large, not readable) is code-file
// and names neither, one of a whole line (column 0: a column missing from
// the header) is code-line and names no column. A director read "CSV line
// 1, column 0: no id column" and looked for a column 0.
func placed(kind message.Kind, code string, line, col int, detail string) *Error {
	switch {
	case line <= 0:
		return refuse(kind, code+"-file", "detail", detail)
	case col <= 0:
		return refuse(kind, code+"-line", "line", fmt.Sprint(line), "detail", detail)
	}
	return refuse(kind, code, "line", fmt.Sprint(line), "column", fmt.Sprint(col), "detail", detail)
}

func parseProblem(err error) *Error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return csvProblem(pe.Line, pe.Column, pe.Err.Error())
	}
	return csvProblem(0, 0, err.Error())
}

// sniffComma picks the separator of the header line: a spreadsheet in a
// European locale writes semicolons.
func sniffComma(data []byte) rune {
	head, _, _ := bytes.Cut(data, []byte("\n"))
	best, n := ',', bytes.Count(head, []byte(","))
	for _, c := range []rune{';', '\t'} {
		if k := bytes.Count(head, []byte(string(c))); k > n {
			best, n = c, k
		}
	}
	return best
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// csvReader reads a spreadsheet's CSV as both imports take it (players and
// a rating list): a byte-order mark dropped, UTF-8 required (the line of
// the first bad byte named), the separator sniffed, rows of any length.
func csvReader(data []byte) (*csv.Reader, *CSVError) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		return nil, &CSVError{[]*Error{csvProblem(line, 0, "not valid UTF-8")}}
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = sniffComma(data)
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	return r, nil
}
