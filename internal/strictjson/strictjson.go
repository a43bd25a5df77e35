// Package strictjson decodes the JSON the arbiter's servers accept from
// clients: exactly one value, no unknown field and no key given twice in
// one object. encoding/json keeps the last of two equal keys (and matches
// keys without regard to case), so {"kind":"move","kind":"resign"} would
// resign where a reader of the request sees a move; such a body is
// refused instead. Imported by match/web and match/people/online.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Decode decodes data into v: one JSON value, no unknown field (of v's
// struct types), no key twice in an object. Errors are short sentences
// without the "json: " prefix, fit to show to the client.
func Decode(data []byte, v any) error {
	if err := Duplicates(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("empty body")
		}
		return errors.New(strings.TrimPrefix(err.Error(), "json: "))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("more than one JSON value")
	}
	return nil
}

// Duplicates refuses a JSON text in which an object has a key twice.
// Keys are compared as encoding/json matches them to fields: without
// regard to case ("kind" and "Kind" are the same field). Malformed JSON
// is left for the decoder to name; nil then.
func Duplicates(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	// One frame per open object or array: the keys seen in an object, and
	// whether the next string token in it is a key.
	type frame struct {
		keys  map[string]struct{}
		isObj bool
		key   bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // io.EOF, or malformed: the decoder says which
		}
		top := len(stack) - 1
		if top >= 0 && stack[top].isObj && stack[top].key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:top]
				goto next
			}
			k := strings.ToLower(tok.(string))
			if _, dup := stack[top].keys[k]; dup {
				return fmt.Errorf("the key %q is given twice", clip(tok.(string)))
			}
			stack[top].keys[k] = struct{}{}
			stack[top].key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]struct{}{}, isObj: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim(']'), json.Delim('}'):
			stack = stack[:top]
		}
	next:
		// A value ended: in an object, a key comes next.
		if n := len(stack) - 1; n >= 0 && stack[n].isObj {
			stack[n].key = true
		}
	}
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
