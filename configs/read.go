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
