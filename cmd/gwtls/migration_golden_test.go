package gwtls

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
)

// converterVerdict is what comparing one of the converter's pairs must find:
// the migration/* rules its findings are of, whether every host and path is
// served the same way, and why, from both specifications.
type converterVerdict struct {
	rules []rules.ID
	same  bool
	why   string
}

// converterVerdicts are the verdicts on the pairs of ingress2gateway's own
// fixtures (testdata/ingress2gateway, provider nginx: NGINX Ingress
// Controller's nginx.org/* annotations), worked out from the NGINX Ingress
// Controller documentation and the Gateway API specification. A pair whose
// verdict is not same is one where the converter's output does not serve what
// the Ingress served.
var converterVerdicts = map[string]converterVerdict{
	"nginx-grpc-services": {same: true,
		why: "nginx.org/grpc-services makes NGINX speak gRPC to grpc-svc; the GRPCRoute on the HTTP listener forwards the same method to the same Service and port (GRPCRoute: GRPCRouteMatch.Method). " +
			"NGINX Ingress Controller's documentation also requires TLS termination and http2 for a gRPC Ingress, which this one lacks; the comparison does not model that requirement, so the verdict is about routing: clients that reached the service reach it the same way."},
	"nginx-hsts": {rules: []rules.ID{rules.MigrationRedirectLost.ID},
		why: "NGINX Ingress Controller redirects plain HTTP to HTTPS for every host in spec.tls (ingress.kubernetes.io/ssl-redirect defaults to true); the converter attaches the one HTTPRoute, without a RequestRedirect filter, to the HTTP listener too, so http://hsts.example.com/ reaches secure-app over plain HTTP (HTTPRequestRedirectFilter is how Gateway API redirects). HSTS headers are outside the comparison."},
	"nginx-listen-ports": {rules: []rules.ID{rules.MigrationPathMatchNarrowed.ID}, same: true,
		why: "Listeners on 8080, 9090 (HTTP) and 8443 (HTTPS, custom-ports-tls) serve the host and path as nginx.org/listen-ports and listen-ports-ssl did; only NGINX's string-prefix location (/app also takes /app-x) is wider than PathPrefix's element-wise match (Ingress: PathTypePrefix; HTTPPathMatch PathPrefix), a note."},
	"nginx-path-regex": {rules: []rules.ID{rules.MigrationIngressNotServed.ID},
		why: `The fixture sets nginx.org/path-regex: "true", a value NGINX Ingress Controller does not accept (case_sensitive, case_insensitive or exact), so the controller rejects the Ingress and it serves nothing to compare; the converter translated it anyway.`},
	"nginx-proxy-hide-headers": {rules: []rules.ID{rules.MigrationPathMatchNarrowed.ID}, same: true,
		why: "Same host, path, Service and port; header handling is outside the comparison; the string-prefix note as in nginx-listen-ports."},
	"nginx-proxy-set-headers": {rules: []rules.ID{rules.MigrationPathMatchNarrowed.ID}, same: true,
		why: "Same host, path, Service and port; header handling is outside the comparison; the string-prefix note as in nginx-listen-ports."},
	"nginx-rewrite": {rules: []rules.ID{rules.MigrationPathMatchNarrowed.ID}, same: true,
		why: "nginx.org/rewrites replaces /app with /api/v1 for web-service; the converter's URLRewrite ReplacePrefixMatch /api/v1 on PathPrefix /app sends the backend the same path (HTTPPathModifier ReplacePrefixMatch); the string-prefix note as in nginx-listen-ports."},
	"nginx-ssl-redirect": {rules: []rules.ID{rules.MigrationPathNotServed.ID, rules.MigrationRedirectChanged.ID},
		why: "The Ingress has no spec.tls: NGINX Ingress Controller serves the host on port 80 only, and nginx.org/redirect-to-https redirects only requests whose X-Forwarded-Proto is http (TLS terminated in front). The converter redirects every HTTP request (RequestRedirect in a rule without matches, which takes every request and precedes the PathPrefix / rule) to an HTTPS listener whose Secret secure-example-com-tls the Ingress never named and to which no route is attached: the redirected request gets no answer (Gateway API: Listener.TLS.CertificateRefs, HTTPRoute parentRefs sectionName)."},
	"nginx-ssl-services": {rules: []rules.ID{rules.MigrationBackendTLSLost.ID, rules.MigrationPathMatchNarrowed.ID},
		why: "nginx.org/ssl-services makes NGINX speak TLS to secure-app (without verifying its certificate); the converter's BackendTLSPolicy sets validation.hostname \"\" and no CA, which GEP-1897 does not accept (validation must set caCertificateRefs or wellKnownCACertificates, and a hostname): the API server refuses it (schema/Invalid: the CRD's minLength on hostname and its CEL rule on the CA), so kubectl apply fails, and without the policy the Gateway speaks plain text to a TLS port. The string-prefix note as in nginx-listen-ports."},
}

// TestConverterPairs compares every pair of the official converter's
// fixtures (testdata/ingress2gateway: the Ingress in, the Gateway API objects
// it produced out) as `diff --base INPUT -f OUTPUT` would, both sides with the
// Services, Secrets and GatewayClass the pairs leave out (cluster.yaml), and
// checks each verdict against converterVerdicts. Every output format is a
// golden file, testdata/ingress2gateway/verdicts/NAME.golden; regenerate with
// go test ./cmd/gwtls -run ConverterPairs -update, then review the diff.
//
// The converter's golden files open with the warnings it printed, in a box
// drawn with U+2500 characters, which is not YAML; the test drops those lines,
// as the converter's own test compares the objects only.
func TestConverterPairs(t *testing.T) {
	root, err := filepath.Abs("../../testdata/ingress2gateway")
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := filepath.Glob(filepath.Join(root, "nginx/input/*.yaml"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no pairs in %s (%v)", root, err)
	}
	dir := t.TempDir()
	for _, sub := range []string{"nginx/input", "nginx/output"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, filepath.Join(root, "cluster.yaml"), filepath.Join(dir, "cluster.yaml"), nil)
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".yaml")
		copyFile(t, in, filepath.Join(dir, "nginx/input", name+".yaml"), nil)
		copyFile(t, filepath.Join(root, "nginx/output", name+".yaml"), filepath.Join(dir, "nginx/output", name+".yaml"), dropConverterWarnings)
	}
	t.Chdir(dir) // the outputs name the pairs' files as the repository does
	seen := map[string]bool{}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".yaml")
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			want, ok := converterVerdicts[name]
			if !ok {
				t.Fatalf("no verdict for %s: work it out from both specifications and add it to converterVerdicts", name)
			}
			args := []string{"diff", "--base", "nginx/input/" + name + ".yaml", "--base", "cluster.yaml",
				"-f", "nginx/output/" + name + ".yaml", "-f", "cluster.yaml", "--now", goldenNow, "--color", "never"}
			var golden strings.Builder
			for _, format := range []string{"table", "json", "markdown", "github"} {
				stdout, stderr, code := run(t, "", append(args, "-o", format)...)
				if code == ExitError {
					t.Fatalf("diff -o %s: exit %d: %s", format, code, stderr)
				}
				fmt.Fprintf(&golden, "$ diff --base nginx/input/%[1]s.yaml --base cluster.yaml -f nginx/output/%[1]s.yaml -f cluster.yaml -o %[2]s\n%[3]s%[4]s--- exit %[5]d\n",
					name, format, stderr, stdout, code)
				if format == "json" {
					checkConverterVerdict(t, stdout, want)
				}
			}
			compareGolden(t, filepath.Join(root, "verdicts", name+".golden"), golden.String())
		})
	}
	for name := range converterVerdicts {
		if !seen[name] {
			t.Errorf("converterVerdicts has %s, which is not a pair", name)
		}
	}
}

// checkConverterVerdict checks a diff's JSON against the verdict worked out
// for its pair.
func checkConverterVerdict(t *testing.T, out string, want converterVerdict) {
	t.Helper()
	var report struct {
		Migration *struct {
			Same    bool   `json:"same"`
			Verdict string `json:"verdict"`
		} `json:"migration"`
		Findings []struct {
			Finding struct {
				Rule string `json:"rule"`
			} `json:"finding"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("diff -o json: %v", err)
	}
	if report.Migration == nil {
		t.Fatal("diff -o json: no migration: the pair was not compared as an Ingress migration")
	}
	var got []rules.ID
	for _, f := range report.Findings {
		if strings.HasPrefix(f.Finding.Rule, "migration/") {
			got = append(got, rules.ID(f.Finding.Rule))
		}
	}
	if got, wantRules := set(got), set(want.rules); !slices.Equal(got, wantRules) || report.Migration.Same != want.same {
		t.Errorf("verdict %q, rules %v; want same=%v, rules %v, because:\n%s", report.Migration.Verdict, got, want.same, wantRules, want.why)
	}
}

// dropConverterWarnings drops the lines of the warning box the converter
// printed into its golden files.
func dropConverterWarnings(data []byte) []byte {
	var out []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(line, "┌") && !strings.HasPrefix(line, "│") && !strings.HasPrefix(line, "└") {
			out = append(out, line)
		}
	}
	return []byte(strings.Join(out, ""))
}

func copyFile(t *testing.T, from, to string, edit func([]byte) []byte) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		data = edit(data)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
