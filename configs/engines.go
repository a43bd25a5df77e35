package configs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/go-viper/mapstructure/v2"
	"go.yaml.in/yaml/v3"

	"github.com/draughts-arbiter/arbiter/arbiter"
)

// LoadEngines reads the engine definitions of a cluster worker, the only
// engines it runs: the `engines:` list of a YAML file (an event's config
// file will do; its other keys are ignored), or of every *.yaml and *.yml
// file in a directory, in name order. Entries have the keys of an event's
// engines; "self" is this program and dir is relative to the file. A name
// defined twice is an error.
func LoadEngines(path string, opt Options) ([]EngineSpec, error) {
	files := []string{path}
	if st, err := os.Stat(path); err != nil {
		return nil, &Error{File: path, Err: err}
	} else if st.IsDir() {
		files = nil
		for _, pat := range []string{"*.yaml", "*.yml"} {
			m, _ := filepath.Glob(filepath.Join(path, pat))
			files = append(files, m...)
		}
		slices.Sort(files)
		if len(files) == 0 {
			return nil, &Error{File: path, Err: errors.New("no engine definitions (*.yaml) in this directory")}
		}
	}
	var out []EngineSpec
	from := map[string]string{}
	for _, f := range files {
		specs, err := loadEngineFile(f, opt)
		if err != nil {
			return nil, err
		}
		for _, s := range specs {
			if prev, dup := from[s.Name]; dup {
				return nil, &Error{File: f, Key: "engines", Err: fmt.Errorf("engine %q is already defined in %s", s.Name, prev)}
			}
			from[s.Name] = f
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, &Error{File: path, Key: "engines", Err: errors.New("no engines defined")}
	}
	return out, nil
}

func loadEngineFile(file string, opt Options) ([]EngineSpec, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, &Error{File: file, Err: err}
	}
	var doc struct {
		Engines []map[string]any `yaml:"engines"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Err: err}
	}
	var list []Engine
	dec, err := mapstructure.NewDecoder(&mapstructure.DecoderConfig{Result: &list, ErrorUnused: true, DecodeHook: decodeHook})
	if err != nil {
		return nil, err
	}
	if err := dec.Decode(doc.Engines); err != nil {
		return nil, &Error{File: file, Key: "engines", Err: err}
	}
	v := &validation{source: func(string) string { return file }}
	specs := v.engineList(list, arbiter.TimeControl{})
	resolveEngines(v, specs, filepath.Dir(file), opt.Self)
	if err := v.err(); err != nil {
		return nil, err
	}
	return specs, nil
}
