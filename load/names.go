package load

import (
	"fmt"
	"strconv"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
)

// objectMeta is what the loader reads and sets of a decoded object's
// metadata: a *metav1.ObjectMeta, or a route's *model.RouteMeta.
type objectMeta interface {
	GetName() string
	GetNamespace() string
	SetNamespace(namespace string)
}

// identify checks an object's name and namespace as the API server would and
// sets its namespace: a namespaced object that names none is in
// defaultNamespace (the kubeconfig's, or -n), and a cluster-scoped object has
// none. A problem comes with the field it is about.
func identify(om objectMeta, k *kind, defaultNamespace string) (fieldPath, error) {
	name := om.GetName()
	if name == "" {
		return field("metadata"), fmt.Errorf("%s has no metadata.name: name it", k.name)
	}
	if problems := nameRule(k).check(name); len(problems) > 0 {
		return field("metadata", "name"), fmt.Errorf("%s %s: metadata.name is not a valid %s name: %s; the API server refuses it: rename it",
			k.name, quoteName(name), k.name, strings.Join(problems, "; "))
	}
	switch ns := om.GetNamespace(); {
	case k.scope == clusterScoped:
		om.SetNamespace("")
	case ns == "":
		om.SetNamespace(defaultNamespace)
	default:
		// ValidateObjectMeta checks a namespace with ValidateNamespaceName.
		if problems := dns1123Label.check(ns); len(problems) > 0 {
			return field("metadata", "namespace"), fmt.Errorf("%s %s: metadata.namespace %s is not a valid namespace name: %s; the API server refuses it: correct it",
				k.name, quoteName(name), quoteName(ns), strings.Join(problems, "; "))
		}
	}
	return nil, nil
}

// nameRule is the rule the API server checks a kind's metadata.name with
// (k8s.io/kubernetes pkg/apis/core/validation): a Service's name is a DNS-1035
// label (ValidateServiceName), a Namespace's a DNS-1123 label
// (ValidateNamespaceName), and every other kind's here a DNS-1123 subdomain:
// Secrets and ConfigMaps (ValidateSecretName, ValidateConfigMapName) and
// custom resources, which the apiextensions server validates with
// NameIsDNSSubdomain.
func nameRule(k *kind) nameCheck {
	if k.group == "" {
		switch k.name {
		case "Service":
			return dns1035Label
		case "Namespace":
			return dns1123Label
		}
	}
	return dns1123Subdomain
}

// nameCheck is one of apimachinery's name rules with the same grammar written
// out in front of it: apimachinery matches a regular expression, which costs a
// few percent of loading, and nearly every name is valid. Where valid says no,
// problems, apimachinery's own function, decides and words the problem; the
// two agree on every name (FuzzNameChecksAgree).
type nameCheck struct {
	valid    func(string) bool
	problems apivalidation.ValidateNameFunc
}

func (c nameCheck) check(name string) []string {
	if c.valid(name) {
		return nil
	}
	return c.problems(name, false)
}

var (
	dns1123Subdomain = nameCheck{isDNS1123Subdomain, apivalidation.NameIsDNSSubdomain}
	dns1123Label     = nameCheck{isDNS1123Label, apivalidation.NameIsDNSLabel}
	dns1035Label     = nameCheck{isDNS1035Label, apivalidation.NameIsDNS1035Label}
)

// isDNS1123Label is k8s.io/apimachinery's IsDNS1123Label: at most 63 of
// [a-z0-9-], starting and ending with a letter or digit.
func isDNS1123Label(s string) bool { return isLabel(s, false) && len(s) <= 63 }

// isDNS1035Label is IsDNS1035Label: a DNS-1123 label that starts with a letter.
func isDNS1035Label(s string) bool { return isLabel(s, true) && len(s) <= 63 }

// isDNS1123Subdomain is IsDNS1123Subdomain: at most 253 characters of labels
// joined by dots, the labels not limited in length.
func isDNS1123Subdomain(s string) bool {
	if len(s) > 253 {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			if !isLabel(s[start:i], false) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

// isLabel reports whether s is [a-z0-9]([-a-z0-9]*[a-z0-9])?, or with
// letterFirst [a-z]([-a-z0-9]*[a-z0-9])?.
func isLabel(s string, letterFirst bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9':
			if i == 0 && letterFirst {
				return false
			}
		case c == '-':
			if i == 0 || i == len(s)-1 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// quoteName quotes a name for a message, its control characters escaped, and
// cut short when it is too long to read.
func quoteName(name string) string {
	const most = 80
	if len(name) > most {
		return strconv.Quote(name[:most]) + "..."
	}
	return strconv.Quote(name)
}
