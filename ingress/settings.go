package ingress

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// settings are what an Ingress's annotations change in what its controller
// serves, read through the effects its controller's set documents.
type settings struct {
	// redirects are the HTTP to HTTPS redirects switched on.
	redirects []redirectSetting
	// redirectCode replaces the redirects' status code when set.
	redirectCode int
	// backendTLS and backendGRPC are the protocol spoken to every backend.
	backendTLS, backendGRPC bool
	// tlsServices and grpcServices are Services spoken to over TLS, or gRPC.
	tlsServices, grpcServices map[string]bool
	passthrough               bool
	// verify, verifyName and caSecret are how the backend's certificate is
	// verified (ingress-nginx's proxy-ssl-*).
	verify             bool
	verifyName         string
	caSecret           string
	canary             bool
	canaryWeight       int
	canaryHasWeight    bool
	canaryWeightTotal  int
	canaryBy           CanaryBy
	regexPaths         bool
	regexHostWide      bool
	pathMode           annotations.PathMatching
	rewriteTarget      string
	rewriteTargetKey   string
	rewriteServices    map[string]string
	httpPorts          []int32
	httpsPorts         []int32
	aliases            []string
	effectKeys         []string // keys with an effect that are set, for reports
	rejectedBy         *annotations.Problem
	invalidIgnoredKeys []string
}

// redirectSetting is one HTTP to HTTPS redirect an annotation switches on.
type redirectSetting struct {
	key            string
	code           int
	requiresTLS    bool
	forwardedProto bool
}

// readSettings applies the effects of a controller's set to an Ingress's
// annotations. problems are the annotations' problems (annotations.Validate):
// a value of the wrong type either rejects the Ingress or is ignored, as the
// controller does (Controller.InvalidAnnotation).
func readSettings(set *annotations.Set, ann map[string]string, problems []annotations.Problem) settings {
	s := settings{canaryWeightTotal: 100}
	invalid := map[string]bool{}
	for i, p := range problems {
		if p.Rule != rules.AnnotationInvalidValue || p.Severity != rules.Error || !set.Owns(p.Key) {
			continue
		}
		invalid[p.Key] = true
		if set.Ingress.InvalidAnnotation == "reject-ingress" && s.rejectedBy == nil {
			s.rejectedBy = &problems[i]
		}
	}
	overridden := overriddenKeys(set, ann)
	for _, k := range set.Effects() {
		e := k.Effect
		if overridden[k.Key] {
			continue
		}
		value, present := ann[k.Key]
		if present && invalid[k.Key] {
			s.invalidIgnoredKeys = append(s.invalidIgnoredKeys, k.Key)
			value, present = "", false
		}
		if present {
			s.effectKeys = append(s.effectKeys, k.Key)
		}
		if k.IgnoreCase {
			value = strings.ToUpper(value)
		}
		switch e.Does {
		case annotations.EffectRedirectHTTPS:
			if e.Switched(value, present) {
				s.redirects = append(s.redirects, redirectSetting{key: k.Key, code: e.StatusCode, requiresTLS: e.RequiresTLS, forwardedProto: e.ForwardedProto})
			}
		case annotations.EffectRedirectCode:
			if n, err := strconv.Atoi(value); present && err == nil {
				s.redirectCode = n
			}
		case annotations.EffectBackendProtocol:
			if !present {
				value = e.Default
			}
			s.backendTLS, s.backendGRPC = slices.Contains(e.TLS, value), slices.Contains(e.GRPC, value)
		case annotations.EffectTLSServices:
			s.tlsServices = serviceList(value)
		case annotations.EffectGRPCServices:
			s.grpcServices = serviceList(value)
		case annotations.EffectPassthrough:
			s.passthrough = e.Switched(value, present)
		case annotations.EffectBackendVerify:
			s.verify = e.Switched(value, present)
		case annotations.EffectBackendName:
			s.verifyName = value
		case annotations.EffectBackendCA:
			s.caSecret = value
		case annotations.EffectCanary:
			s.canary = e.Switched(value, present)
		case annotations.EffectCanaryWeight:
			if n, err := strconv.Atoi(value); present && err == nil {
				s.canaryWeight, s.canaryHasWeight = n, true
			}
		case annotations.EffectCanaryWeightTotal:
			if !present {
				value = e.Default
			}
			if n, err := strconv.Atoi(value); err == nil && n > 0 {
				s.canaryWeightTotal = n
			}
		case annotations.EffectCanaryHeader:
			if present && value != "" {
				s.canaryBy.Header, s.canaryBy.HeaderKey = value, k.Key
				s.canaryBy.HeaderAlways, s.canaryBy.HeaderNever = e.Always, e.Never
			}
		case annotations.EffectCanaryHeaderValue:
			s.canaryBy.HeaderValue, s.canaryBy.HeaderValueKey = value, k.Key
		case annotations.EffectCanaryHeaderPattern:
			s.canaryBy.HeaderPattern = value
		case annotations.EffectCanaryCookie:
			if present && value != "" {
				s.canaryBy.Cookie, s.canaryBy.CookieKey = value, k.Key
				s.canaryBy.CookieAlways, s.canaryBy.CookieNever = e.Always, e.Never
			}
		case annotations.EffectRegexPaths:
			if e.Switched(value, present) {
				s.regexPaths, s.regexHostWide = true, s.regexHostWide || e.HostWide
			}
		case annotations.EffectPathRegexMode:
			if m, ok := e.Modes[value]; present && ok {
				s.pathMode = m
			}
		case annotations.EffectRewriteTarget:
			if present && value != "" {
				s.rewriteTarget, s.rewriteTargetKey = value, k.Key
				s.regexHostWide = s.regexHostWide || e.HostWide
			}
		case annotations.EffectRewriteServices:
			s.rewriteServices = rewriteList(value)
		case annotations.EffectHTTPPorts:
			s.httpPorts = portList(value)
		case annotations.EffectHTTPSPorts:
			s.httpsPorts = portList(value)
		case annotations.EffectHostAliases:
			for _, h := range strings.Split(value, ",") {
				if h = strings.TrimSpace(h); h != "" {
					s.aliases = append(s.aliases, strings.ToLower(h))
				}
			}
		}
	}
	return s
}

// overriddenKeys are the keys of a switch the controller does not read: the
// older keys a set key overrides when it is set (whatever its value), the
// overriding key itself when it is not, so that one default applies.
func overriddenKeys(set *annotations.Set, ann map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, k := range set.Effects() {
		if len(k.Effect.Overrides) == 0 {
			continue
		}
		if _, present := ann[k.Key]; present {
			for _, o := range k.Effect.Overrides {
				out[o] = true
			}
			continue
		}
		out[k.Key] = true
	}
	return out
}

// redirect is the HTTP to HTTPS redirect that applies to a request of a host
// that terminates TLS or not: the first one switched on that applies, with
// the set's redirect code if one is set.
func (s *settings) redirect(hostTLS bool) (redirectSetting, bool) {
	for _, r := range s.redirects {
		if r.requiresTLS && !hostTLS {
			continue
		}
		if s.redirectCode != 0 {
			r.code = s.redirectCode
		}
		return r, true
	}
	return redirectSetting{}, false
}

// serviceList reads "a,b, c" as a set of Service names.
func serviceList(v string) map[string]bool {
	out := map[string]bool{}
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			out[name] = true
		}
	}
	return out
}

// portList reads "8080,9090" as ports; an invalid entry is left out, as the
// controller ignores the declaration it cannot parse.
func portList(v string) []int32 {
	var out []int32
	for _, p := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 1 || n > 65535 {
			return nil
		}
		out = append(out, int32(n))
	}
	return out
}

// rewriteList reads NGINX Ingress Controller's rewrites,
// "serviceName=NAME rewrite=PATH;serviceName=...", into Service -> path.
func rewriteList(v string) map[string]string {
	out := map[string]string{}
	for _, entry := range strings.Split(v, ";") {
		var svc, path string
		for _, f := range strings.Fields(entry) {
			switch k, val, _ := strings.Cut(f, "="); k {
			case "serviceName":
				svc = val
			case "rewrite":
				path = val
			}
		}
		if svc != "" && path != "" {
			out[svc] = path
		}
	}
	return out
}
