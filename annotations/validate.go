package annotations

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/suggest"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// Validator checks annotations against a fixed list of sets.
type Validator struct {
	sets []Set
}

// NewValidator returns a validator for sets (e.g. from ParseSet or
// EmbeddedSets). Sets built in Go are checked as ParseSet checks them.
func NewValidator(sets ...Set) (*Validator, error) {
	v := &Validator{}
	for _, s := range sets {
		s.Keys = slices.Clone(s.Keys)
		if err := s.compile(); err != nil {
			return nil, fmt.Errorf("annotation set %q: %w", s.Implementation, err)
		}
		v.sets = append(v.sets, s)
	}
	return v, nil
}

// Validate checks the annotations of one object of the given kind against
// the embedded sets. See Validator.Validate.
func Validate(kind string, annotations map[string]string) []Problem {
	return Default().Validate(kind, annotations)
}

// Validate checks the annotations of one object of the given kind. Keys
// under no known prefix are ignored, and so are keys on kinds that no set
// for their prefix documents. For the others it reports unknown keys
// (warning, naming the closest documented key), keys documented for other
// kinds (warning), values of the wrong type or out of range (error, or a
// warning where the implementation may accept the spelling) and keys that
// another annotation makes moot (warning). Problems are sorted by key, then
// in the order the checks run, so output is stable.
func (v *Validator) Validate(kind string, annotations map[string]string) []Problem {
	var out []Problem
	for key, value := range annotations {
		sets := v.setsFor(key, kind)
		if len(sets) == 0 {
			continue
		}
		k, set := lookup(sets, key)
		switch {
		case k == nil:
			out = append(out, unknownKey(sets, kind, key, value))
		case !k.appliesTo(set, kind):
			out = append(out, problem(rules.AnnotationWrongKind, key, showValue(value),
				fmt.Sprintf("%s is documented for %s, not %s (%s: %s)", showKey(key), strings.Join(kindsOf(k, set), ", "), kind, set.Implementation, k.Section),
				fmt.Sprintf("move it to the %s, or remove it", strings.Join(kindsOf(k, set), " or "))))
		default:
			for _, vp := range checkValue(k, value) {
				p := problem(rules.AnnotationInvalidValue, key, valueFor(k, value), showKey(key)+": "+vp.message, vp.fix)
				p.Severity = vp.severity
				out = append(out, p)
			}
		}
	}
	out = append(out, v.overrides(kind, annotations)...)
	return finishAll(out)
}

// valueFor keeps PEM bundles out of Problem.Value whatever they contain.
func valueFor(k *Key, value string) string {
	if k.Type == TypePEMCertificates {
		return fmt.Sprintf("<%d bytes>", len(value))
	}
	return showValue(value)
}

func kindsOf(k *Key, s *Set) []string {
	if len(k.Kinds) > 0 {
		return k.Kinds
	}
	return s.Kinds
}

// setsFor returns the sets whose prefix owns key and that document kind.
func (v *Validator) setsFor(key, kind string) []*Set {
	var out []*Set
	for i := range v.sets {
		s := &v.sets[i]
		if s.Owns(key) && slices.Contains(s.Kinds, kind) {
			out = append(out, s)
		}
	}
	return out
}

func lookup(sets []*Set, key string) (*Key, *Set) {
	for _, s := range sets {
		if k := s.lookup(key); k != nil {
			return k, s
		}
	}
	return nil, nil
}

func unknownKey(sets []*Set, kind, key, value string) Problem {
	var names []string
	for _, s := range sets {
		for i := range s.Keys {
			if s.Keys[i].appliesTo(s, kind) {
				names = append(names, s.Keys[i].Key)
			}
		}
	}
	slices.Sort(names)
	best, d := suggest.Closest(key, names)
	p := problem(rules.AnnotationUnknownKey, key, showValue(value), "", "")
	doc := sets[0].Implementation + " " + kind
	switch {
	case best == "":
		p.Message = fmt.Sprintf("%s is not a documented %s annotation", showKey(key), doc)
		p.Fix = "remove it"
	case d <= max(3, len(best)/4):
		p.Message = fmt.Sprintf("%s is not a documented %s annotation; did you mean %s?", showKey(key), doc, best)
		p.Fix = fmt.Sprintf("rename it to %s, or remove it", best)
	default:
		p.Message = fmt.Sprintf("%s is not a documented %s annotation; the closest documented key is %s", showKey(key), doc, best)
		p.Fix = fmt.Sprintf("remove it, or use a documented key such as %s", best)
	}
	return p
}

// overrides reports keys made moot by another annotation's value.
func (v *Validator) overrides(kind string, annotations map[string]string) []Problem {
	var out []Problem
	for i := range v.sets {
		s := &v.sets[i]
		if !slices.Contains(s.Kinds, kind) {
			continue
		}
		for _, o := range s.Overrides {
			if got, ok := annotations[o.When]; !ok || got != o.Equals {
				continue
			}
			for _, key := range o.Unused {
				value, ok := annotations[key]
				if !ok {
					continue
				}
				k := s.lookup(key)
				out = append(out, problem(rules.AnnotationNoEffect, key, valueFor(k, value),
					fmt.Sprintf("%s is set, but %s is %q: %s (%s: %s)", key, o.When, o.Equals, o.Reason, s.Implementation, o.Section),
					fmt.Sprintf("remove %s, or change %s", key, o.When)))
			}
		}
	}
	return out
}

// finishAll sorts by key (stable, so checks on one key keep their order)
// and applies the output limits.
func finishAll(ps []Problem) []Problem {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Compare(a.Key, b.Key)
	})
	for i := range ps {
		ps[i] = ps[i].finish()
	}
	return ps
}
