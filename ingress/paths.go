package ingress

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/annotations"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// nginxLocation is a location as an nginx-based controller renders a path:
// an exact location (`location = /p`), a prefix location (`location /p`,
// characters) or a regular expression anchored at the path's start
// (`location ~ "^/p"`, `~*` ignoring case).
type nginxLocation struct {
	loc   *Location
	kind  int
	value string
	re    *regexp.Regexp
}

const (
	exactLocation = iota
	prefixLocation
	regexLocation
)

// rendered are the nginx locations of a path. An element-wise Prefix path is
// rendered as ingress-nginx does it, an exact location for the path and a
// prefix location for the path and "/" (networking/v1 PathTypePrefix: /foo
// matches /foo and /foo/bar, not /foobar). A regular expression that does not
// compile as RE2 matches nothing: Kubernetes' Ingress validation and
// ingress-nginx accept RE2 paths only ("Ingress Path Matching").
func rendered(l *Location) []nginxLocation {
	switch l.Match {
	case annotations.MatchExact:
		return []nginxLocation{{l, exactLocation, l.Path, nil}}
	case annotations.MatchStringPrefix:
		return []nginxLocation{{l, prefixLocation, l.Path, nil}}
	case annotations.MatchRegexPrefix, annotations.MatchRegexPrefixCaseInsensitive:
		flags := ""
		if l.Match == annotations.MatchRegexPrefixCaseInsensitive {
			flags = "(?i)"
		}
		re, err := regexp.Compile(flags + "^(?:" + l.Path + ")")
		if err != nil {
			return nil
		}
		return []nginxLocation{{l, regexLocation, l.Path, re}}
	}
	if l.Path == "/" || strings.HasSuffix(l.Path, "/") {
		return []nginxLocation{{l, exactLocation, l.Path, nil}, {l, prefixLocation, l.Path, nil}}
	}
	return []nginxLocation{{l, exactLocation, l.Path, nil}, {l, prefixLocation, l.Path + "/", nil}}
}

// locationFor is the location that takes a request path, as nginx chooses
// among a server's locations (ngx_http_core_module "location"): an exact
// location that equals the path; else the regular expressions in order, the
// first that matches; else the longest prefix location. ingress-nginx writes
// regular expression locations longest path first ("Ingress Path Matching >
// Path Priority"); they are tried in that order here for every controller.
func (s *Server) locationFor(path string) *Location {
	var regexes []nginxLocation
	var longest *nginxLocation
	for _, l := range s.Locations {
		for _, n := range rendered(l) {
			switch n.kind {
			case exactLocation:
				if n.value == path {
					return n.loc
				}
			case prefixLocation:
				if strings.HasPrefix(path, n.value) && (longest == nil || len(n.value) > len(longest.value)) {
					longest = &n
				}
			case regexLocation:
				regexes = append(regexes, n)
			}
		}
	}
	slices.SortStableFunc(regexes, func(a, b nginxLocation) int { return len(b.value) - len(a.value) })
	for _, n := range regexes {
		if n.re.MatchString(path) {
			return n.loc
		}
	}
	if longest != nil {
		return longest.loc
	}
	return nil
}

// Sample is a request path that exercises a location, and whether the
// Ingress specification says the path takes it (Spec) or only the
// controller's way of matching does (a string prefix's /foobar for /foo, a
// regular expression's path beneath the matched one).
type Sample struct {
	Path string
	Spec bool
}

// sampleName is the path element samples add beneath a path.
const sampleName = "gwtls-sample"

// Samples are the request paths that exercise a location: the path itself (a
// path its regular expression matches), one beneath it when it takes paths
// beneath it, and one that only extends its last element when the
// controller matches by characters. A gRPC backend is asked only what a
// gRPC client sends: /package.Service/Method.
func (l *Location) Samples() []Sample {
	var out []Sample
	add := func(p string, spec bool) {
		if p != "" && !slices.ContainsFunc(out, func(s Sample) bool { return s.Path == p }) {
			out = append(out, Sample{p, spec})
		}
	}
	switch l.Match {
	case annotations.MatchExact:
		add(l.Path, true)
	case annotations.MatchElementPrefix:
		add(l.Path, true)
		add(beneath(l.Path), true)
	case annotations.MatchStringPrefix:
		add(l.Path, true)
		add(beneath(l.Path), true)
		if !strings.HasSuffix(l.Path, "/") {
			add(l.Path+"-"+sampleName, false)
		}
	default:
		re := rendered(l)
		if len(re) == 0 {
			return nil
		}
		ex := regexExample(l.Path)
		if re[0].re.MatchString(ex) {
			add(ex, true)
		}
		if b := beneath(ex); re[0].re.MatchString(b) {
			add(b, false)
		}
	}
	if l.Backend.GRPC {
		// A gRPC client calls /package.Service/Method: what a path matches
		// beyond that is no request one sends.
		out = slices.DeleteFunc(out, func(s Sample) bool { return !s.Spec })
		return grpcSamples(out)
	}
	return out
}

// grpcSamples keep the samples a gRPC client can send, /service/method; a
// location above every method (/, /package.Service) is asked for one method
// beneath it.
func grpcSamples(samples []Sample) []Sample {
	var out []Sample
	for _, s := range samples {
		switch n := strings.Count(strings.Trim(s.Path, "/"), "/"); {
		case s.Path == "/":
			out = append(out, Sample{"/gwtls.Sample/Call", s.Spec})
		case n == 0 && !strings.HasSuffix(s.Path, sampleName):
			out = append(out, Sample{strings.TrimSuffix(s.Path, "/") + "/Call", s.Spec})
		case n == 1 && !strings.HasSuffix(s.Path, "/"+sampleName):
			out = append(out, s)
		}
	}
	return out
}

// beneath is a path one element below p.
func beneath(p string) string {
	if strings.HasSuffix(p, "/") {
		return p + sampleName
	}
	return p + "/" + sampleName
}

// regexExample is a short path a regular expression matches from its start:
// literals as written, a class's first character, the fewest repetitions, an
// alternation's first branch. It is a sample for a comparison, not a
// generator: a path it cannot satisfy (a lookaround, a back-reference) is
// caught by the caller matching the sample.
func regexExample(expr string) string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return expr
	}
	var b strings.Builder
	writeExample(&b, re.Simplify())
	return b.String()
}

func writeExample(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) > 0 {
			r := re.Rune[0]
			// Prefer a letter or digit the class holds over its first rune.
			for i := 0; i+1 < len(re.Rune); i += 2 {
				for _, c := range []rune{'a', 'A', '0'} {
					if re.Rune[i] <= c && c <= re.Rune[i+1] {
						r = c
					}
				}
			}
			b.WriteRune(r)
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
	case syntax.OpCapture, syntax.OpPlus:
		writeExample(b, re.Sub[0])
	case syntax.OpRepeat:
		for i := 0; i < re.Min; i++ {
			writeExample(b, re.Sub[0])
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			writeExample(b, sub)
		}
	case syntax.OpAlternate:
		writeExample(b, re.Sub[0])
	}
}

// PathMatchFor is the Gateway API path match that means what a location
// means, for a fix: an Exact path, a PathPrefix, or the regular expression.
func PathMatchFor(l *Location) serving.PathMatch {
	switch l.Match {
	case annotations.MatchExact:
		return serving.PathMatch{Type: gwv1.PathMatchExact, Value: l.Path}
	case annotations.MatchElementPrefix, annotations.MatchStringPrefix:
		return serving.PathMatch{Type: gwv1.PathMatchPathPrefix, Value: l.Path}
	}
	return serving.PathMatch{Type: gwv1.PathMatchRegularExpression, Value: l.Path}
}

// UpstreamPath is the path the backend receives for a request path the
// location takes. NGINX Ingress Controller's rewrites put the rewrite in
// proxy_pass, which replaces the location's path with it ("/app" rewritten
// to "/api" sends "/app/x" as "/api/x"); a rewrite-target is nginx's rewrite
// directive with the location's path as its regular expression, which
// replaces the whole path with the target, $1... its captures.
func (l *Location) UpstreamPath(path string) string {
	switch {
	case l.Rewrite == "":
		return path
	case l.RewriteKey == "nginx.org/rewrites":
		return l.Rewrite + strings.TrimPrefix(path, strings.TrimSuffix(l.Path, "/"))
	}
	flags := ""
	if l.Match == annotations.MatchRegexPrefixCaseInsensitive {
		flags = "(?i)"
	}
	re, err := regexp.Compile(flags + "^(?:" + l.Path + ")")
	if err != nil {
		return path
	}
	idx := re.FindStringSubmatchIndex(path)
	if idx == nil {
		return path
	}
	// nginx's $1 is Go's ${1}: a digit after it is not part of the name.
	tmpl := regexp.MustCompile(`\$(\d)`).ReplaceAllString(l.Rewrite, "$${$1}")
	return string(re.ExpandString(nil, tmpl, path, idx))
}
