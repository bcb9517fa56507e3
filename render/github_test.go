package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
)

func TestGitHubAnnotations(t *testing.T) {
	var buf bytes.Buffer
	if err := ciReport().GitHubAnnotations(&buf); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		`::error file=testdata/examples/shop/routes.yaml,line=20,title=route/Accepted/NoMatchingParent::HTTPRoute/shop/checkout: Gateway infra/edge has no listener named "htps"%0AFix: did you mean sectionName "https"?`,
		`::error file=deploy\routes\tls.yaml,line=7,title=route/ResolvedRefs/RefNotPermitted::TLSRoute/shop/payments: backendRef Service payments/psp is not permitted: no ReferenceGrant, 100%25 sure%0AFix: apply this ReferenceGrant:%0D%0Akind: ReferenceGrant%0Aspec:%0A  from: [a, b]`,
		`::warning file=gw%2C prod%3A1.yaml,line=3,title=listener/OverlappingTLSConfig/OverlappingHostnames::Gateway/infra/edge: hostname *.example.com overlaps a.example.com, b.example.com%0AFix: use distinct certificates`,
		`::warning title=route/NoParentRefs::GRPCRoute/apps/orphan: the route names no parentRefs, so it attaches to nothing%0AFix: add spec.parentRefs`,
		`::notice title=reference/External::Gateway/infra/edge: certificate Secret edge-cert is declared external and was not verified`,
		`::warning title=load/Unreadable::Secret/apps/: could not read Secret: forbidden%0AFix: grant get/list`,
		`::error file=no-line.yaml,title=backendtlspolicy/Accepted/Invalid::BackendTLSPolicy/apps/tls: validation sets neither caCertificateRefs nor wellKnownCACertificates`,
	}, "\n") + "\n"
	if got := buf.String(); got != want {
		t.Errorf("annotations:\n%s\nwant:\n%s", got, want)
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Errorf("first difference, line %d:\n got %q\nwant %q", i+1, gl[i], wl[i])
				break
			}
		}
	}
	// One line per finding and nothing else.
	if n := strings.Count(buf.String(), "\n"); n != len(ciReport().Findings) {
		t.Errorf("%d lines for %d findings", n, len(ciReport().Findings))
	}
}

func TestGitHubEscaping(t *testing.T) {
	for in, want := range map[string]string{
		"a%b":       "a%25b",
		"a\r\nb":    "a%0D%0Ab",
		"%0A":       "%250A",
		"x: y, z":   "x: y, z",
		"plain/txt": "plain/txt",
		"a\x1b[2Jb": `a\x1b[2Jb`,
	} {
		if got := escapeGitHubData(in); got != want {
			t.Errorf("data %q: %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"a%b":          "a%25b",
		"a\r\nb\r":     "a%0D%0Ab\\r", // a line's own CRLF stays; a lone CR is shown
		"a\x1b[31m":    `a\x1b[31m`,
		"x: y, z":      "x%3A y%2C z",
		"C:\\dir,1.ya": "C%3A\\dir%2C1.ya",
	} {
		if got := escapeGitHubProperty(in); got != want {
			t.Errorf("property %q: %q, want %q", in, got, want)
		}
	}
}

func TestGitHubAnnotationsEmpty(t *testing.T) {
	var buf bytes.Buffer
	r := Report{Findings: []analyze.Finding{}}
	if err := r.GitHubAnnotations(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("clean report wrote %q", buf.String())
	}
}

// The CRDs the objects were held to open the output as a notice without a
// file, which GitHub shows in the run's summary and which fails nothing.
func TestGitHubAnnotationsAdmission(t *testing.T) {
	var buf bytes.Buffer
	r := Report{Findings: []analyze.Finding{}, Admission: &Admission{Enabled: true, CRDs: "Gateway API v1.7.0 standard channel, from crds/100%", Refused: 2}}
	if err := r.GitHubAnnotations(&buf); err != nil {
		t.Fatal(err)
	}
	want := "::notice title=admission::Gateway API v1.7.0 standard channel, from crds/100%25; 2 objects refused\n"
	if buf.String() != want {
		t.Errorf("got %q\nwant %q", buf.String(), want)
	}
}
