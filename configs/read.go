package configs

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// document is a config file as read: its settings, with keys lower-cased as
// viper matches them and engine option names as written, and the text of
// every scalar as written, so that an error can quote a value as the user
// wrote it ("99999999999999999999", not 1e+20).
type document struct {
	settings map[string]any
	written  map[string]string // dotted, lower-cased key -> text
}

// yamlDecoder is the YAML decoder viper reads the file with. The file is
// parsed once, into a node tree; the tree gives viper its map and us what
// viper's map loses: the case of engine option names and the text of each
// value.
type yamlDecoder struct{ root *yaml.Node }

func (d *yamlDecoder) Decode(b []byte, m map[string]any) error {
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return err
	}
	if len(n.Content) == 0 {
		return nil // an empty file
	}
	d.root = &n
	return n.Decode(&m)
}

// readYAML reads config text with viper.
func readYAML(data []byte, file string) (*document, error) {
	dec := &yamlDecoder{}
	reg := viper.NewCodecRegistry()
	if err := reg.RegisterCodec("yaml", codec{dec}); err != nil {
		return nil, &Error{File: file, Err: err}
	}
	v := viper.NewWithOptions(viper.WithCodecRegistry(reg))
	v.SetConfigType("yaml")
	if err := v.ReadConfig(bytes.NewReader(data)); err != nil {
		if n := misindented(data); n > 0 {
			return nil, &Error{File: file, Err: fmt.Errorf("not valid YAML: %w (line %d is indented unlike the lines above it: align it with its siblings)", err, n)}
		}
		return nil, &Error{File: file, Err: fmt.Errorf("not valid YAML: %w", err)}
	}
	doc := &document{settings: v.AllSettings(), written: map[string]string{}}
	if dec.root != nil {
		body := dec.root
		if body.Kind == yaml.DocumentNode && len(body.Content) > 0 {
			body = body.Content[0]
		}
		recordText(body, "", doc.written)
		restoreOptionNames(doc.settings, body)
	}
	return doc, nil
}

// codec lends viper the decoder; viper never writes configs here.
type codec struct{ *yamlDecoder }

func (codec) Encode(map[string]any) ([]byte, error) {
	return nil, fmt.Errorf("configs: writing YAML through viper is not used")
}

// recordText stores the text of every scalar under n by its dotted key
// (lower-cased, as viper matches keys, except engine option names). Aliases
// are not followed: a value reached through one is quoted as decoded.
func recordText(n *yaml.Node, path string, out map[string]string) {
	switch n.Kind {
	case yaml.ScalarNode:
		out[path] = n.Value
	case yaml.SequenceNode:
		for i, c := range n.Content {
			recordText(c, join(path, strconv.Itoa(i)), out)
		}
	case yaml.MappingNode:
		keepCase := strings.HasSuffix(path, ".options")
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if !keepCase {
				k = strings.ToLower(k)
			}
			recordText(n.Content[i+1], join(path, k), out)
		}
	}
}

// mappingValue is the value of key in a mapping node, matched
// case-insensitively as viper matches keys.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if strings.EqualFold(n.Content[i].Value, key) {
			return n.Content[i+1]
		}
	}
	return nil
}

// restoreOptionNames replaces each engine's options in settings (keys
// lower-cased by viper) with the same map decoded from the file's node tree:
// Hub parameter names are case-sensitive and go to the engine as written.
func restoreOptionNames(settings map[string]any, body *yaml.Node) {
	engines, _ := settings["engines"].([]any)
	list := mappingValue(body, "engines")
	if list == nil || list.Kind != yaml.SequenceNode || len(list.Content) != len(engines) {
		return
	}
	for i, en := range list.Content {
		em, ok := engines[i].(map[string]any)
		opts := mappingValue(en, "options")
		if !ok || opts == nil || opts.Kind != yaml.MappingNode {
			continue
		}
		var m map[string]any
		if err := opts.Decode(&m); err == nil {
			em["options"] = m
		}
	}
}

// settings are the values of every key as given: the defaults under the
// file's values and the command-line overrides on top, the text of each
// value as written, and where each came from.
type settings struct {
	values     map[string]any
	written    map[string]string // dotted, lower-cased key -> text
	overridden map[string]string // dotted, lower-cased key -> the option that set it
	file       string
}

// layer lays the defaults under the file's settings and the overrides, in
// order, on top.
func layer(doc *document, file string, overrides []Override) (*settings, error) {
	s := &settings{values: merge(defaults(), doc.settings), written: doc.written, overridden: map[string]string{}, file: file}
	for _, o := range overrides {
		key, err := apply(s.values, Override{Key: o.Key, Value: deepCopy(o.Value), Source: o.Source})
		if err != nil {
			return nil, &Error{File: o.Source, Key: o.Key, Err: err}
		}
		key = strings.ToLower(key)
		s.overridden[key] = o.Source
		o.recordText(key, s.written)
	}
	return s, nil
}

// source names where a key's value came from: the command-line option that
// set it (or a parent of it), else the file.
func (s *settings) source(key string) string {
	key = strings.ToLower(key)
	for k := key; k != ""; {
		if src, ok := s.overridden[k]; ok {
			return src
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	// An override of a child (engines.0.command) is also the source of
	// errors found in it.
	for k, src := range s.overridden {
		if strings.HasPrefix(k, key+".") && key != "" {
			return src
		}
	}
	return s.file
}

// given reports whether the file or an override set key (not a default).
func (s *settings) given(key string) bool {
	key = strings.ToLower(key)
	if _, ok := s.overridden[key]; ok {
		return true
	}
	_, ok := s.written[key]
	return ok
}

// effective is the configuration after defaults and overrides, as YAML.
func (s *settings) effective() (string, error) {
	b, err := yaml.Marshal(s.values)
	if err != nil {
		return "", &Error{File: s.file, Err: err}
	}
	return string(b), nil
}

// merge returns base with over's keys laid on top (maps merged, anything else replaced).
func merge(base, over map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		if bm, ok := out[k].(map[string]any); ok {
			if om, ok := v.(map[string]any); ok {
				out[k] = merge(bm, om)
				continue
			}
		}
		out[k] = v
	}
	return out
}

// apply sets one override in the settings map. Lists are indexed by number
// or, for lists of maps with a "name", by that name. It returns the key with
// list indices as numbers ("engines.b.dir" -> "engines.1.dir").
func apply(m map[string]any, o Override) (string, error) {
	parts := strings.Split(o.Key, ".")
	for i := range parts {
		// An engine parameter's name keeps its case (see readYAML).
		if i == 0 || !strings.EqualFold(parts[i-1], "options") {
			parts[i] = strings.ToLower(parts[i])
		}
	}
	var cur any = m
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[p] = o.Value
				return strings.Join(parts, "."), nil
			}
			next, ok := c[p]
			if !ok || next == nil {
				if _, err := strconv.Atoi(parts[i+1]); err == nil {
					return "", fmt.Errorf("%s has no list to index", strings.Join(parts[:i+1], "."))
				}
				next = map[string]any{}
				c[p] = next
			}
			if s, ok := next.(string); ok && p == "variant" {
				// Refining a preset given by name: make it a map.
				next = map[string]any{"preset": s}
				c[p] = next
			}
			cur = next
		case []any:
			idx, aerr := strconv.Atoi(p)
			if aerr != nil {
				idx = -1
				for j, el := range c {
					if em, ok := el.(map[string]any); ok && strings.EqualFold(fmt.Sprint(em["name"]), p) {
						idx = j
					}
				}
				if idx < 0 {
					return "", fmt.Errorf("%s has no element named %q", strings.Join(parts[:i], "."), p)
				}
				parts[i] = strconv.Itoa(idx)
			}
			if idx < 0 || idx >= len(c) {
				return "", fmt.Errorf("%s has %d elements, no index %d", strings.Join(parts[:i], "."), len(c), idx)
			}
			if last {
				c[idx] = o.Value
				return strings.Join(parts, "."), nil
			}
			cur = c[idx]
		default:
			return "", fmt.Errorf("%s is a value, not a map or list", strings.Join(parts[:i], "."))
		}
	}
	return strings.Join(parts, "."), nil
}

// deepCopy copies maps and lists so that overrides never touch shared data.
func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// misindented returns the number of the first line whose indentation
// matches none of the blocks it could belong to (0: none), such as a list
// item's key one space short of the key above it. The YAML parser names
// the line where the enclosing block began, not this one. Only a line
// after "key:" may go deeper; a block scalar's lines (after | or >) are
// passed over. It is asked only of text the parser refused.
func misindented(data []byte) int {
	stack := []int{0}
	opens, scalar := false, -1 // scalar: the indentation of a block scalar's key line
	for i, line := range strings.Split(string(data), "\n") {
		text := strings.TrimLeft(line, " ")
		if text == "" || text[0] == '#' || strings.HasPrefix(text, "---") {
			continue
		}
		indent := len(line) - len(text)
		if scalar >= 0 && indent > scalar {
			continue
		}
		scalar = -1
		for len(stack) > 1 && stack[len(stack)-1] > indent {
			stack = stack[:len(stack)-1]
		}
		switch top := stack[len(stack)-1]; {
		case indent > top && opens:
			stack = append(stack, indent)
		case indent != top:
			return i + 1
		}
		if rest, ok := strings.CutPrefix(text, "- "); ok {
			// A list item's keys stand where its first key does.
			stack = append(stack, indent+2+len(rest)-len(strings.TrimLeft(rest, " ")))
		}
		end := strings.TrimRight(text, " ")
		opens = strings.HasSuffix(end, ":") || end == "-"
		if strings.HasSuffix(strings.TrimRight(end, "-+"), "|") || strings.HasSuffix(strings.TrimRight(end, "-+"), ">") {
			scalar = indent
		}
	}
	return 0
}
