package celrules

import (
	"encoding/json"
	"fmt"
	"strings"
)

// aCase is the value of a rule's node that breaks the rule and one that keeps
// it; build makes them when they depend on where the node is.
type aCase struct {
	violate, satisfy any
	build            func(Rule) (violate, satisfy any)
}

// js parses a JSON fragment of the corpus (a programming error panics, in tests).
func js(s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(fmt.Sprintf("celrules: %v in %s", err, s))
	}
	return v
}

func pair(violate, satisfy string) aCase { return aCase{violate: js(violate), satisfy: js(satisfy)} }

// caseFor finds the case of r: by message, which the CRDs give every rule.
func caseFor(r Rule) (aCase, bool) {
	if c, ok := byMessage[r.Message]; ok {
		return c, true
	}
	if c, ok := filterFieldCase(r.Message); ok {
		return c, true
	}
	return aCase{}, false
}

const (
	svc   = `{"name":"svc","port":80}`
	caRef = `{"group":"","kind":"ConfigMap","name":"ca"}`
)

// Keys of Gateway infrastructure labels and annotations.
var (
	badKey     = pair(`{"-bad":"x"}`, `{"example.com/team":"x"}`)
	longPrefix = pair(`{"`+strings.Repeat("a", 253)+`/team":"x"}`, `{"`+strings.Repeat("a", 252)+`/team":"x"}`)
)

var byMessage = map[string]aCase{
	// BackendTLSPolicy (and XBackend's tls) targetRefs and validation.
	"sectionName must be specified when targetRefs includes 2 or more references to the same target": pair(
		`[{"group":"","kind":"Service","name":"svc"},{"group":"","kind":"Service","name":"svc","sectionName":"a"}]`,
		`[{"group":"","kind":"Service","name":"svc","sectionName":"a"},{"group":"","kind":"Service","name":"svc","sectionName":"b"}]`),
	"sectionName must be unique when targetRefs includes 2 or more references to the same target": pair(
		`[{"group":"","kind":"Service","name":"svc","sectionName":"a"},{"group":"","kind":"Service","name":"svc","sectionName":"a"}]`,
		`[{"group":"","kind":"Service","name":"svc","sectionName":"a"},{"group":"","kind":"Service","name":"svc","sectionName":"b"}]`),
	"must not contain both CACertificateRefs and WellKnownCACertificates": pair(
		`{"hostname":"a.example.com","caCertificateRefs":[{"group":"","kind":"ConfigMap","name":"ca"}],"wellKnownCACertificates":"System"}`,
		`{"hostname":"a.example.com","wellKnownCACertificates":"System"}`),
	"must specify either CACertificateRefs or WellKnownCACertificates": pair(
		`{"hostname":"a.example.com"}`,
		`{"hostname":"a.example.com","caCertificateRefs":[{"group":"","kind":"ConfigMap","name":"ca"}]}`),
	"SubjectAltName element must contain Hostname, if Type is set to Hostname": pair(
		`{"type":"Hostname"}`, `{"type":"Hostname","hostname":"a.example.com"}`),
	"SubjectAltName element must not contain Hostname, if Type is not set to Hostname": pair(
		`{"type":"URI","uri":"spiffe://example.com/a","hostname":"a.example.com"}`, `{"type":"URI","uri":"spiffe://example.com/a"}`),
	"SubjectAltName element must contain URI, if Type is set to URI": pair(
		`{"type":"URI"}`, `{"type":"URI","uri":"spiffe://example.com/a"}`),
	"SubjectAltName element must not contain URI, if Type is not set to URI": pair(
		`{"type":"Hostname","hostname":"a.example.com","uri":"spiffe://example.com/a"}`, `{"type":"Hostname","hostname":"a.example.com"}`),

	// Gateway addresses, infrastructure and frontend TLS.
	"IPAddress values must be unique": pair(
		`[{"type":"IPAddress","value":"10.0.0.1"},{"type":"IPAddress","value":"10.0.0.1"}]`,
		`[{"type":"IPAddress","value":"10.0.0.1"},{"type":"IPAddress","value":"10.0.0.2"}]`),
	"Hostname values must be unique": pair(
		`[{"type":"Hostname","value":"a.example.com"},{"type":"Hostname","value":"a.example.com"}]`,
		`[{"type":"Hostname","value":"a.example.com"},{"type":"Hostname","value":"b.example.com"}]`),
	`Hostname value must be empty or contain only valid characters (matching ^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$)`: pair(
		`{"type":"Hostname","value":"a_b.example.com"}`, `{"type":"Hostname","value":"a.example.com"}`),
	"Label keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.":      badKey,
	"Annotation keys must be in the form of an optional DNS subdomain prefix followed by a required name segment of up to 63 characters.": badKey,
	"If specified, the label key's prefix must be a DNS subdomain not longer than 253 characters in total.":                               longPrefix,
	"If specified, the annotation key's prefix must be a DNS subdomain not longer than 253 characters in total.":                          longPrefix,
	"Port for TLS configuration must be unique within the Gateway": pair(
		`[{"port":443,"tls":{"validation":{"caCertificateRefs":[`+caRef+`]}}},{"port":443,"tls":{"validation":{"caCertificateRefs":[`+caRef+`]}}}]`,
		`[{"port":443,"tls":{"validation":{"caCertificateRefs":[`+caRef+`]}}},{"port":8443,"tls":{"validation":{"caCertificateRefs":[`+caRef+`]}}}]`),

	// Listeners (Gateway and ListenerSet).
	"tls must not be specified for protocols ['HTTP', 'TCP', 'UDP']": pair(
		`[{"name":"a","port":80,"protocol":"HTTP","tls":{"certificateRefs":[{"name":"cert"}]}}]`,
		`[{"name":"a","port":80,"protocol":"HTTP"}]`),
	"tls mode must be Terminate for protocol HTTPS": pair(
		`[{"name":"a","port":443,"protocol":"HTTPS","tls":{"mode":"Passthrough"}}]`,
		`[{"name":"a","port":443,"protocol":"HTTPS","tls":{"mode":"Terminate","certificateRefs":[{"name":"cert"}]}}]`),
	"tls mode must be set for protocol TLS": pair(
		`[{"name":"a","port":443,"protocol":"TLS","hostname":"a.example.com"}]`,
		`[{"name":"a","port":443,"protocol":"TLS","hostname":"a.example.com","tls":{"mode":"Passthrough"}}]`),
	"hostname must not be specified for protocols ['TCP', 'UDP']": pair(
		`[{"name":"a","port":9000,"protocol":"TCP","hostname":"a.example.com"}]`,
		`[{"name":"a","port":9000,"protocol":"TCP"}]`),
	"Listener name must be unique within the Gateway": pair(
		`[{"name":"a","port":80,"protocol":"HTTP"},{"name":"a","port":81,"protocol":"HTTP"}]`,
		`[{"name":"a","port":80,"protocol":"HTTP"},{"name":"b","port":81,"protocol":"HTTP"}]`),
	"Combination of port, protocol and hostname must be unique for each listener": pair(
		`[{"name":"a","port":80,"protocol":"HTTP"},{"name":"b","port":80,"protocol":"HTTP"}]`,
		`[{"name":"a","port":80,"protocol":"HTTP"},{"name":"b","port":80,"protocol":"HTTP","hostname":"b.example.com"}]`),
	"certificateRefs or options must be specified when mode is Terminate": pair(
		`{"mode":"Terminate"}`, `{"mode":"Terminate","certificateRefs":[{"name":"cert"}]}`),

	// Route parentRefs: the standard channel's rules and the experimental
	// channel's, which also tell references apart by port.
	"sectionName must be specified when parentRefs includes 2 or more references to the same parent": pair(
		`[{"name":"gw"},{"name":"gw","sectionName":"a"}]`, `[{"name":"gw","sectionName":"a"},{"name":"gw","sectionName":"b"}]`),
	"sectionName must be unique when parentRefs includes 2 or more references to the same parent": pair(
		`[{"name":"gw","sectionName":"a"},{"name":"gw","sectionName":"a"}]`, `[{"name":"gw","sectionName":"a"},{"name":"gw","sectionName":"b"}]`),
	"sectionName or port must be specified when parentRefs includes 2 or more references to the same parent": pair(
		`[{"name":"gw"},{"name":"gw","port":80}]`, `[{"name":"gw","port":80},{"name":"gw","port":443}]`),
	"sectionName or port must be unique when parentRefs includes 2 or more references to the same parent": pair(
		`[{"name":"gw","port":80},{"name":"gw","port":80}]`, `[{"name":"gw","port":80},{"name":"gw","port":443}]`),

	// Route rules.
	"While 16 rules and 64 matches per rule are allowed, the total number of matches across all rules in a route must be less than 128": {
		violate: rulesWithMatches(16, 9), satisfy: rulesWithMatches(16, 8),
	},
	"Rule name must be unique within the route": {build: func(r Rule) (any, any) {
		rule := func(name string) any {
			m := filler(r.Kind, ".spec.rules[]", "name")
			m["name"] = name
			return m
		}
		return []any{rule("a"), rule("a")}, []any{rule("a"), rule("b")}
	}},
	"Must have port for Service reference": pair(`{"name":"svc"}`, svc),
	"RequestRedirect filter must not be used together with backendRefs": pair(
		`{"backendRefs":[`+svc+`],"filters":[{"type":"RequestRedirect","requestRedirect":{"statusCode":301}}]}`,
		`{"filters":[{"type":"RequestRedirect","requestRedirect":{"statusCode":301}}]}`),
	"When using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified": pair(
		`{"matches":[{"path":{"type":"Exact","value":"/a"}}],"filters":[{"type":"RequestRedirect","requestRedirect":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}`,
		`{"matches":[{"path":{"type":"PathPrefix","value":"/a"}}],"filters":[{"type":"RequestRedirect","requestRedirect":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}`),
	"When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified": pair(
		`{"matches":[{"path":{"type":"Exact","value":"/a"}}],"filters":[{"type":"URLRewrite","urlRewrite":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}`,
		`{"matches":[{"path":{"type":"PathPrefix","value":"/a"}}],"filters":[{"type":"URLRewrite","urlRewrite":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}`),
	"Within backendRefs, when using RequestRedirect filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified": pair(
		`{"matches":[{"path":{"type":"Exact","value":"/a"}}],"backendRefs":[{"name":"svc","port":80,"filters":[{"type":"RequestRedirect","requestRedirect":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}]}`,
		`{"matches":[{"path":{"type":"PathPrefix","value":"/a"}}],"backendRefs":[{"name":"svc","port":80,"filters":[{"type":"RequestRedirect","requestRedirect":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}]}`),
	"Within backendRefs, When using URLRewrite filter with path.replacePrefixMatch, exactly one PathPrefix match must be specified": pair(
		`{"matches":[{"path":{"type":"Exact","value":"/a"}}],"backendRefs":[{"name":"svc","port":80,"filters":[{"type":"URLRewrite","urlRewrite":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}]}`,
		`{"matches":[{"path":{"type":"PathPrefix","value":"/a"}}],"backendRefs":[{"name":"svc","port":80,"filters":[{"type":"URLRewrite","urlRewrite":{"path":{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}}}]}]}`),
	"backendRequest timeout cannot be longer than request timeout": pair(
		`{"request":"1s","backendRequest":"2s"}`, `{"request":"2s","backendRequest":"1s"}`),
	"AbsoluteTimeout must be specified when cookie lifetimeType is Permanent": pair(
		`{"type":"Cookie","cookieConfig":{"lifetimeType":"Permanent"}}`, `{"type":"Cookie","cookieConfig":{"lifetimeType":"Permanent"},"absoluteTimeout":"1h"}`),
	"cookieConfig can only be set with type Cookie": pair(
		`{"type":"Header","cookieConfig":{"lifetimeType":"Session"}}`, `{"type":"Cookie","cookieConfig":{"lifetimeType":"Session"}}`),

	// Filters: at most one of some types, not a redirect and a rewrite together.
	"RequestHeaderModifier filter cannot be repeated":  repeated("RequestHeaderModifier"),
	"ResponseHeaderModifier filter cannot be repeated": repeated("ResponseHeaderModifier"),
	"CORS filter cannot be repeated":                   repeated("CORS"),
	"RequestRedirect filter cannot be repeated":        repeated("RequestRedirect"),
	"URLRewrite filter cannot be repeated":             repeated("URLRewrite"),
	"May specify either httpRouteFilterRequestRedirect or httpRouteFilterRequestRewrite, but not both": {
		violate: []any{filterOf("RequestRedirect"), filterOf("URLRewrite")}, satisfy: []any{filterOf("URLRewrite")},
	},

	// Filter settings.
	"Only one of percent or fraction may be specified in HTTPRequestMirrorFilter": pair(
		`{"backendRef":`+svc+`,"percent":50,"fraction":{"numerator":1,"denominator":2}}`, `{"backendRef":`+svc+`,"percent":50}`),
	"numerator must be less than or equal to denominator":     pair(`{"numerator":3,"denominator":2}`, `{"numerator":1,"denominator":2}`),
	"AllowOrigins cannot contain '*' alongside other origins": corsWildcard,
	"AllowMethods cannot contain '*' alongside other methods": corsWildcard,
	"AllowHeaders cannot contain '*' alongside other methods": corsWildcard,
	"replaceFullPath must be specified when type is set to 'ReplaceFullPath'": pair(
		`{"type":"ReplaceFullPath"}`, `{"type":"ReplaceFullPath","replaceFullPath":"/a"}`),
	"type must be 'ReplaceFullPath' when replaceFullPath is set": pair(
		`{"type":"ReplacePrefixMatch","replacePrefixMatch":"/a","replaceFullPath":"/b"}`, `{"type":"ReplaceFullPath","replaceFullPath":"/b"}`),
	"replacePrefixMatch must be specified when type is set to 'ReplacePrefixMatch'": pair(
		`{"type":"ReplacePrefixMatch"}`, `{"type":"ReplacePrefixMatch","replacePrefixMatch":"/a"}`),
	"type must be 'ReplacePrefixMatch' when replacePrefixMatch is set": pair(
		`{"type":"ReplaceFullPath","replaceFullPath":"/a","replacePrefixMatch":"/b"}`, `{"type":"ReplacePrefixMatch","replacePrefixMatch":"/b"}`),
	"grpc must be specified when protocol is set to 'GRPC'": pair(
		`{"protocol":"GRPC","backendRef":`+svc+`}`, `{"protocol":"GRPC","grpc":{},"backendRef":`+svc+`}`),
	"protocol must be 'GRPC' when grpc is set": pair(
		`{"protocol":"HTTP","http":{},"grpc":{},"backendRef":`+svc+`}`, `{"protocol":"GRPC","grpc":{},"backendRef":`+svc+`}`),
	"http must be specified when protocol is set to 'HTTP'": pair(
		`{"protocol":"HTTP","backendRef":`+svc+`}`, `{"protocol":"HTTP","http":{},"backendRef":`+svc+`}`),
	"protocol must be 'HTTP' when http is set": pair(
		`{"protocol":"GRPC","grpc":{},"http":{},"backendRef":`+svc+`}`, `{"protocol":"HTTP","http":{},"backendRef":`+svc+`}`),

	// GRPCRoute method matches.
	"One or both of 'service' or 'method' must be specified": pair(`{"type":"Exact"}`, `{"type":"Exact","service":"a.B"}`),
	`service must only contain valid characters (matching ^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$)`: pair(
		`{"type":"Exact","service":"a-b"}`, `{"type":"Exact","service":"a.B"}`),
	`method must only contain valid characters (matching ^[A-Za-z_][A-Za-z_0-9]*$)`: pair(
		`{"type":"Exact","method":"a.b"}`, `{"type":"Exact","method":"Get"}`),

	// HTTPRoute path matches.
	"value must be an absolute path and start with '/' when type one of ['Exact', 'PathPrefix']":                                             pathValue("a"),
	"must not contain '//' when type one of ['Exact', 'PathPrefix']":                                                                         pathValue("/a//b"),
	"must not contain '/./' when type one of ['Exact', 'PathPrefix']":                                                                        pathValue("/a/./b"),
	"must not contain '/../' when type one of ['Exact', 'PathPrefix']":                                                                       pathValue("/a/../b"),
	"must not contain '%2f' when type one of ['Exact', 'PathPrefix']":                                                                        pathValue("/a%2fb"),
	"must not contain '%2F' when type one of ['Exact', 'PathPrefix']":                                                                        pathValue("/a%2Fb"),
	"must not contain '#' when type one of ['Exact', 'PathPrefix']":                                                                          pathValue("/a#b"),
	"must not end with '/..' when type one of ['Exact', 'PathPrefix']":                                                                       pathValue("/a/.."),
	"must not end with '/.' when type one of ['Exact', 'PathPrefix']":                                                                        pathValue("/a/."),
	"must only contain valid characters (matching ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$) for types ['Exact', 'PathPrefix']": pathValue("/a^b"),
	"type must be one of ['Exact', 'PathPrefix', 'RegularExpression']": pair(
		`{"type":"Prefix","value":"/a"}`, `{"type":"RegularExpression","value":"/a.*"}`),

	// TLSRoute hostnames.
	"Hostnames cannot contain an IP":            pair(`["10.0.0.1"]`, `["a.example.com"]`),
	"Hostnames must be valid based on RFC-1123": pair(`["a_b.example.com"]`, `["a.example.com"]`),
	"Wildcards on hostnames must be the first label, and the rest of hostname must be valid based on RFC-1123": pair(
		`["a.*.example.com"]`, `["*.example.com"]`),
}

// corsWildcard breaks the rules that a CORS list holding "*" holds nothing else.
var corsWildcard = aCase{build: func(r Rule) (any, any) {
	other := map[string]string{"allowOrigins": "https://example.com", "allowMethods": "GET", "allowHeaders": "x-team"}
	for field, v := range other {
		if strings.HasSuffix(r.Path, "."+field) {
			return []any{"*", v}, []any{"*"}
		}
	}
	return nil, nil
}}

// pathValue breaks an HTTPRoute path-match rule with value, for both types the
// rule applies to, and keeps it with a plain prefix.
func pathValue(value string) aCase {
	return aCase{
		violate: map[string]any{"type": "PathPrefix", "value": value},
		satisfy: map[string]any{"type": "PathPrefix", "value": "/a/b"},
	}
}

// rulesWithMatches is n route rules of m matches each.
func rulesWithMatches(n, m int) []any {
	rules := make([]any, n)
	for i := range rules {
		matches := make([]any, m)
		for j := range matches {
			matches[j] = map[string]any{"headers": []any{map[string]any{"name": fmt.Sprintf("x-%d", j), "value": "a"}}}
		}
		rules[i] = map[string]any{"matches": matches}
	}
	return rules
}

// filterSettings is, per filter type, the field that holds its settings and a
// valid value of it.
var filterSettings = map[string]struct {
	field, value string
}{
	"RequestHeaderModifier":  {"requestHeaderModifier", `{"set":[{"name":"x-team","value":"a"}]}`},
	"ResponseHeaderModifier": {"responseHeaderModifier", `{"set":[{"name":"x-team","value":"a"}]}`},
	"RequestMirror":          {"requestMirror", `{"backendRef":` + svc + `}`},
	"ExtensionRef":           {"extensionRef", `{"group":"example.com","kind":"Filter","name":"f"}`},
	"CORS":                   {"cors", `{"allowOrigins":["https://example.com"]}`},
	"RequestRedirect":        {"requestRedirect", `{"statusCode":301}`},
	"URLRewrite":             {"urlRewrite", `{"hostname":"a.example.com"}`},
	"ExternalAuth":           {"externalAuth", `{"protocol":"HTTP","http":{},"backendRef":` + svc + `}`},
}

// filterOf is a valid filter of type t.
func filterOf(t string) map[string]any {
	s := filterSettings[t]
	return map[string]any{"type": t, s.field: js(s.value)}
}

func repeated(t string) aCase {
	return aCase{violate: []any{filterOf(t), filterOf(t)}, satisfy: []any{filterOf(t)}}
}

// filterFieldCase is the case of the rules that tie a filter's settings field to
// its type: "filter.cors must be nil if the filter.type is not CORS", "filter.cors
// must be specified for CORS filter.type".
func filterFieldCase(message string) (aCase, bool) {
	for t, s := range filterSettings {
		other := "RequestHeaderModifier"
		if t == other {
			other = "ResponseHeaderModifier"
		}
		switch message {
		case "filter." + s.field + " must be nil if the filter.type is not " + t:
			bad := filterOf(other)
			bad[s.field] = js(s.value)
			return aCase{violate: bad, satisfy: filterOf(t)}, true
		case "filter." + s.field + " must be specified for " + t + " filter.type":
			return aCase{violate: map[string]any{"type": t}, satisfy: filterOf(t)}, true
		}
	}
	return aCase{}, false
}

// filler is the smallest value of the object at path (a schema path of kind)
// that the CRD admits once child is set in it: the fields its schema requires,
// and for a filter the type that child's settings belong to.
func filler(kind, path, child string) map[string]any {
	switch {
	case path == "":
		return map[string]any{}
	case path == ".spec":
		return specOf(kind)
	case strings.HasSuffix(path, ".listeners[]"):
		return map[string]any{"name": "a", "port": 443, "protocol": "HTTPS"}
	case strings.HasSuffix(path, ".rules[]"):
		if kind == "TCPRoute" || kind == "UDPRoute" || kind == "TLSRoute" {
			return map[string]any{"backendRefs": []any{js(svc)}}
		}
		return map[string]any{}
	case strings.HasSuffix(path, ".backendRefs[]"):
		return js(svc).(map[string]any)
	case strings.HasSuffix(path, ".filters[]"):
		for t, s := range filterSettings {
			if s.field == child {
				return map[string]any{"type": t}
			}
		}
	case strings.HasSuffix(path, ".requestMirror") && child != "backendRef":
		return map[string]any{"backendRef": js(svc)}
	case strings.HasSuffix(path, ".externalAuth") && child != "backendRef":
		return map[string]any{"protocol": "HTTP", "http": map[string]any{}, "backendRef": js(svc)}
	case strings.HasSuffix(path, ".externalAuth"):
		return map[string]any{"protocol": "HTTP", "http": map[string]any{}}
	case strings.HasSuffix(path, ".validation") && child == "subjectAltNames":
		return map[string]any{"hostname": "a.example.com", "wellKnownCACertificates": "System"}
	case path == ".spec.tls.frontend":
		return map[string]any{"default": js(`{"validation":{"caCertificateRefs":[` + caRef + `]}}`)}
	}
	return map[string]any{}
}

// specOf is the smallest spec of kind the CRD admits.
func specOf(kind string) map[string]any {
	var spec string
	switch kind {
	case "Gateway":
		spec = `{"gatewayClassName":"example","listeners":[{"name":"http","port":80,"protocol":"HTTP"}]}`
	case "ListenerSet":
		spec = `{"parentRef":{"name":"gw"},"listeners":[{"name":"http","port":80,"protocol":"HTTP"}]}`
	case "BackendTLSPolicy":
		spec = `{"targetRefs":[{"group":"","kind":"Service","name":"svc"}],"validation":{"hostname":"a.example.com","wellKnownCACertificates":"System"}}`
	case "TLSRoute":
		spec = `{"hostnames":["a.example.com"],"rules":[{"backendRefs":[` + svc + `]}]}`
	case "TCPRoute", "UDPRoute":
		spec = `{"rules":[{"backendRefs":[` + svc + `]}]}`
	case "GatewayClass", "XMesh":
		spec = `{"controllerName":"example.com/controller"}`
	default:
		spec = `{}`
	}
	return js(spec).(map[string]any)
}
