package annotations

import (
	"fmt"
	"slices"
	"strconv"
)

// Controller is how an Ingress controller serves what the Ingress
// specification leaves to it (networking/v1: PathTypeImplementationSpecific,
// IngressTLS.Hosts defaults, host collisions) and which IngressClasses are
// its. It is the `ingress:` block of a set whose kinds are [Ingress]; package
// ingress reads it with the effects of the set's keys.
type Controller struct {
	// Controllers are the IngressClass spec.controller values that name the
	// implementation.
	Controllers []string `json:"controllers"`
	// Classes are the class names it takes without an IngressClass object in
	// the input (the deprecated kubernetes.io/ingress.class annotation, or a
	// spec.ingressClassName whose IngressClass is not in the input).
	Classes []string `json:"classes"`
	// Paths says how each pathType matches: see PathMatching.
	Paths map[string]PathMatching `json:"paths"`
	// RegexPaths is how a path matches once an annotation makes it a regular
	// expression: anchored at its start, as a prefix (nginx's `location ~*
	// "^/path"`), or whole.
	RegexPaths PathMatching `json:"regexPaths"`
	// TLSHosts says which hosts an IngressTLS entry terminates TLS for: the
	// hosts it lists ("listed"), or also those a TLS Secret of the same
	// Ingress holds a certificate for ("listed-or-certificate").
	TLSHosts string `json:"tlsHosts"`
	// HostCollision says what the controller does with one host in several
	// Ingresses: "merge" their paths (the oldest Ingress wins a path both
	// have), or give the host to the "oldest" Ingress.
	HostCollision string `json:"hostCollision"`
	// HTTPPorts and HTTPSPorts are the ports it serves plain HTTP and TLS on,
	// unless an annotation says otherwise.
	HTTPPorts  []int32 `json:"httpPorts"`
	HTTPSPorts []int32 `json:"httpsPorts"`
	// InvalidAnnotation is what an annotation value of the wrong type does:
	// "reject-ingress" (the controller ignores the whole Ingress) or
	// "ignore-annotation" (it applies the annotation's default).
	InvalidAnnotation string `json:"invalidAnnotation"`
	// Notes cite the documentation for each of the above, and say where a
	// choice was made that the documentation leaves open.
	Notes []string `json:"notes"`
}

// PathMatching names how a path matches a request path.
type PathMatching string

const (
	// MatchExact: the path equals the request path.
	MatchExact PathMatching = "exact"
	// MatchElementPrefix: the path is a prefix of the request path element by
	// element (networking/v1 PathTypePrefix: /foo matches /foo/bar, not /foobar).
	MatchElementPrefix PathMatching = "element-prefix"
	// MatchStringPrefix: the path is a prefix of the request path character
	// by character (nginx's `location /foo`, which takes /foobar too).
	MatchStringPrefix PathMatching = "string-prefix"
	// MatchRegexPrefix: the path is a regular expression anchored at the
	// start of the request path only (nginx's `location ~ "^/path"`).
	MatchRegexPrefix PathMatching = "regex-prefix"
	// MatchRegexPrefixCaseInsensitive: the same, ignoring case (`~*`).
	MatchRegexPrefixCaseInsensitive PathMatching = "regex-prefix-case-insensitive"
)

var pathMatchings = []PathMatching{MatchExact, MatchElementPrefix, MatchStringPrefix, MatchRegexPrefix, MatchRegexPrefixCaseInsensitive}

// Effect is what an annotation changes in what an Ingress controller serves,
// in terms package ingress implements. A key without one changes nothing a
// serving table holds (timeouts, buffers, headers, logging).
type Effect struct {
	// Does names the effect: one of the Effect* constants.
	Does string `json:"does"`
	// Default is the value the controller assumes when the annotation is
	// absent, where that matters ("true" for ingress-nginx's ssl-redirect).
	Default string `json:"default,omitempty"`
	// On are the values that switch a switch on (for a boolean, the
	// spellings the controller parses as true).
	On []string `json:"onValues,omitempty"`
	// RequiresTLS: the redirect applies only to a host the Ingress
	// terminates TLS for.
	RequiresTLS bool `json:"requiresTLS,omitempty"`
	// ForwardedProto: the redirect applies only to requests whose
	// X-Forwarded-Proto header is "http" (TLS terminated in front).
	ForwardedProto bool `json:"forwardedProto,omitempty"`
	// StatusCode is a redirect's status code.
	StatusCode int `json:"statusCode,omitempty"`
	// Overrides are older keys of the same redirect switch: the controller
	// reads this key when it is set and one of them only when it is not, so
	// the redirect is one switch, not two (nginx.org/ssl-redirect over
	// ingress.kubernetes.io/ssl-redirect). Without any of the keys set, the
	// older key's default decides.
	Overrides []string `json:"overrides,omitempty"`
	// TLS and GRPC are the values of a backend protocol that speak TLS to
	// the backend, and gRPC (HTTP/2).
	TLS  []string `json:"tls,omitempty"`
	GRPC []string `json:"grpc,omitempty"`
	// HostWide: the effect applies to every path of the host, whatever
	// Ingress defines the path (ingress-nginx's use-regex).
	HostWide bool `json:"hostWide,omitempty"`
	// Modes map a value to how paths match (nginx.org/path-regex).
	Modes map[string]PathMatching `json:"modes,omitempty"`
	// Always and Never are the values of a canary's header or cookie that
	// send a request to the canary, and keep it off the canary; any other
	// value falls through to the next canary rule.
	Always string `json:"always,omitempty"`
	Never  string `json:"never,omitempty"`
}

// The effects package ingress implements.
const (
	// EffectRedirectHTTPS is a switch: HTTP requests are redirected to HTTPS
	// (StatusCode; RequiresTLS, ForwardedProto narrow it).
	EffectRedirectHTTPS = "redirect-https"
	// EffectRedirectCode is the status code of the set's redirects.
	EffectRedirectCode = "redirect-code"
	// EffectBackendProtocol is the protocol spoken to every backend of the
	// Ingress (TLS, GRPC list the values that mean TLS and gRPC).
	EffectBackendProtocol = "backend-protocol"
	// EffectTLSServices and EffectGRPCServices list, comma-separated, the
	// Services spoken to over TLS, and with gRPC.
	EffectTLSServices  = "tls-services"
	EffectGRPCServices = "grpc-services"
	// EffectPassthrough is a switch: TLS connections for the Ingress's hosts
	// go to the backend undecrypted, routed on SNI.
	EffectPassthrough = "passthrough"
	// EffectBackendVerify is a switch: the backend's certificate is verified.
	EffectBackendVerify = "backend-verify"
	// EffectBackendName is the name the backend's certificate is verified
	// against (and the SNI sent, where the controller sends one).
	EffectBackendName = "backend-name"
	// EffectBackendCA names the Secret (namespace/name) with the CA that
	// verifies the backend.
	EffectBackendCA = "backend-ca"
	// EffectCanary is a switch: the Ingress is a canary of another Ingress
	// with the same host and path, not served on its own.
	EffectCanary = "canary"
	// EffectCanaryWeight and EffectCanaryWeightTotal split a canary's
	// requests by weight (Default is the total's default).
	EffectCanaryWeight      = "canary-weight"
	EffectCanaryWeightTotal = "canary-weight-total"
	// EffectCanaryHeader names the header whose value (Always, Never) sends
	// a request to a canary or keeps it off; EffectCanaryHeaderValue is the
	// value that sends it instead, EffectCanaryHeaderPattern a regular
	// expression of such values (ignored beside a value).
	EffectCanaryHeader        = "canary-header"
	EffectCanaryHeaderValue   = "canary-header-value"
	EffectCanaryHeaderPattern = "canary-header-pattern"
	// EffectCanaryCookie names the cookie whose value (Always, Never) sends
	// a request to a canary or keeps it off.
	EffectCanaryCookie = "canary-cookie"
	// EffectRegexPaths is a switch: paths are regular expressions
	// (Controller.RegexPaths; HostWide for every path of the host).
	EffectRegexPaths = "regex-paths"
	// EffectPathRegexMode chooses how paths match by value (Modes).
	EffectPathRegexMode = "path-regex-mode"
	// EffectRewriteTarget rewrites the path sent to the backend; HostWide
	// makes every path of the host a regular expression, as EffectRegexPaths.
	EffectRewriteTarget = "rewrite-target"
	// EffectRewriteServices rewrites the path per Service
	// ("serviceName=NAME rewrite=PATH;...").
	EffectRewriteServices = "rewrite-services"
	// EffectHTTPPorts and EffectHTTPSPorts list, comma-separated, the ports
	// the Ingress's hosts are served on instead of Controller's.
	EffectHTTPPorts  = "http-ports"
	EffectHTTPSPorts = "https-ports"
	// EffectHostAliases lists, comma-separated, more hostnames served like
	// the Ingress's.
	EffectHostAliases = "host-aliases"
)

var effects = []string{EffectRedirectHTTPS, EffectRedirectCode, EffectBackendProtocol, EffectTLSServices, EffectGRPCServices,
	EffectPassthrough, EffectBackendVerify, EffectBackendName, EffectBackendCA, EffectCanary, EffectCanaryWeight,
	EffectCanaryWeightTotal, EffectCanaryHeader, EffectCanaryHeaderValue, EffectCanaryHeaderPattern, EffectCanaryCookie, EffectRegexPaths, EffectPathRegexMode, EffectRewriteTarget,
	EffectRewriteServices, EffectHTTPPorts, EffectHTTPSPorts, EffectHostAliases}

// switches are the effects turned on by a value in On.
var switches = []string{EffectRedirectHTTPS, EffectPassthrough, EffectBackendVerify, EffectCanary, EffectRegexPaths}

func (e *Effect) compile(k *Key) error {
	if !slices.Contains(effects, e.Does) {
		return fmt.Errorf("key %q: unknown effect %q (known: %v)", k.Key, e.Does, effects)
	}
	isSwitch := slices.Contains(switches, e.Does)
	switch {
	case isSwitch && len(e.On) == 0:
		return fmt.Errorf("key %q: effect %s needs the values that switch it on (onValues)", k.Key, e.Does)
	case !isSwitch && len(e.On) > 0:
		return fmt.Errorf("key %q: effect %s is not a switch; onValues does not apply", k.Key, e.Does)
	case (e.RequiresTLS || e.ForwardedProto) && e.Does != EffectRedirectHTTPS:
		return fmt.Errorf("key %q: requiresTLS and forwardedProto apply to %s only", k.Key, EffectRedirectHTTPS)
	case e.Does == EffectRedirectHTTPS && (e.StatusCode < 300 || e.StatusCode > 399):
		return fmt.Errorf("key %q: a redirect needs a 3xx statusCode, not %d", k.Key, e.StatusCode)
	case e.Does != EffectRedirectHTTPS && e.StatusCode != 0:
		return fmt.Errorf("key %q: statusCode applies to %s only", k.Key, EffectRedirectHTTPS)
	case e.Does != EffectRedirectHTTPS && len(e.Overrides) > 0:
		return fmt.Errorf("key %q: overrides applies to %s only", k.Key, EffectRedirectHTTPS)
	case (len(e.TLS) > 0 || len(e.GRPC) > 0) && e.Does != EffectBackendProtocol:
		return fmt.Errorf("key %q: tls and grpc apply to %s only", k.Key, EffectBackendProtocol)
	case len(e.Modes) > 0 && e.Does != EffectPathRegexMode, e.Does == EffectPathRegexMode && len(e.Modes) == 0:
		return fmt.Errorf("key %q: modes go with %s, and only there", k.Key, EffectPathRegexMode)
	case e.HostWide && e.Does != EffectRegexPaths && e.Does != EffectRewriteTarget:
		return fmt.Errorf("key %q: hostWide applies to %s and %s only", k.Key, EffectRegexPaths, EffectRewriteTarget)
	case (e.Does == EffectCanaryHeader || e.Does == EffectCanaryCookie) != (e.Always != "" && e.Never != ""):
		return fmt.Errorf("key %q: always and never go with %s and %s, both, and only there", k.Key, EffectCanaryHeader, EffectCanaryCookie)
	}
	for _, v := range slices.Concat(e.On, e.TLS, e.GRPC) {
		if k.Type == TypeEnum && !slices.Contains(k.Values, v) {
			return fmt.Errorf("key %q: effect value %q is not one of its values %v", k.Key, v, k.Values)
		}
	}
	for v, m := range e.Modes {
		if !slices.Contains(k.Values, v) || !slices.Contains(pathMatchings, m) {
			return fmt.Errorf("key %q: mode %q: %q is not a value of the key, or %q not a path matching %v", k.Key, v, v, m, pathMatchings)
		}
	}
	if (e.Does == EffectCanaryWeight || e.Does == EffectCanaryWeightTotal) && k.Type != TypeInteger || e.Does == EffectRedirectCode && k.Type != TypeInteger && k.Type != TypeEnum {
		return fmt.Errorf("key %q: effect %s needs whole numbers (type integer, or an enum of them for a redirect code)", k.Key, e.Does)
	}
	if e.Default != "" && e.Does == EffectCanaryWeightTotal {
		if _, err := strconv.Atoi(e.Default); err != nil {
			return fmt.Errorf("key %q: default %q is not a whole number", k.Key, e.Default)
		}
	}
	return nil
}

func (c *Controller) compile() error {
	if len(c.Controllers) == 0 {
		return fmt.Errorf("ingress: controllers is empty")
	}
	for _, pt := range []string{"Exact", "Prefix", "ImplementationSpecific"} {
		if !slices.Contains(pathMatchings, c.Paths[pt]) {
			return fmt.Errorf("ingress: paths.%s is %q, want one of %v", pt, c.Paths[pt], pathMatchings)
		}
	}
	if len(c.Paths) != 3 {
		return fmt.Errorf("ingress: paths lists %d path types; want Exact, Prefix and ImplementationSpecific", len(c.Paths))
	}
	if c.RegexPaths != MatchRegexPrefix && c.RegexPaths != MatchRegexPrefixCaseInsensitive {
		return fmt.Errorf("ingress: regexPaths is %q, want %s or %s", c.RegexPaths, MatchRegexPrefix, MatchRegexPrefixCaseInsensitive)
	}
	if c.TLSHosts != "listed" && c.TLSHosts != "listed-or-certificate" {
		return fmt.Errorf("ingress: tlsHosts is %q, want listed or listed-or-certificate", c.TLSHosts)
	}
	if c.HostCollision != "merge" && c.HostCollision != "oldest" {
		return fmt.Errorf("ingress: hostCollision is %q, want merge or oldest", c.HostCollision)
	}
	if c.InvalidAnnotation != "reject-ingress" && c.InvalidAnnotation != "ignore-annotation" {
		return fmt.Errorf("ingress: invalidAnnotation is %q, want reject-ingress or ignore-annotation", c.InvalidAnnotation)
	}
	if len(c.HTTPPorts) == 0 || len(c.HTTPSPorts) == 0 {
		return fmt.Errorf("ingress: httpPorts and httpsPorts need a port each")
	}
	for _, p := range slices.Concat(c.HTTPPorts, c.HTTPSPorts) {
		if p < 1 || p > 65535 {
			return fmt.Errorf("ingress: port %d is out of range", p)
		}
	}
	if len(c.Notes) == 0 {
		return fmt.Errorf("ingress: notes are empty; cite the documentation")
	}
	return nil
}

// Switched reports whether a switch effect is on for an annotation's value,
// or for its default when absent (present is false).
func (e *Effect) Switched(value string, present bool) bool {
	if !present {
		value = e.Default
	}
	return slices.Contains(e.On, value)
}

// IngressControllers are the embedded sets that describe an Ingress
// controller, ordered by file name.
func IngressControllers() []*Set {
	var out []*Set
	v := Default()
	for i := range v.sets {
		if v.sets[i].Ingress != nil {
			out = append(out, &v.sets[i])
		}
	}
	return out
}

// Effects are the set's keys that change what an Ingress controller serves.
func (s *Set) Effects() []*Key {
	var out []*Key
	for i := range s.Keys {
		if s.Keys[i].Effect != nil {
			out = append(out, &s.Keys[i])
		}
	}
	return out
}

// Owns reports whether an annotation key is the set's: under its prefix, or
// one of its keys outside it.
func (s *Set) Owns(key string) bool {
	return hasPrefix(key, s.Prefix) || s.outsideKey(key) != nil
}

func (s *Set) outsideKey(key string) *Key {
	for i := range s.Keys {
		if s.Keys[i].Outside && s.Keys[i].Key == key {
			return &s.Keys[i]
		}
	}
	return nil
}

func hasPrefix(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }
