package configs

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-viper/mapstructure/v2"
)

// decode turns the checked settings into a Config. Values of the wrong type
// are reported by mapstructure with the key it names; its strict mode
// (ErrorUnused) backs up the check stage, which reports unknown keys.
func decode(m map[string]any, source func(key string) string) (*Config, error) {
	var errs []error
	var cfg Config
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{
		Result:      &cfg,
		ErrorUnused: true,
		DecodeHook:  decodeHook,
	})
	if err != nil {
		return nil, err
	}
	if err := dec.Decode(m); err != nil {
		for _, e := range flatten(err) {
			var de *mapstructure.DecodeError
			if errors.As(e, &de) {
				key := mapstructureKey(de.Name())
				errs = append(errs, &Error{File: source(key), Key: key, Err: friendly(de.Unwrap())})
			} else {
				errs = append(errs, &Error{File: source(""), Err: e})
			}
		}
		return nil, errors.Join(errs...)
	}
	return &cfg, nil
}

// flatten lists the errors joined in err.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	var de *mapstructure.DecodeError
	if errors.As(err, &de) {
		return []error{de}
	}
	return []error{err}
}

// mapstructureKey turns "engines[1].time_control" into "engines.1.time_control".
func mapstructureKey(name string) string {
	r := strings.NewReplacer("[", ".", "]", "")
	return r.Replace(name)
}

// friendly rewrites mapstructure's type errors in the file's terms.
func friendly(err error) error {
	var ut *mapstructure.UnconvertibleTypeError
	if errors.As(err, &ut) {
		return fmt.Errorf("%s is not %s", describe(ut.Value), kindName(ut.Expected.Type()))
	}
	var pe *mapstructure.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s is not %s", describe(pe.Value), kindName(pe.Expected.Type()))
	}
	if msg := err.Error(); strings.HasPrefix(msg, "source data must be an array or slice") {
		return fmt.Errorf("expected a list, %s", strings.TrimPrefix(msg, "source data must be an array or slice, "))
	}
	return err
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case map[string]any:
		return "a map"
	case []any:
		return "a list"
	case nil:
		return "an empty value"
	}
	return fmt.Sprintf("%v", v)
}

func kindName(t reflect.Type) string {
	switch t {
	case reflect.TypeOf(Rounds(0)):
		return "a number of cycles (or single / double)"
	case reflect.TypeOf(Duration(0)):
		return "a duration (like 100ms or 2s)"
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint, reflect.Uint32:
		return "a whole number"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "text"
	case reflect.Slice:
		return "a list"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "a map of settings"
	}
	return t.String()
}

var (
	typString   = reflect.TypeOf("")
	typVariant  = reflect.TypeOf(VariantSpec{})
	typRounds   = reflect.TypeOf(Rounds(0))
	typDuration = reflect.TypeOf(Duration(0))
	typTieBreak = reflect.TypeOf(TieBreaks(nil))
)

// decodeHook converts the shorthand forms the file may use.
func decodeHook(from, to reflect.Type, data any) (any, error) {
	switch to {
	case typString:
		// time_control: 300 and options {threads: 2} are numbers in YAML.
		switch x := data.(type) {
		case int, int64, uint64, float64, bool:
			return fmt.Sprint(x), nil
		}
	case typVariant:
		if s, ok := data.(string); ok {
			return map[string]any{"preset": s}, nil
		}
	case typRounds:
		if s, ok := data.(string); ok {
			switch strings.ToLower(strings.TrimSpace(s)) {
			case "single":
				return 1, nil
			case "double":
				return 2, nil
			}
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return nil, fmt.Errorf("%q is not a number of cycles (or single / double)", s)
			}
			return n, nil
		}
	case typTieBreak:
		// --swiss-tie-breaks buchholz,wins
		if s, ok := data.(string); ok {
			return splitList(s), nil
		}
	case typDuration:
		switch x := data.(type) {
		case string:
			d, err := time.ParseDuration(strings.TrimSpace(x))
			if err != nil {
				return nil, fmt.Errorf("%q is not a duration (like 100ms or 2s)", x)
			}
			return int64(d), nil
		case int:
			return int64(time.Duration(x) * time.Second), nil
		case float64:
			return int64(x * float64(time.Second)), nil
		}
	}
	return data, nil
}
