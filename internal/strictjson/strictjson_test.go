package strictjson

import (
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	type in struct {
		Kind string            `json:"kind"`
		Move string            `json:"move"`
		Sub  map[string]string `json:"sub"`
		List []struct {
			A int `json:"a"`
		} `json:"list"`
	}
	for _, c := range []struct {
		body, err string
	}{
		{`{"kind":"move","move":"32-28"}`, ""},
		{`{"kind":"move","kind":"resign"}`, `the key "kind" is given twice`},
		{`{"kind":"move","Kind":"resign"}`, `the key "Kind" is given twice`},
		{`{"sub":{"a":"1","a":"2"}}`, `the key "a" is given twice`},
		{`{"list":[{"a":1},{"a":2}],"kind":"x"}`, ""},
		{`{"list":[{"a":1,"a":2}]}`, `the key "a" is given twice`},
		{`{"sub":{"kind":"x"},"kind":"y"}`, ""}, // equal keys in different objects
		{`{"nope":1}`, `unknown field "nope"`},
		{`{"kind":"move"} {}`, "more than one JSON value"},
		{``, "empty body"},
		{`{"kind":`, "unexpected EOF"},
	} {
		var v in
		err := Decode([]byte(c.body), &v)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.body, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.body, err, c.err)
		}
	}
}

func FuzzDuplicates(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,{"c":2,"c":3}]}}`))
	f.Add([]byte(`[{"a":1},{"a":1}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = Duplicates(data) // never panics
		var v any
		_ = Decode(data, &v)
	})
}
