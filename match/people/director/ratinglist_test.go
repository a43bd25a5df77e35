package director

import (
	"context"
	"strings"
	"testing"
)

func TestParseRatingList(t *testing.T) {
	generic := "id,name,federation,rating,title\n1001,Hansen Ingrid,nor,2150,mf\n1002,Olsen Per,NOR,1890,\n"
	l, err := ParseRatingList([]byte(generic))
	must(t, err)
	if e := l["1001"]; e.Name != "Hansen Ingrid" || e.Rating != 2150 || e.Title != "MF" || e.Federation != "NOR" || e.Line != 2 {
		t.Errorf("1001 = %+v", e)
	}
	// The FMJD export's spelling: semicolons, surname and first name, extra columns.
	fmjd := "\ufeffFMJD ID;Surname;First name;Country;Title;Rating;Birth\n15233;Sijbrands;Ton;NED;GMI;2380;1949\n"
	l, err = ParseRatingList([]byte(fmjd))
	must(t, err)
	if e := l["15233"]; e.Name != "Sijbrands, Ton" || e.Rating != 2380 || e.Title != "GMI" || e.Federation != "NED" {
		t.Errorf("15233 = %+v", e)
	}
	for _, c := range []struct{ in, want string }{
		{"", "line 1"},
		{"name,rating\nA,1\n", "no id column"},
		{"id,name\n1,A\n", "no rating column"},
		{"id,rating\n1,2000\n", "no name column"},
		{"id,name,rating\n1,A,20x0\n", "line 2, column 3"},
		{"id,name,rating\n1,A,2000\n,B,1900\n", "line 3, column 1"},
		{"id,name,rating\n1,A,2000\n1,B,1900\n", "line 2"},
		{"id,name,rating\n", "no players"},
		{"id,name,rating\n1,\"A,2000\n", "line"},
	} {
		_, err := ParseRatingList([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

// TestApplyRatingList: a director registers players with their federation
// ids, imports the list, and the ratings and titles are filled; a player
// not on the list keeps what was entered; the seeding follows the ratings.
func TestApplyRatingList(t *testing.T) {
	s := newStore(t, testPair)
	ctx := context.Background()
	ev, _, err := s.Create(ctx, Event{Name: "Open", Variant: "international", System: Swiss, Rounds: 5})
	must(t, err)
	_, err = s.AddPlayers(ctx, ev.ID, []Player{
		{Name: "Olsen Per", FedID: "1002"}, {Name: "Hansen Ingrid", FedID: "1001"}, {Name: "Guest", Rating: 1500},
	})
	must(t, err)
	l, err := ParseRatingList([]byte("id,name,federation,rating,title\n1001,Hansen Ingrid,NOR,2150,MF\n1002,Olsen Per,NOR,1890,\n"))
	must(t, err)
	changed, err := s.ApplyRatingList(ctx, ev.ID, l)
	must(t, err)
	if len(changed) != 2 {
		t.Fatalf("changed %d players, want 2", len(changed))
	}
	sn := get(t, s, ev.ID)
	byName := map[string]Player{}
	for _, p := range sn.Players {
		byName[p.Name] = p
	}
	if p := byName["Hansen Ingrid"]; p.Rating != 2150 || p.Title != "MF" || p.Number != 1 || p.Federation != "NOR" {
		t.Errorf("Hansen = %+v", p)
	}
	if p := byName["Olsen Per"]; p.Rating != 1890 || p.Number != 2 {
		t.Errorf("Olsen = %+v", p)
	}
	if p := byName["Guest"]; p.Rating != 1500 || p.Number != 3 {
		t.Errorf("Guest = %+v", p)
	}
	ps := []Player{{Name: "X", FedID: " 1001 "}}
	if l.Fill(ps) != 1 || ps[0].Rating != 2150 {
		t.Errorf("Fill = %+v", ps)
	}
}

func FuzzParseRatingList(f *testing.F) {
	f.Add([]byte("id,name,federation,rating,title\n1001,Hansen Ingrid,nor,2150,mf\n"))
	f.Add([]byte("FMJD ID;Surname;First name;Country;Title;Rating\n15233;Sijbrands;Ton;NED;GMI;2380\n"))
	f.Add([]byte("id\trating\tname\n1\t\tA\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseRatingList(data)
		if err != nil {
			if l != nil {
				t.Fatal("a list with an error")
			}
			return
		}
		for id, e := range l {
			if id == "" || id != e.FedID || e.Rating < 0 || e.Rating > maxRating || e.Line < 2 {
				t.Fatalf("entry %q = %+v", id, e)
			}
		}
	})
}
