package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// cleanEvent is a match with nothing unusual: two engines, every game
// ended by the rules, no incident, no forfeit, no adjudication, no warning,
// no latency flag, no worker.
func cleanEvent() Event {
	ev := Event{Name: "A vs B", Variant: "english", TimeControl: "300+2", Engines: []string{"A", "B"}}
	moves := []Move{{Text: "11-15"}, {Text: "23-19"}, {Text: "8-11"}, {Text: "22-17"}}
	start := time.Date(2026, 1, 2, 10, 0, 0, 0, time.UTC)
	for i := range 4 {
		w, b := "A", "B"
		if i%2 == 1 {
			w, b = "B", "A"
		}
		g := Game{Round: i + 1, Board: 1, Pair: i/2 + 1, White: w, Black: b, FirstMover: "black",
			Result: []string{"1-0", "1/2-1/2", "0-1", "1/2-1/2"}[i], Termination: "normal",
			Plies: len(moves), Moves: moves, Started: start, Finished: start.Add(time.Minute),
			MoveTimes: []time.Duration{time.Second, time.Second, time.Second, time.Second},
			Latency:   []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond, time.Millisecond}}
		ev.Games = append(ev.Games, g)
	}
	return ev
}

// nullLists lists every slice or map reachable from v that encoding/json
// writes as null: a field without omitempty holding nil. Readers of
// results.json and the report's page iterate lists; a null in place of []
// is what broke report.html on a clean match (issue 22).
func nullLists(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			nullLists(v.Elem(), path, out)
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			fv := v.Field(i)
			if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.IsNil() &&
				!strings.Contains(opts, "omitempty") && !implementsMarshaler(fv) {
				*out = append(*out, path+"."+name)
				continue
			}
			nullLists(fv, path+"."+name, out)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			nullLists(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			nullLists(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k), out)
		}
	}
}

// implementsMarshaler: a type that writes itself (gameRows) decides its
// own empty form; the JSON test below checks what it writes.
func implementsMarshaler(v reflect.Value) bool {
	_, ok := v.Interface().(json.Marshaler)
	return ok
}

// TestCleanEventListsAreEmptyNotNull: an event with no incident, no
// forfeit, no adjudication, no latency flag and no worker writes every list
// of results.json and of the report page's data as [], never null.
func TestCleanEventListsAreEmptyNotNull(t *testing.T) {
	ev := cleanEvent()
	res, err := BuildResults(ev)
	if err != nil {
		t.Fatal(err)
	}
	var nulls []string
	nullLists(reflect.ValueOf(res), "results", &nulls)
	names, _, _ := engineIndex(ev)
	gv, _, err := buildGamesView(ev, names)
	if err != nil {
		t.Fatal(err)
	}
	nullLists(reflect.ValueOf(gv), "page", &nulls)
	if len(nulls) > 0 {
		t.Errorf("lists written as null instead of []:\n  %s", strings.Join(nulls, "\n  "))
	}

	// What a reader sees: the files themselves.
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("results.json does not parse: %v\n%s", err, buf.String())
	}
	if g, ok := doc["games"].([]any); !ok || len(g) != 4 {
		t.Errorf("results.json games = %v, want 4 games", doc["games"])
	}
	page, err := json.Marshal(gv)
	if err != nil {
		t.Fatal(err)
	}
	var pd map[string]any
	if err := json.Unmarshal(page, &pd); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"incidents", "workers", "openings", "terms", "games", "engines"} {
		if _, ok := pd[key].([]any); !ok {
			t.Errorf("page data %q = %v, want a list", key, pd[key])
		}
	}
	if inc, _ := pd["incidents"].([]any); len(inc) != 0 {
		t.Errorf("a clean event has incidents: %v", inc)
	}
	if rows, _ := pd["games"].([]any); len(rows) != 4 {
		t.Errorf("page lists %d games, want 4", len(rows))
	}

	// An event with no game at all is a list of nothing, too.
	empty := Event{Name: "nothing yet", Variant: "english", Engines: []string{"A", "B"}}
	res, err = BuildResults(empty)
	if err != nil {
		t.Fatal(err)
	}
	nulls = nil
	nullLists(reflect.ValueOf(res), "results", &nulls)
	gv, _, err = buildGamesView(empty, []string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	nullLists(reflect.ValueOf(gv), "page", &nulls)
	if len(nulls) > 0 {
		t.Errorf("empty event: lists written as null instead of []:\n  %s", strings.Join(nulls, "\n  "))
	}
}
