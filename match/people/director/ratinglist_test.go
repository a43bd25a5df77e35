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
	// What the K reads: a year of birth in a date, the games to date, the
	// federation's K (FIDE's list has a K column).
	kl, err := ParseRatingList([]byte("ID,Name,Rating,B-day,Games,K\n7,A,2100,2009-03-01,12,40\n8,B,2200,,,\n"))
	must(t, err)
	if e := kl["7"]; e.Born != 2009 || e.Games != 12 || e.K != 40 {
		t.Errorf("7 = %+v", e)
	}
	if e := kl["8"]; e.Born != 0 || e.Games != 0 || e.K != 0 {
		t.Errorf("8 = %+v", e)
	}
	if e := l["15233"]; e.Born != 1949 {
		t.Errorf("the FMJD list's Birth column: %+v", e)
	}
	for _, c := range []struct{ in, want string }{
		{"", "line 1"},
		{"id,name,rating,born\n1,A,2000,soon\n", "line 2, column 4: year of birth"},
		{"id,name,rating,k\n1,A,2000,500\n", "line 2, column 4: k"},
		{"id,name,rating,games\n1,A,2000,-3\n", "line 2, column 4: games"},
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
	ps := []Player{{Name: "X", FedID: " 1001 ", K: 25}}
	if l.Fill(ps) != 1 || ps[0].Rating != 2150 || ps[0].K != 25 {
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
