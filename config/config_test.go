package config_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/config"
	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

func TestParse(t *testing.T) {
	c, err := config.Parse("team/.gwtls.yaml", []byte(`apiVersion: gwtls.kubectl.dev/v1
kind: Config
rules:
  certificate/*: warning
  annotation/no-effect: off
external: [Secret, Service/shop/legacy]
supportedFeatures:
- HTTPRoute
- TLSRoute
controller: example.com/gateway-controller
warnExpiry: 336h
failOn: warning
baseline: gwtls-baseline.json
`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.External, []string{"Secret", "Service/shop/legacy"}) || !slices.Equal(c.SupportedFeatures, []string{"HTTPRoute", "TLSRoute"}) ||
		c.Controller != "example.com/gateway-controller" || c.WarnExpiry != 336*time.Hour || c.FailOn != rules.Warning ||
		c.Baseline != filepath.Join("team", "gwtls-baseline.json") {
		t.Errorf("parsed %+v", c)
	}
	for _, key := range config.Keys() {
		if !c.Set(key) {
			t.Errorf("key %s is in the file but Set says it is not", key)
		}
	}
	if len(c.Rules) != 2 || c.Rules[0].Pattern != "certificate/*" || c.Rules[0].Line != 4 || *c.Rules[0].Severity != rules.Warning || !c.Rules[1].Off {
		t.Errorf("rules %+v", c.Rules)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, doc := range []string{"", "# nothing yet\n", "---\n"} {
		c, err := config.Parse(".gwtls.yaml", []byte(doc))
		if err != nil || len(c.Rules) != 0 || c.Set("failOn") {
			t.Errorf("Parse(%q) = %+v, %v; want an empty configuration", doc, c, err)
		}
	}
}

// Every mistake names the file and line, and the closest valid name when one
// is close.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"an unknown key, with the closest", "failon: warning\n", `.gwtls.yaml:1: unknown key "failon" (did you mean "failOn"?)`},
		{"an unknown key far from any", "colour: never\n", `.gwtls.yaml:1: unknown key "colour"`},
		{"a key set twice", "controller: a\ncontroller: b\n", `.gwtls.yaml:2: key "controller" is set twice`},
		{"an unknown rule ID", "rules:\n  certificate/WeakKeys: off\n", `.gwtls.yaml:2: rules: no rule matches "certificate/WeakKeys" (did you mean certificate/WeakKey?)`},
		{"an ID in the wrong case", "rules:\n  Certificate/weakkey: off\n", `(did you mean certificate/WeakKey?)`},
		{"a glob matching nothing", "rules:\n  certficate/*: off\n", `.gwtls.yaml:2: rules: no rule matches "certficate/*" (did you mean certificate/ChainExpired?)`},
		{"a rule value that is not one", "rules:\n  route/*: warn\n", `.gwtls.yaml:2: rules: route/*: "warn": want one of off, on, error, warning, info (did you mean "warning"?)`},
		{"a rule value that is a list", "rules:\n  route/*: [off]\n", `.gwtls.yaml:2: rules: route/*: want one of off, on`},
		{"rules as a list", "rules:\n- route/*\n", `.gwtls.yaml:2: rules: want a mapping`},
		{"external not a list", "external: Secret\n", `.gwtls.yaml:1: want a list of strings`},
		{"a malformed external", "external:\n- Secret/infra\n", `.gwtls.yaml:2: external: "Secret/infra": want KIND`},
		{"a duration without a unit", "warnExpiry: 30\n", `.gwtls.yaml:1: warnExpiry: "30": want a duration`},
		{"days are not a Go duration", "warnExpiry: 30d\n", `warnExpiry: "30d"`},
		{"a failOn that is not a severity", "failOn: errors\n", `.gwtls.yaml:1: failOn: "errors": want error, warning, info or none (did you mean "error"?)`},
		{"another apiVersion", "apiVersion: v2\n", `.gwtls.yaml:1: "v2": want "gwtls.kubectl.dev/v1"`},
		{"not a mapping", "- rules\n", `.gwtls.yaml:1: want a mapping of keys`},
		{"malformed YAML", "rules: [\n", `.gwtls.yaml: `},
	} {
		_, err := config.Parse(".gwtls.yaml", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Parse(%q) = %v; want an error containing %q", tc.name, tc.doc, err, tc.want)
		}
	}
}

// The most specific entry decides, whatever the order of the file.
func TestRulePrecedence(t *testing.T) {
	c, err := config.Parse(".gwtls.yaml", []byte(`rules:
  certificate/Expired: error
  "*": off
  certificate/*: warning
  certificate/Expire*: info
  route/*: off
  "*/Accepted/*": on
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		rule *rules.Rule
		off  bool
		sev  *rules.Severity
		by   string
	}{
		{"an ID beats every glob", rules.CertificateExpired, false, ptr(rules.Error), "certificate/Expired"},
		{"a longer glob beats a shorter", rules.CertificateExpiresSoon, false, ptr(rules.Info), "certificate/Expire*"},
		{"a family glob beats everything", rules.CertificateWeakKey, false, ptr(rules.Warning), "certificate/*"},
		{"everything off", rules.OCGMeshedRoute, true, nil, "*"},
		{"a glob with more characters beats a family glob", rules.RouteAcceptedNoMatchingParent, false, nil, "*/Accepted/*"},
		{"a family off", rules.RouteNoParentRefs, true, nil, "route/*"},
	} {
		got := c.Rule(tc.rule)
		if got.Off != tc.off || (got.Severity == nil) != (tc.sev == nil) || (got.Severity != nil && *got.Severity != *tc.sev) || got.By == nil || got.By.Pattern != tc.by {
			t.Errorf("%s: Rule(%s) = %+v (by %+v); want off %v, severity %v, by %s", tc.name, tc.rule.ID, got, got.By, tc.off, tc.sev, tc.by)
		}
	}
	var none *config.Config
	if got := none.Rule(rules.CertificateExpired); got.Off || got.Severity != nil {
		t.Errorf("no configuration: %+v", got)
	}
}

func ptr[T any](v T) *T { return &v }

func TestFind(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "repo", "deploy", "prod")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := config.Find(deep); err != nil || (got != "" && strings.HasPrefix(got, root)) {
		t.Fatalf("Find with no file under %s = %q, %v", root, got, err)
	}
	repo := filepath.Join(root, "repo", config.FileName)
	if err := os.WriteFile(repo, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := config.Find(deep); err != nil || got != repo {
		t.Errorf("Find from a subfolder = %q, %v; want %s", got, err, repo)
	}
	// The nearest file wins: a folder can have its own.
	near := filepath.Join(root, "repo", "deploy", config.FileName)
	if err := os.WriteFile(near, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _ := config.Find(deep); got != near {
		t.Errorf("Find = %q; want the nearest, %s", got, near)
	}
	// A folder of that name is not a configuration file.
	if err := os.Mkdir(filepath.Join(deep, config.FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := config.Find(deep); got != near {
		t.Errorf("Find = %q; a folder named %s is not a file", got, config.FileName)
	}
}
