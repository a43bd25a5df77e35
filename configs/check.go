package configs

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// checker is the stage between reading and decoding: it walks the settings
// against the Config type and reports, with their full dotted key, keys the
// type does not have and numbers the decoder would change without a word
// (mapstructure truncates 4.5 to 4 for a whole-number key and wraps 1e30 to
// -9223372036854775808).
type checker struct {
	written map[string]string   // the values as written, for messages
	source  func(string) string // where a key's value came from
	errs    []error
}

func (c *checker) fail(key string, err error) {
	c.errs = append(c.errs, &Error{File: c.source(key), Key: key, Err: err})
}

// check runs the checker over the settings: every error it finds, joined.
func (s *settings) check() error {
	c := checker{written: s.written, source: s.source}
	c.walk(s.values, reflect.TypeOf(Config{}), "")
	return errors.Join(c.errs...)
}

// text is the value at key as written, or as decoded when the text is not
// known (a value reached through a YAML alias, or set by a typed flag).
func (c *checker) text(key string, v any) string {
	if s, ok := c.written[strings.ToLower(key)]; ok {
		return s
	}
	return describe(v)
}

// walk checks v, bound for a value of type t at path.
func (c *checker) walk(v any, t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == typDuration {
		if err := durationSeconds(v); err != nil {
			c.fail(path, fmt.Errorf("%s %v", c.text(path, v), err))
		}
		return
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if err := wholeNumber(v, t); err != nil {
			c.fail(path, fmt.Errorf("%s %v", c.text(path, v), err))
		}
		return
	case reflect.Slice:
		if l, ok := v.([]any); ok {
			for i, e := range l {
				c.walk(e, t.Elem(), join(path, strconv.Itoa(i)))
			}
		}
		return
	case reflect.Struct:
	default:
		return
	}
	m, ok := v.(map[string]any)
	if !ok {
		return // a type error, reported by the decoder (or a preset name)
	}
	fields := map[string]reflect.StructField{}
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("mapstructure"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		fields[tag] = f
		names = append(names, tag)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f, ok := fields[strings.ToLower(k)]
		key := join(path, k)
		if !ok {
			hint := suggest(k, names)
			if long, ok := EngineShortKeys[strings.ToLower(k)]; ok && t == reflect.TypeFor[Engine]() {
				hint = fmt.Sprintf("; did you mean %q? (%s= is its name in an --engine spec, not in a file)", long, strings.ToLower(k))
			}
			c.fail(key, fmt.Errorf("unknown key%s (known keys here: %s)", hint, strings.Join(names, ", ")))
			continue
		}
		c.walk(m[k], f.Type, key)
	}
}

// wholeNumber checks a number bound for an integer type t: it must have no
// fraction and fit. Values that are not numbers are left to the decoder,
// which names the type it wanted.
func wholeNumber(v any, t reflect.Type) error {
	unsigned := t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64
	bits := t.Bits()
	// The range: exact for integers, and as floats with hi exclusive
	// (2^63, 2^64: float64 cannot hold 2^63-1).
	minInt, maxInt := int64(math.MinInt64>>(64-bits)), int64(math.MaxInt64>>(64-bits))
	maxUint := uint64(math.MaxUint64 >> (64 - bits))
	lo, hi := -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)
	hiText := strconv.FormatInt(maxInt, 10)
	if unsigned {
		minInt, maxInt = 0, math.MaxInt64
		lo, hi = 0, math.Ldexp(1, bits)
		hiText = strconv.FormatUint(maxUint, 10)
	}
	tooSmall := fmt.Errorf("is out of range: a whole number here is at least %d", minInt)
	if unsigned {
		tooSmall = fmt.Errorf("is negative; want a whole number from 0")
	}
	tooLarge := fmt.Errorf("is out of range: a whole number here is at most %s", hiText)
	switch x := v.(type) {
	case int:
		return wholeNumber(int64(x), t)
	case int64:
		if x < minInt {
			return tooSmall
		}
		if x > maxInt || (unsigned && uint64(x) > maxUint) {
			return tooLarge
		}
	case uint64:
		if (unsigned && x > maxUint) || (!unsigned && x > uint64(maxInt)) {
			return tooLarge
		}
	case float64:
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0) || x != math.Trunc(x):
			return fmt.Errorf("is not a whole number")
		case x < lo:
			return tooSmall
		case x >= hi:
			return tooLarge
		}
	}
	return nil
}

// maxSeconds is the longest duration time.Duration holds, in seconds.
var maxSeconds = float64(math.MaxInt64) / float64(time.Second)

// durationSeconds checks a number of seconds given for a duration key (text
// is parsed, and checked, by the decoder).
func durationSeconds(v any) error {
	var s float64
	switch x := v.(type) {
	case int:
		s = float64(x)
	case int64:
		s = float64(x)
	case uint64:
		s = float64(x)
	case float64:
		s = x
	default:
		return nil
	}
	if math.IsNaN(s) || math.Abs(s) >= maxSeconds {
		return fmt.Errorf("seconds is out of range for a duration (at most %.0f)", math.Floor(maxSeconds))
	}
	return nil
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// suggest names the closest known key when the unknown one is a near miss.
func suggest(k string, names []string) string {
	best := Closest(k, names)
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// Closest is the name of names nearest to k (case aside) when k is a near
// miss of it (two edits at most), or "": the "did you mean" of a mistyped
// key or flag.
func Closest(k string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(k), n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 64
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
