package triage_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/config"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/triage"
)

// analyzed runs the engine on a manifest.
func analyzed(t *testing.T, manifest string) *analyze.Result {
	t.Helper()
	m, err := load.Files(load.FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(manifest), DefaultNamespace: "default"})
	if err != nil {
		t.Fatal(err)
	}
	return analyze.Analyze(m, analyze.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
}

// routes is two routes without parentRefs (route/NoParentRefs on each) and
// one whose backend does not exist; ANNOTATION is the first route's
// gwtls.kubectl.dev/ignore value.
const routes = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: a
  namespace: apps
  annotations:
    gwtls.kubectl.dev/ignore: ANNOTATION
spec:
  hostnames: [a.example.com]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: b
  namespace: apps
spec:
  hostnames: [b.example.com]
`

func withIgnore(value string) string {
	return strings.Replace(routes, "ANNOTATION", strings.ReplaceAll(value, "\n", "\\n"), 1)
}

// summary is "RULE OBJECT" per finding, and per suppressed finding
// "RULE OBJECT (suppressed: pattern: reason)".
func summary(res *analyze.Result) []string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, string(f.Rule.ID)+" "+f.Object.Name+" "+f.Severity.String())
	}
	for _, f := range res.Suppressed {
		out = append(out, string(f.Rule.ID)+" "+f.Object.Name+" (suppressed: "+f.Suppression.Rule+": "+f.Suppression.Justification+")")
	}
	return out
}

func TestSuppressions(t *testing.T) {
	for _, tc := range []struct {
		name, annotation string
		want             []string
	}{
		{"an ID with a reason suppresses that rule on that object only",
			`"route/NoParentRefs: attached by the platform team's Gateway"`,
			[]string{"route/NoParentRefs b warning", "route/NoParentRefs a (suppressed: route/NoParentRefs: attached by the platform team's Gateway)"}},
		{"a glob",
			`"route/*: not attached yet"`,
			[]string{"route/NoParentRefs b warning", "route/NoParentRefs a (suppressed: route/*: not attached yet)"}},
		{"the reason is everything after the first colon, commas and colons included",
			`"route/NoParentRefs: migration, phase 2: until 2027-01"`,
			[]string{"route/NoParentRefs b warning", "route/NoParentRefs a (suppressed: route/NoParentRefs: migration, phase 2: until 2027-01)"}},
		{"one entry per line; blank lines are skipped; an entry that matches nothing is unused",
			"\"\\ncertificate/Expired: renewed tonight\\n\\nroute/NoParentRefs: not attached yet\\n\"",
			[]string{"suppression/Unused a warning", "route/NoParentRefs b warning", "route/NoParentRefs a (suppressed: route/NoParentRefs: not attached yet)"}},
		{"an entry without a reason suppresses nothing",
			`"route/NoParentRefs"`,
			[]string{"route/NoParentRefs a warning", "suppression/MissingReason a error", "route/NoParentRefs b warning"}},
		{"an empty reason is no reason",
			`"route/NoParentRefs:   "`,
			[]string{"route/NoParentRefs a warning", "suppression/MissingReason a error", "route/NoParentRefs b warning"}},
		{"a misspelled rule suppresses nothing",
			`"route/NoParentRef: not attached yet"`,
			[]string{"route/NoParentRefs a warning", "suppression/UnknownRule a error", "route/NoParentRefs b warning"}},
		{"an entry with no rule",
			`": not attached yet"`,
			[]string{"route/NoParentRefs a warning", "suppression/UnknownRule a error", "route/NoParentRefs b warning"}},
		{"the first matching entry suppresses; a later one for the same finding is unused",
			`"route/*: first\nroute/NoParentRefs: second"`,
			[]string{"suppression/Unused a warning", "route/NoParentRefs b warning", "route/NoParentRefs a (suppressed: route/*: first)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := analyzed(t, withIgnore(tc.annotation))
			triage.Apply(res, nil)
			if got := summary(res); !slices.Equal(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// A finding names the object it is about: a certificate finding names the
// Secret, so the Secret carries its suppression, not the Gateway.
func TestSuppressionOnTheObjectTheFindingNames(t *testing.T) {
	manifest := `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: infra
  annotations:
    gwtls.kubectl.dev/ignore: "reference/External: the Secret comes from cert-manager"
spec:
  gatewayClassName: gwtls
  listeners:
  - name: https
    port: 443
    protocol: HTTPS
    hostname: app.example.com
    tls:
      certificateRefs:
      - name: app-tls
---
apiVersion: v1
kind: Secret
metadata:
  name: app-tls
  namespace: infra
  annotations:
    gwtls.kubectl.dev/ignore: "listener/*: on the wrong object"
type: kubernetes.io/tls
data:
  tls.crt: bm90IGEgY2VydGlmaWNhdGU=
  tls.key: bm90IGEga2V5
`
	res := analyzed(t, manifest)
	triage.Apply(res, nil)
	got := summary(res)
	for _, want := range []string{"listener/ResolvedRefs/InvalidCertificateRef gw error", "suppression/Unused gw warning", "suppression/Unused app-tls warning"} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %q in %q", want, got)
		}
	}
}

func TestConfiguration(t *testing.T) {
	cfg, err := config.Parse(".gwtls.yaml", []byte(`rules:
  route/*: info
  route/ResolvedRefs/*: off
  suppression/Unused: error
`))
	if err != nil {
		t.Fatal(err)
	}
	res := analyzed(t, withIgnore(`"certificate/Expired: renewed tonight\nroute/ResolvedRefs/BackendNotFound: off anyway"`))
	triage.Apply(res, cfg)
	// The severity of route/* is info; suppression/Unused is raised to an
	// error; the entry for a rule that is off is not reported unused.
	want := []string{"route/NoParentRefs a info", "suppression/Unused a error", "route/NoParentRefs b info"}
	if got := summary(res); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if n := res.CountAtOrAbove(rules.Error); n != 1 {
		t.Errorf("%d findings fail --fail-on error, want 1", n)
	}
}
