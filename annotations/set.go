package annotations

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
)

// Set is the annotations one implementation documents, as read from a file
// under sets/.
type Set struct {
	// Implementation names the implementation in messages, e.g. "Gwin".
	Implementation string `json:"implementation"`
	// Prefix is the annotation prefix the implementation owns, including
	// the slash, e.g. "gwin.yandex.cloud/". Keys under it that the set does
	// not list are reported as unknown.
	Prefix string `json:"prefix"`
	// Kinds are the object kinds whose annotations the set documents.
	// Annotations on other kinds are not checked: their keys may be
	// documented elsewhere.
	Kinds []string `json:"kinds"`
	// Source cites the reference document.
	Source string `json:"source"`
	// Equivalents records kinds the reference calls equivalent (e.g. a
	// policy resource whose parameters mirror the annotations); informational.
	Equivalents []Equivalent `json:"equivalents,omitempty"`
	Keys        []Key        `json:"keys"`
	Overrides   []Override   `json:"overrides,omitempty"`
	// Ingress describes the Ingress controller, for a set of Ingress
	// annotations; nil otherwise.
	Ingress *Controller `json:"ingress,omitempty"`
}

// Equivalent is a kind the reference says carries the same settings.
type Equivalent struct {
	Kind    string `json:"kind"`
	Section string `json:"section"`
	Note    string `json:"note"`
}

// Key is one documented annotation.
type Key struct {
	// Key is the full annotation key. A segment written <name> is a
	// placeholder matching one or more characters other than '.' and '/'.
	Key string `json:"key"`
	// Kinds the annotation applies to; empty means the set's Kinds.
	Kinds []string `json:"kinds,omitempty"`
	// DocType is the type as the reference prints it ("string", "number").
	DocType string `json:"docType,omitempty"`
	// Type is how the value is checked: see ValueType.
	Type ValueType `json:"type"`
	// Min and Max bound an integer, inclusive.
	Min *int64 `json:"min,omitempty"`
	Max *int64 `json:"max,omitempty"`
	// Positive requires a duration greater than zero (a negative duration
	// is always wrong).
	Positive bool `json:"positive,omitempty"`
	// Values are the allowed values of an enum, compared case-sensitively
	// unless IgnoreCase.
	Values []string `json:"values,omitempty"`
	// IgnoreCase compares an enum's values without regard to case, for an
	// implementation that does (ingress-nginx's backend-protocol).
	IgnoreCase bool `json:"ignoreCase,omitempty"`
	// AllowEmpty accepts "" for a hostname, where the reference gives the
	// empty value a meaning.
	AllowEmpty bool `json:"allowEmpty,omitempty"`
	// Role marks keys that Consistency compares with a BackendTLSPolicy.
	Role Role `json:"role,omitempty"`
	// Description is one line from the reference.
	Description string `json:"description"`
	// Section is where in the reference the key is documented.
	Section string `json:"section"`
	// Example is the reference's example value, if it is a valid one.
	Example string `json:"example,omitempty"`
	// URL is the page (and anchor) of the documentation the key is from,
	// when the set's source is a web page.
	URL string `json:"url,omitempty"`
	// Outside marks a key that is not under the set's prefix: the
	// implementation reads it, but does not own its prefix, so other keys
	// under that prefix are not reported as unknown.
	Outside bool `json:"outside,omitempty"`
	// Effect is what the key changes in what an Ingress controller serves;
	// nil when it changes nothing a serving table holds.
	Effect *Effect `json:"effect,omitempty"`

	pattern *regexp.Regexp // set for keys with placeholders
}

// ValueType names a check applied to an annotation value.
type ValueType string

const (
	// TypeString accepts any value.
	TypeString ValueType = "string"
	// TypeInteger is a base-10 whole number, optionally bounded by Min/Max.
	TypeInteger ValueType = "integer"
	// TypeDuration is a Go duration (time.ParseDuration: 5s, 1m30s, 3600s).
	TypeDuration ValueType = "duration"
	// TypeBoolean is "true" or "false".
	TypeBoolean ValueType = "boolean"
	// TypeEnum is one of Values.
	TypeEnum ValueType = "enum"
	// TypePEMCertificates is a PEM bundle with at least one X.509 certificate.
	TypePEMCertificates ValueType = "pem-certificates"
	// TypeHostname is a precise hostname (no wildcard), as an SNI must be.
	TypeHostname ValueType = "hostname"
	// TypeToken is an RFC 9110 token, the syntax of header and cookie names.
	TypeToken ValueType = "token"
)

var valueTypes = []ValueType{TypeString, TypeInteger, TypeDuration, TypeBoolean, TypeEnum, TypePEMCertificates, TypeHostname, TypeToken}

// Role marks what a key means to checks across objects.
type Role string

const (
	// RoleBackendSNI is the SNI used towards backends; Consistency compares
	// it with a BackendTLSPolicy's validation.hostname.
	RoleBackendSNI Role = "backend-sni"
	// RoleBackendTrustedCA configures the CA that backend certificates are
	// verified against.
	RoleBackendTrustedCA Role = "backend-trusted-ca"
)

// Override says that when When is set to Equals, the Unused keys are moot.
type Override struct {
	When    string   `json:"when"`
	Equals  string   `json:"equals"`
	Unused  []string `json:"unused"`
	Reason  string   `json:"reason"`
	Section string   `json:"section"`
}

// appliesTo reports whether the key is documented for kind.
func (k *Key) appliesTo(s *Set, kind string) bool {
	if len(k.Kinds) == 0 {
		return slices.Contains(s.Kinds, kind)
	}
	return slices.Contains(k.Kinds, kind)
}

func (k *Key) matches(key string) bool {
	if k.pattern != nil {
		return k.pattern.MatchString(key)
	}
	return k.Key == key
}

var placeholder = regexp.MustCompile(`<[^<>./]+>`)

// ParseSet reads a set from YAML (or JSON) and checks that it is usable:
// unknown fields, unknown types, keys outside the prefix, empty enums,
// inverted ranges and dangling overrides are errors.
func ParseSet(data []byte) (Set, error) {
	var s Set
	if err := yaml.UnmarshalStrict(data, &s); err != nil {
		return Set{}, fmt.Errorf("annotation set: %w", err)
	}
	if err := s.compile(); err != nil {
		return Set{}, fmt.Errorf("annotation set %q: %w", s.Implementation, err)
	}
	return s, nil
}

func (s *Set) compile() error {
	if s.Implementation == "" {
		return fmt.Errorf("implementation is empty")
	}
	if !strings.HasSuffix(s.Prefix, "/") || len(s.Prefix) < 2 {
		return fmt.Errorf("prefix %q must end in '/'", s.Prefix)
	}
	if len(s.Kinds) == 0 {
		return fmt.Errorf("kinds is empty")
	}
	seen := map[string]bool{}
	for i := range s.Keys {
		k := &s.Keys[i]
		under := strings.HasPrefix(k.Key, s.Prefix) && len(k.Key) > len(s.Prefix)
		switch {
		case !under && !k.Outside:
			return fmt.Errorf("key %q is not under prefix %q (mark it outside if the implementation reads it there)", k.Key, s.Prefix)
		case under && k.Outside:
			return fmt.Errorf("key %q is under prefix %q, not outside it", k.Key, s.Prefix)
		case k.Outside && placeholder.MatchString(k.Key):
			return fmt.Errorf("key %q: a key outside the prefix cannot have placeholders", k.Key)
		}
		if seen[k.Key] {
			return fmt.Errorf("key %q is listed twice", k.Key)
		}
		seen[k.Key] = true
		if !slices.Contains(valueTypes, k.Type) {
			return fmt.Errorf("key %q: unknown type %q (known: %v)", k.Key, k.Type, valueTypes)
		}
		if k.Type == TypeEnum && len(k.Values) == 0 {
			return fmt.Errorf("key %q: enum without values", k.Key)
		}
		if k.IgnoreCase && k.Type != TypeEnum {
			return fmt.Errorf("key %q: ignoreCase applies to enums only", k.Key)
		}
		if (k.Min != nil || k.Max != nil) && k.Type != TypeInteger {
			return fmt.Errorf("key %q: min/max apply to integers only", k.Key)
		}
		if k.Min != nil && k.Max != nil && *k.Min > *k.Max {
			return fmt.Errorf("key %q: min %d > max %d", k.Key, *k.Min, *k.Max)
		}
		if k.Positive && k.Type != TypeDuration {
			return fmt.Errorf("key %q: positive applies to durations only", k.Key)
		}
		if k.AllowEmpty && k.Type != TypeHostname {
			return fmt.Errorf("key %q: allowEmpty applies to hostnames only", k.Key)
		}
		switch k.Role {
		case "", RoleBackendSNI, RoleBackendTrustedCA:
		default:
			return fmt.Errorf("key %q: unknown role %q", k.Key, k.Role)
		}
		if k.Role == RoleBackendSNI && k.Type != TypeHostname {
			return fmt.Errorf("key %q: role %s needs type hostname", k.Key, k.Role)
		}
		if placeholder.MatchString(k.Key) && k.Role != "" {
			// Consistency compares a role key with one backend's policy; a
			// placeholder would need to say which backend it selects.
			return fmt.Errorf("key %q: a key with placeholders cannot have a role", k.Key)
		}
		if k.Effect != nil {
			if placeholder.MatchString(k.Key) {
				return fmt.Errorf("key %q: a key with placeholders cannot have an effect", k.Key)
			}
			if err := k.Effect.compile(k); err != nil {
				return err
			}
			for _, o := range k.Effect.Overrides {
				if i := slices.IndexFunc(s.Keys, func(x Key) bool { return x.Key == o }); i < 0 || s.Keys[i].Effect == nil || s.Keys[i].Effect.Does != k.Effect.Does {
					return fmt.Errorf("key %q: overrides %q, which is not a key of the set with effect %s", k.Key, o, k.Effect.Does)
				}
			}
		}
		if placeholder.MatchString(k.Key) {
			var b strings.Builder
			b.WriteString("^")
			last := 0
			for _, loc := range placeholder.FindAllStringIndex(k.Key, -1) {
				b.WriteString(regexp.QuoteMeta(k.Key[last:loc[0]]))
				b.WriteString(`[^./]+`)
				last = loc[1]
			}
			b.WriteString(regexp.QuoteMeta(k.Key[last:]))
			b.WriteString("$")
			k.pattern = regexp.MustCompile(b.String())
		}
	}
	for _, o := range s.Overrides {
		for _, name := range append([]string{o.When}, o.Unused...) {
			if !seen[name] {
				return fmt.Errorf("override names key %q, which is not in keys", name)
			}
		}
	}
	if s.Ingress != nil {
		if !slices.Contains(s.Kinds, "Ingress") {
			return fmt.Errorf("ingress: a controller's set documents kind Ingress")
		}
		return s.Ingress.compile()
	}
	for i := range s.Keys {
		if s.Keys[i].Effect != nil {
			return fmt.Errorf("key %q: effects are read for an Ingress controller's set, which has an ingress block", s.Keys[i].Key)
		}
	}
	return nil
}

// lookup returns the key that key matches, exact keys before patterns.
func (s *Set) lookup(key string) *Key {
	for i := range s.Keys {
		if s.Keys[i].pattern == nil && s.Keys[i].Key == key {
			return &s.Keys[i]
		}
	}
	for i := range s.Keys {
		if s.Keys[i].pattern != nil && s.Keys[i].matches(key) {
			return &s.Keys[i]
		}
	}
	return nil
}

//go:embed sets/*.yaml
var embedded embed.FS

// EmbeddedSets returns the sets shipped in sets/, ordered by file name.
func EmbeddedSets() ([]Set, error) {
	names, err := fs.Glob(embedded, "sets/*.yaml")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	sets := make([]Set, 0, len(names))
	for _, name := range names {
		data, err := embedded.ReadFile(name)
		if err != nil {
			return nil, err
		}
		s, err := ParseSet(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path.Base(name), err)
		}
		sets = append(sets, s)
	}
	return sets, nil
}

var defaultValidator = sync.OnceValue(func() *Validator {
	sets, err := EmbeddedSets()
	if err != nil {
		// The files are compiled in and checked by TestEmbeddedSetsParse.
		panic(err)
	}
	v, err := NewValidator(sets...)
	if err != nil {
		panic(err)
	}
	return v
})

// Default returns the validator for the embedded sets.
func Default() *Validator { return defaultValidator() }
