package director

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// RatingEntry is one player of a federation's rating list.
type RatingEntry struct {
	FedID      string `json:"fed_id"`
	Name       string `json:"name"`
	Federation string `json:"federation,omitempty"`
	Rating     int    `json:"rating"`
	Title      string `json:"title,omitempty"`
	// Born, Games and K are what FIDE B.02 art. 8.3.3's K reads (0: the
	// list does not say): the year of birth, the rated games to date, and
	// the K the federation publishes (FIDE's own list has a K column).
	Born  int `json:"born,omitempty"`
	Games int `json:"games,omitempty"`
	K     int `json:"k,omitempty"`
	Line  int `json:"line"` // the CSV line it came from
}

// RatingList is a rating list by federation id.
type RatingList map[string]RatingEntry

// Limits of a rating list: the FMJD's list for 100 squares has some ten
// thousand players; a national list fewer.
const (
	MaxRatingList        = 16 << 20
	MaxRatingListEntries = 200000
)

// ratingListColumns maps the header names a rating list may use (case,
// spaces, dots and underscores aside) to its columns: the generic list
// (id, name, federation, rating, title) and the names of the FMJD's
// rating-list exports (FMJD ID, Name / Surname and First name, Country /
// Fed, Rating / Rtg, Title / Tit). The FMJD's export columns were not
// checked against a downloaded list: they are the usual spellings.
var ratingListColumns = map[string]string{
	"id": "id", "fedid": "id", "federationid": "id", "fmjdid": "id", "fideid": "id", "kndbid": "id", "code": "id", "number": "id",
	"name": "name", "player": "name", "surname": "surname", "lastname": "surname", "firstname": "first", "givenname": "first",
	"federation": "federation", "fed": "federation", "country": "federation", "nation": "federation",
	"rating": "rating", "rtg": "rating", "elo": "rating",
	"title": "title", "tit": "title",
	// The K's inputs. FIDE's "Gms" is the games of one rating period, not
	// the player's total: it is not read as games.
	"born": "born", "birthyear": "born", "yearofbirth": "born", "yob": "born", "bday": "born", "birthday": "born", "birth": "born",
	"games": "games", "ratedgames": "games", "totalgames": "games",
	"k": "k", "kfactor": "k", "developmentcoefficient": "k",
}

func ratingKey(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	return strings.NewReplacer(" ", "", "_", "", ".", "", "-", "").Replace(h)
}

// ParseRatingList reads a rating list from CSV (comma, semicolon or tab;
// a UTF-8 BOM is skipped): a header row, then one player a row. The id
// and rating columns are required, and a name (name, or surname with an
// optional first name); federation, title, year of birth, games and K
// are optional; other columns are skipped. Every problem names its line and
// column; with any, no list is returned.
func ParseRatingList(data []byte) (RatingList, error) {
	if len(data) > MaxRatingList {
		return nil, &CSVError{[]*Error{csvProblem(0, 0, fmt.Sprintf("the file is larger than %d bytes", MaxRatingList))}}
	}
	r, bad := csvReader(data)
	if bad != nil {
		return nil, bad
	}
	var problems []*Error
	add := func(line, col int, detail string) {
		if len(problems) < maxCSVProblems {
			problems = append(problems, csvProblem(line, col, detail))
		}
	}
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, &CSVError{[]*Error{csvProblem(1, 0, "empty: a header row (id, name, federation, rating, title) and one row per player")}}
	}
	if err != nil {
		return nil, &CSVError{[]*Error{parseProblem(err)}}
	}
	cols := make([]string, len(header))
	seen := map[string]int{}
	for i, h := range header {
		c, ok := ratingListColumns[ratingKey(h)]
		if !ok {
			continue // a column the import does not need
		}
		if j, dup := seen[c]; dup {
			add(1, i+1, fmt.Sprintf("column %q again (column %d is %s)", h, j, c))
			continue
		}
		seen[c] = i + 1
		cols[i] = c
	}
	for _, need := range []string{"id", "rating"} {
		if _, ok := seen[need]; !ok {
			add(1, 0, "no "+need+" column (id, name, federation, rating, title)")
		}
	}
	_, name := seen["name"]
	_, surname := seen["surname"]
	if !name && !surname {
		add(1, 0, "no name column (name, or surname and first name)")
	}
	if len(problems) > 0 {
		return nil, &CSVError{problems}
	}
	list := RatingList{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			problems = append(problems, parseProblem(err))
			break
		}
		line, _ := r.FieldPos(0)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		if len(list) >= MaxRatingListEntries {
			add(line, 0, fmt.Sprintf("more than %d players", MaxRatingListEntries))
			break
		}
		e, ok := ratingRow(rec, cols, line, add)
		if !ok {
			continue
		}
		if prev, dup := list[e.FedID]; dup {
			add(line, seen["id"], fmt.Sprintf("id %q again (line %d)", e.FedID, prev.Line))
			continue
		}
		list[e.FedID] = e
	}
	if len(problems) > 0 {
		return nil, &CSVError{problems}
	}
	if len(list) == 0 {
		return nil, &CSVError{[]*Error{csvProblem(2, 0, "no players after the header row")}}
	}
	return list, nil
}

// ratingRow reads one row; ok is false when add was told a problem.
func ratingRow(rec, cols []string, line int, add func(line, col int, detail string)) (RatingEntry, bool) {
	e := RatingEntry{Line: line}
	var surname, first string
	ok := true
	for i, v := range rec {
		if i >= len(cols) {
			break
		}
		v = strings.TrimSpace(v)
		switch cols[i] {
		case "id":
			e.FedID = v
		case "name":
			e.Name = v
		case "surname":
			surname = v
		case "first":
			first = v
		case "federation":
			e.Federation = strings.ToUpper(v)
		case "title":
			e.Title = strings.ToUpper(v)
		case "born":
			if v == "" {
				continue
			}
			y := yearIn(v)
			if y == 0 {
				add(line, i+1, fmt.Sprintf("year of birth %q has no year from 1900 to 2100 in it", v))
				ok = false
			}
			e.Born = y
		case "games", "k":
			if v == "" {
				continue
			}
			top := 100000
			if cols[i] == "k" {
				top = MaxK
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > top {
				add(line, i+1, fmt.Sprintf("%s %q is not a whole number from 0 to %d", cols[i], v, top))
				ok = false
				continue
			}
			if cols[i] == "k" {
				e.K = n
			} else {
				e.Games = n
			}
		case "rating":
			if v == "" {
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > maxRating {
				add(line, i+1, fmt.Sprintf("rating %q is not a whole number from 0 to %d", v, maxRating))
				ok = false
				continue
			}
			e.Rating = n
		}
	}
	if e.Name == "" && surname != "" {
		e.Name = surname
		if first != "" {
			e.Name = surname + ", " + first
		}
	}
	if e.FedID == "" {
		add(line, 1+indexOf(cols, "id"), "no id")
		ok = false
	}
	return e, ok
}

// yearIn finds a year of birth in a list's cell: "1990", "1990-05-01",
// "01.05.1990" or "1/5/1990" (0: none from 1900 to 2100).
func yearIn(v string) int {
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r < '0' || r > '9' }) {
		if len(f) != 4 {
			continue
		}
		if y, _ := strconv.Atoi(f); y >= 1900 && y <= 2100 {
			return y
		}
	}
	return 0
}

func indexOf(cols []string, c string) int {
	for i, x := range cols {
		if x == c {
			return i
		}
	}
	return -1
}

// Fill gives players who have a federation id on the list its rating,
// title, year of birth, games and K (what the player already has is kept
// where the list says nothing); it returns how many matched.
func (l RatingList) Fill(ps []Player) int {
	n := 0
	for i := range ps {
		e, ok := l[strings.TrimSpace(ps[i].FedID)]
		if !ok {
			continue
		}
		n++
		if e.Rating > 0 {
			ps[i].Rating = e.Rating
		}
		if e.Title != "" {
			ps[i].Title = e.Title
		}
		if ps[i].Federation == "" {
			ps[i].Federation = e.Federation
		}
		if e.Born > 0 {
			ps[i].Born = e.Born
		}
		if e.Games > 0 {
			ps[i].Games = e.Games
		}
		if e.K > 0 {
			ps[i].K = e.K
		}
	}
	return n
}

// ApplyRatingList sets the rating, title and K's inputs of the event's players whose
// federation id is on the list (each change audited, as EditPlayer); it
// returns the players changed.
func (s *Store) ApplyRatingList(ctx context.Context, id string, l RatingList) ([]Player, error) {
	sn, err := s.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	var changed []Player
	for _, p := range sn.Players {
		np := []Player{p}
		if l.Fill(np) == 0 || np[0] == p {
			continue
		}
		if err := s.EditPlayer(ctx, id, p.ID, np[0], true); err != nil {
			return changed, fmt.Errorf("director: rating list, player %d %s: %w", p.ID, p.Name, err)
		}
		changed = append(changed, np[0])
	}
	return changed, nil
}

// maxRating is checkPlayer's bound on a rating.
const maxRating = 9999
