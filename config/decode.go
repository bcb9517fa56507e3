package config

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/internal/suggest"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Error is a problem in a configuration file, at a line.
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// decoder reads one file.
type decoder struct {
	file string
	cfg  *Config
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: d.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

// keys decodes each top-level key; a key not here is an error. The JSON
// Schema (schema/config.schema.json) lists exactly these properties, which
// TestSchemaAndDecoderAgree keeps true.
var keys = map[string]func(d *decoder, value *yaml.Node) error{
	"apiVersion": func(d *decoder, n *yaml.Node) error {
		return d.constant(n, APIVersion)
	},
	"kind": func(d *decoder, n *yaml.Node) error {
		return d.constant(n, Kind)
	},
	"rules": (*decoder).rules,
	"external": func(d *decoder, n *yaml.Node) error {
		list, err := d.strings(n)
		for _, item := range list {
			if _, perr := analyze.ParseExternal(item.value); perr != nil {
				return d.errorf(item.node, "external: %q: want KIND (Secret) or KIND/NAMESPACE/NAME (Secret/infra/edge-cert)", item.value)
			}
			d.cfg.External = append(d.cfg.External, item.value)
		}
		return err
	},
	"supportedFeatures": func(d *decoder, n *yaml.Node) error {
		list, err := d.strings(n)
		for _, item := range list {
			d.cfg.SupportedFeatures = append(d.cfg.SupportedFeatures, item.value)
		}
		return err
	},
	"controller": func(d *decoder, n *yaml.Node) error {
		s, err := d.string(n)
		d.cfg.Controller = s
		return err
	},
	"warnExpiry": func(d *decoder, n *yaml.Node) error {
		s, err := d.string(n)
		if err != nil {
			return err
		}
		v, err := time.ParseDuration(s)
		if err != nil || v < 0 {
			return d.errorf(n, "warnExpiry: %q: want a duration such as 720h (30 days) or 336h", s)
		}
		d.cfg.WarnExpiry = v
		return nil
	},
	"failOn": func(d *decoder, n *yaml.Node) error {
		s, err := d.string(n)
		if err != nil {
			return err
		}
		switch s {
		case "error", "warning", "info", "none":
		default:
			return d.errorf(n, "failOn: %q: want error, warning, info or none%s", s, didYouMean(s, []string{"error", "warning", "info", "none"}))
		}
		d.cfg.FailOn, _ = rules.ParseSeverity(s)
		return nil
	},
	"baseline": func(d *decoder, n *yaml.Node) error {
		s, err := d.string(n)
		if err != nil {
			return err
		}
		if s == "" {
			return d.errorf(n, "baseline: want a file name")
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(filepath.Dir(d.file), s)
		}
		d.cfg.Baseline = s
		return nil
	},
}

// Keys are the keys a configuration file may have, sorted.
func Keys() []string {
	out := make([]string, 0, len(keys))
	for k := range keys {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Parse reads a configuration file's contents; file names it in errors.
func Parse(file string, data []byte) (*Config, error) {
	d := &decoder{file: file, cfg: &Config{Path: file, set: map[string]bool{}}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &Error{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return d.cfg, nil // an empty file configures nothing
	}
	root := resolve(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return d.cfg, nil
	}
	if root.Kind != yaml.MappingNode {
		return nil, d.errorf(root, "want a mapping of keys (%s)", strings.Join(Keys(), ", "))
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], resolve(root.Content[i+1])
		decode, ok := keys[k.Value]
		if !ok {
			return nil, d.errorf(k, "unknown key %q%s", k.Value, didYouMean(k.Value, Keys()))
		}
		if d.cfg.set[k.Value] {
			return nil, d.errorf(k, "key %q is set twice", k.Value)
		}
		if err := decode(d, v); err != nil {
			return nil, err
		}
		d.cfg.set[k.Value] = true
	}
	return d.cfg, nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func (d *decoder) constant(n *yaml.Node, want string) error {
	s, err := d.string(n)
	if err == nil && s != want {
		return d.errorf(n, "%q: want %q", s, want)
	}
	return err
}

func (d *decoder) string(n *yaml.Node) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", d.errorf(n, "want a string")
	}
	return n.Value, nil
}

type item struct {
	value string
	node  *yaml.Node
}

// strings reads a list of strings.
func (d *decoder) strings(n *yaml.Node) ([]item, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "want a list of strings")
	}
	out := make([]item, 0, len(n.Content))
	for _, c := range n.Content {
		c = resolve(c)
		s, err := d.string(c)
		if err != nil {
			return nil, err
		}
		out = append(out, item{s, c})
	}
	return out, nil
}

// didYouMean is " (did you mean X?)" when a candidate starts with s or is
// close to it.
func didYouMean(s string, candidates []string) string {
	for _, c := range candidates {
		if s != "" && strings.HasPrefix(c, s) {
			return fmt.Sprintf(" (did you mean %q?)", c)
		}
	}
	best, d := suggest.Closest(s, candidates)
	if best == "" || d > max(2, len(best)/4) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
