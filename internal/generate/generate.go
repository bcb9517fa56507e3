// Package generate writes large, realistic Gateway API configurations for
// benchmarks and scale tests (docs/performance.md): Gateways with a mix of HTTP, HTTPS,
// TLS/Passthrough, TLS/Terminate and TCP listeners, a few ListenerSets, routes of
// every kind spread across namespaces, ReferenceGrants, Services, Secrets with real
// certificates and BackendTLSPolicies with CA ConfigMaps.
//
// The YAML's structure is a function of Config alone (the seed included); only the
// certificate and key bytes differ between runs, as keys are generated afresh.
package generate

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/testcert"
	"github.com/kubectl-gwtls/kubectl-gwtls/load"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Config sizes a configuration.
type Config struct {
	// Seed makes every choice; the same Config writes the same YAML structure.
	Seed int64
	// Gateways, ListenersPerGateway and Routes size the configuration.
	Gateways, ListenersPerGateway, Routes int
	// Certificates is the number of distinct keys (default 200) the certificates
	// (one per Gateway, a few shared) reuse.
	Certificates int
	// AppNamespaces is where routes live (default Routes/100, at least 4).
	AppNamespaces int
}

// Size is a named preset: one of the benchmark sizes of docs/performance.md.
type Size struct {
	Name   string
	Config Config
}

// Sizes are 1k, 10k and 100k routes; 100 routes per Gateway of 20 listeners at
// every size, so that the ratio of objects stays the same and growth is comparable.
var Sizes = []Size{
	{"1k", Config{Seed: 1, Gateways: 10, ListenersPerGateway: 20, Routes: 1000}},
	{"10k", Config{Seed: 1, Gateways: 100, ListenersPerGateway: 20, Routes: 10000}},
	{"100k", Config{Seed: 1, Gateways: 1000, ListenersPerGateway: 20, Routes: 100000}},
}

// Scaled returns a Config of n routes with the presets' ratios (100 routes per
// Gateway of 20 listeners).
func Scaled(seed int64, routes int) Config {
	return Config{Seed: seed, Gateways: max(1, routes/100), ListenersPerGateway: 20, Routes: routes}
}

func (c *Config) defaults() error {
	if c.Gateways < 1 || c.ListenersPerGateway < 1 || c.Routes < 0 {
		return fmt.Errorf("generate: need at least one Gateway and one listener per Gateway (got %d Gateways, %d listeners, %d routes)",
			c.Gateways, c.ListenersPerGateway, c.Routes)
	}
	if c.Certificates <= 0 {
		c.Certificates = 200
	}
	if c.AppNamespaces <= 0 {
		c.AppNamespaces = max(4, c.Routes/100)
	}
	return nil
}

const (
	className  = "gwtls-bench"
	controller = "example.com/gateway-controller"
	gwGroup    = "gateway.networking.k8s.io"
)

// listener kinds, by position in a Gateway.
const (
	lHTTPWildcard = iota
	lHTTPExact
	lHTTPS1
	lHTTPS2
	lHTTPS3
	lHTTPSWildcard
	lTLSPassthrough
	lTLSPassthroughWildcard
	lTLSTerminate
	lTCP
	nListenerKinds
)

type listener struct {
	name     string
	port     int
	protocol string
	mode     string // TLS mode: Terminate, Passthrough or ""
	hostname string // "" for none
	cert     int    // shared certificate index when certNS is set
	certNS   string // namespace of the Secret when not the Gateway's
	from     string // allowedRoutes.namespaces.from
}

type gateway struct {
	ns, name  string
	listeners []listener
	// listenerSet is the namespace/name of the ListenerSet attached to it, if any.
	lsNS, lsName string
	lsListeners  []listener
	allowLS      string // allowedListeners.namespaces.from, "" for unset
}

type gen struct {
	c    Config
	rng  *mrand.Rand
	w    *bufio.Writer
	keys []*ecdsa.PrivateKey
	ca   *testcert.Cert

	infraNS  int // number of infra namespaces, which hold Gateways and Secrets
	sharedNS int // number of shared namespaces, which hold Services many apps use
	gws      []gateway
}

// Write streams the configuration as multi-document YAML.
func Write(w io.Writer, c Config) error {
	if err := c.defaults(); err != nil {
		return err
	}
	ca, ks, err := keys(c.Certificates)
	if err != nil {
		return err
	}
	g := &gen{
		c:        c,
		rng:      mrand.New(mrand.NewPCG(uint64(c.Seed), 0x9e3779b97f4a7c15)),
		w:        bufio.NewWriterSize(w, 1<<16),
		keys:     ks,
		ca:       ca,
		infraNS:  max(1, c.Gateways/20),
		sharedNS: max(1, c.AppNamespaces/50),
	}
	g.plan()
	g.header()
	g.namespaces()
	if err := g.secrets(); err != nil {
		return err
	}
	g.services()
	g.grants()
	g.gateways()
	g.listenerSets()
	g.routes()
	g.policies()
	return g.w.Flush()
}

var (
	cacheMu sync.Mutex
	cache   = map[Config][]byte{}
)

// Bytes returns the configuration c writes, generating it once per process: the
// benchmarks of several commands share one input.
func Bytes(c Config) ([]byte, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if b, ok := cache[c]; ok {
		return b, nil
	}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		return nil, err
	}
	cache[c] = buf.Bytes()
	return buf.Bytes(), nil
}

// Loaded is a generated configuration written to a file and loaded from it, as
// the CLI loads its -f input.
type Loaded struct {
	Path  string // the YAML file
	Bytes int    // its size
	Model *model.Model
}

// WriteFile writes the configuration c to dir/name.yaml, and returns the
// file's path and its text (Bytes's, shared: not to be changed).
func WriteFile(dir, name string, c Config) (string, []byte, error) {
	data, err := Bytes(c)
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, name+".yaml")
	return path, data, os.WriteFile(path, data, 0o644)
}

// Load writes the configuration c to dir/name.yaml and loads that file.
func Load(dir, name string, c Config) (Loaded, error) {
	path, data, err := WriteFile(dir, name, c)
	if err != nil {
		return Loaded{}, err
	}
	m, err := load.Files(load.FileOptions{Filenames: []string{path}})
	if err != nil {
		return Loaded{}, err
	}
	return Loaded{Path: path, Bytes: len(data), Model: m}, nil
}

// pair is one certificate and key, PEM-encoded and base64'd.
type pair struct {
	crtB64, keyB64 string
}

var (
	keyMu   sync.Mutex
	keyCA   *testcert.Cert
	keyPool []*ecdsa.PrivateKey
	serial  int64
)

// keys returns the CA and n ECDSA P-256 keys, made once per process and reused by
// every certificate (making keys is the slow part).
func keys(n int) (*testcert.Cert, []*ecdsa.PrivateKey, error) {
	keyMu.Lock()
	defer keyMu.Unlock()
	if keyCA == nil {
		ca, err := testcert.New(testcert.Options{CommonName: "gwtls bench CA", IsCA: true}, nil)
		if err != nil {
			return nil, nil, err
		}
		keyCA = ca
	}
	for len(keyPool) < n {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, nil, err
		}
		keyPool = append(keyPool, k)
	}
	return keyCA, keyPool[:n:n], nil
}

// certificate signs a leaf for names with the k-th pooled key; expired makes one
// that expired in 2024, as real clusters have.
func (g *gen) certificate(k int, expired bool, names ...string) (pair, error) {
	key := g.keys[k%len(g.keys)]
	notBefore, notAfter := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2036, 1, 1, 0, 0, 0, 0, time.UTC)
	if expired {
		notBefore, notAfter = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	keyMu.Lock()
	serial++
	sn := serial
	keyMu.Unlock()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(sn),
		Subject:      pkix.Name{CommonName: names[0]},
		DNSNames:     names,
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, g.ca.Cert, &key.PublicKey, g.ca.Key)
	if err != nil {
		return pair{}, err
	}
	kd, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return pair{}, err
	}
	return pair{
		crtB64: base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		keyB64: base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kd})),
	}, nil
}

func (g *gen) printf(format string, args ...any) { fmt.Fprintf(g.w, format, args...) }

func (g *gen) doc() { g.w.WriteString("---\n") }

func infraName(i int) string  { return fmt.Sprintf("infra-%d", i) }
func appName(i int) string    { return fmt.Sprintf("app-%d", i) }
func sharedName(i int) string { return fmt.Sprintf("shared-%d", i) }

// appLabels: two thirds of the app namespaces are env=prod, which Selector
// listeners admit.
func appEnv(i int) string {
	if i%3 == 2 {
		return "staging"
	}
	return "prod"
}

// plan lays out every Gateway's listeners before anything is written, so that
// routes can aim at (and miss) real listeners.
func (g *gen) plan() {
	for gi := 0; gi < g.c.Gateways; gi++ {
		infra := gi % g.infraNS
		gw := gateway{ns: infraName(infra), name: fmt.Sprintf("gw-%d", gi)}
		dom := fmt.Sprintf("g%d.example.com", gi)
		for i := 0; i < g.c.ListenersPerGateway; i++ {
			l := listener{from: "All"}
			switch gi % 4 {
			case 1:
				l.from = "Selector"
			case 3:
				if i%10 == 1 {
					l.from = "Same"
				}
			}
			switch i % nListenerKinds {
			case lHTTPWildcard:
				l.name, l.port, l.protocol, l.hostname = fmt.Sprintf("http-%d", i), 80, "HTTP", fmt.Sprintf("*.h%d.%s", i, dom)
			case lHTTPExact:
				l.name, l.port, l.protocol, l.hostname = fmt.Sprintf("http-%d", i), 80, "HTTP", fmt.Sprintf("www%d.%s", i, dom)
				if i >= nListenerKinds {
					l.hostname = "" // a catch-all
				}
			case lHTTPS1, lHTTPS2, lHTTPS3:
				l.name, l.port, l.protocol, l.mode, l.hostname = fmt.Sprintf("https-%d", i), 443, "HTTPS", "Terminate", fmt.Sprintf("app%d.%s", i, dom)
				switch {
				case gi%5 == 0 && i == lHTTPS1+nListenerKinds:
					l.hostname = "*." + dom // overlaps every exact HTTPS hostname: OverlappingTLSConfig
				case gi%10 == 3 && i == lHTTPS3:
					// a shared certificate, granted by a ReferenceGrant
					l.certNS, l.cert, l.hostname = "certs", gi/10%sharedCerts, sharedHost(gi/10%sharedCerts)
				}
			case lHTTPSWildcard:
				l.name, l.port, l.protocol, l.mode, l.hostname = fmt.Sprintf("https-%d", i), 443, "HTTPS", "Terminate", fmt.Sprintf("*.w%d.%s", i, dom)
			case lTLSPassthrough:
				l.name, l.port, l.protocol, l.mode, l.hostname = fmt.Sprintf("tls-pt-%d", i), 8443, "TLS", "Passthrough", fmt.Sprintf("db%d.%s", i, dom)
			case lTLSPassthroughWildcard:
				l.name, l.port, l.protocol, l.mode, l.hostname = fmt.Sprintf("tls-pt-%d", i), 8443, "TLS", "Passthrough", fmt.Sprintf("*.pt%d.%s", i, dom)
			case lTLSTerminate:
				l.name, l.port, l.protocol, l.mode, l.hostname = fmt.Sprintf("tls-%d", i), 9443, "TLS", "Terminate", fmt.Sprintf("tls%d.%s", i, dom)
			case lTCP:
				l.name, l.port, l.protocol = fmt.Sprintf("tcp-%d", i), 10000+i, "TCP"
			}
			gw.listeners = append(gw.listeners, l)
		}
		// A few Gateways take ListenerSets (GEP-1713); one in three of those does
		// not allow them, so the set is NotAllowed.
		if gi%20 == 4 {
			gw.lsNS, gw.lsName = appName(gi%g.c.AppNamespaces), fmt.Sprintf("team-%d", gi)
			switch (gi / 20) % 3 {
			case 0:
				gw.allowLS = "All"
			case 1:
				gw.allowLS = "Selector"
			}
			for i := 0; i < 2; i++ {
				gw.lsListeners = append(gw.lsListeners, listener{
					name: fmt.Sprintf("team-https-%d", i), port: 443, protocol: "HTTPS", mode: "Terminate",
					hostname: fmt.Sprintf("team%d.ls.g%d.example.com", i, gi), from: "All",
				})
			}
		}
		// Every 50th Gateway has a hostname conflict: a ListenerSet's listener
		// takes the port, protocol and hostname of one of the Gateway's (the API
		// server refuses two such listeners in one Gateway), and loses to it.
		if gi%50 == 7 && g.c.ListenersPerGateway > lHTTPS2 {
			gw.lsNS, gw.lsName, gw.allowLS = appName(gi%g.c.AppNamespaces), fmt.Sprintf("conflict-%d", gi), "All"
			gw.lsListeners = []listener{{name: "https-conflict", port: 443, protocol: "HTTPS", mode: "Terminate",
				hostname: fmt.Sprintf("app%d.%s", lHTTPS2, dom), from: "All"}}
		}
		g.gws = append(g.gws, gw)
	}
}

func (g *gen) header() {
	g.printf("# Generated by go run ./hack/generate --seed %d --gateways %d --listeners %d --routes %d\n",
		g.c.Seed, g.c.Gateways, g.c.ListenersPerGateway, g.c.Routes)
	g.printf(`apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: %s
spec:
  controllerName: %s
`, className, controller)
}

func (g *gen) namespace(name string, labels ...string) {
	g.doc()
	g.printf("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n  labels:\n    kubernetes.io/metadata.name: %s\n", name, name)
	for i := 0; i+1 < len(labels); i += 2 {
		g.printf("    %s: %s\n", labels[i], labels[i+1])
	}
}

func (g *gen) namespaces() {
	for i := 0; i < g.infraNS; i++ {
		g.namespace(infraName(i), "tier", "infra")
	}
	g.namespace("certs", "tier", "infra")
	for i := 0; i < g.sharedNS; i++ {
		g.namespace(sharedName(i), "tier", "shared")
	}
	for i := 0; i < g.c.AppNamespaces; i++ {
		// Most app namespaces are labelled; some not at all, as in real clusters.
		if i%17 == 16 {
			g.namespace(appName(i))
			continue
		}
		g.namespace(appName(i), "env", appEnv(i), "team", fmt.Sprintf("team-%d", i%25))
	}
}

func (g *gen) secret(ns, name string, p pair) {
	g.doc()
	g.printf("apiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\n  namespace: %s\ntype: kubernetes.io/tls\ndata:\n  tls.crt: %s\n  tls.key: %s\n",
		name, ns, p.crtB64, p.keyB64)
}

// secrets: one certificate per Gateway covering its hostnames (every 50th expired),
// ten shared certificates in "certs" that Gateways reach through a ReferenceGrant,
// and one per ListenerSet listener. Keys are reused from the pool.
func (g *gen) secrets() error {
	for gi, gw := range g.gws {
		dom := fmt.Sprintf("g%d.example.com", gi)
		names := []string{"*." + dom, dom}
		for _, l := range gw.listeners {
			if l.protocol == "HTTPS" && strings.HasPrefix(l.hostname, "*.") && l.hostname != "*."+dom {
				names = append(names, l.hostname)
			}
		}
		p, err := g.certificate(gi, gi%50 == 49, names...)
		if err != nil {
			return err
		}
		g.secret(gw.ns, gw.name+"-tls", p)
	}
	for k := 0; k < sharedCerts; k++ {
		p, err := g.certificate(k, false, sharedHost(k))
		if err != nil {
			return err
		}
		g.secret("certs", fmt.Sprintf("shared-cert-%d", k), p)
	}
	for gi, gw := range g.gws {
		for _, l := range gw.lsListeners {
			p, err := g.certificate(gi+1, false, l.hostname)
			if err != nil {
				return err
			}
			g.secret(gw.lsNS, gw.lsName+"-"+l.name, p)
		}
	}
	return nil
}

const sharedCerts = 10

func sharedHost(k int) string { return fmt.Sprintf("shared-%d.example.com", k) }

const servicesPerApp = 8

func (g *gen) service(ns, name string, port int) {
	g.doc()
	g.printf("apiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  selector:\n    app: %s\n  ports:\n  - name: main\n    port: %d\n    targetPort: %d\n",
		name, ns, name, port, port)
}

func (g *gen) services() {
	for a := 0; a < g.c.AppNamespaces; a++ {
		for s := 0; s < servicesPerApp; s++ {
			g.service(appName(a), fmt.Sprintf("svc-%d", s), 8080+s%2)
		}
	}
	for i := 0; i < g.sharedNS; i++ {
		for s := 0; s < 4; s++ {
			g.service(sharedName(i), fmt.Sprintf("common-%d", s), 8080)
		}
	}
}

// grants: even app namespaces may reach their shared namespace's Services; odd
// ones reference them without a grant (RefNotPermitted). Gateways in infra
// namespaces may use Secrets in "certs".
func (g *gen) grants() {
	for a := 0; a < g.c.AppNamespaces; a += 2 {
		g.doc()
		g.printf(`apiVersion: gateway.networking.k8s.io/%s
kind: ReferenceGrant
metadata:
  name: from-%s
  namespace: %s
spec:
  from:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    namespace: %s
  - group: gateway.networking.k8s.io
    kind: GRPCRoute
    namespace: %s
  - group: gateway.networking.k8s.io
    kind: TLSRoute
    namespace: %s
  to:
  - group: ""
    kind: Service
`, []string{"v1", "v1beta1"}[a/2%2], appName(a), sharedName(a%g.sharedNS), appName(a), appName(a), appName(a))
	}
	// The CRD allows at most 16 entries in spec.from: one grant per 16 namespaces.
	for first := 0; first < g.infraNS; first += 16 {
		name := "gateways-to-certs"
		if first > 0 {
			name = fmt.Sprintf("gateways-to-certs-%d", first/16+1)
		}
		g.doc()
		g.printf("apiVersion: gateway.networking.k8s.io/v1beta1\nkind: ReferenceGrant\nmetadata:\n  name: %s\n  namespace: certs\nspec:\n  from:\n", name)
		for i := first; i < min(first+16, g.infraNS); i++ {
			g.printf("  - group: gateway.networking.k8s.io\n    kind: Gateway\n    namespace: %s\n", infraName(i))
		}
		g.printf("  to:\n  - group: \"\"\n    kind: Secret\n")
	}
}

func (g *gen) writeListener(l listener, indent string, certName func(listener) (ns, name string)) {
	p := func(format string, args ...any) { g.w.WriteString(indent); g.printf(format, args...) }
	p("- name: %s\n", l.name)
	p("  port: %d\n", l.port)
	p("  protocol: %s\n", l.protocol)
	if l.hostname != "" {
		p("  hostname: %q\n", l.hostname)
	}
	if l.mode != "" {
		p("  tls:\n")
		p("    mode: %s\n", l.mode)
		if l.mode == "Terminate" {
			ns, name := certName(l)
			p("    certificateRefs:\n")
			if ns != "" {
				p("    - kind: Secret\n")
				p("      name: %s\n", name)
				p("      namespace: %s\n", ns)
			} else {
				p("    - name: %s\n", name)
			}
		}
	}
	if l.from != "Same" || l.protocol == "TCP" {
		p("  allowedRoutes:\n")
		p("    namespaces:\n")
		p("      from: %s\n", l.from)
		if l.from == "Selector" {
			p("      selector:\n")
			p("        matchLabels:\n")
			p("          env: prod\n")
		}
		if l.protocol == "TCP" {
			p("    kinds:\n")
			p("    - kind: TCPRoute\n")
		}
	}
}

func (g *gen) gateways() {
	for _, gw := range g.gws {
		g.doc()
		g.printf("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: %s\n  namespace: %s\n  labels:\n    app.kubernetes.io/part-of: edge\nspec:\n  gatewayClassName: %s\n",
			gw.name, gw.ns, className)
		if gw.allowLS != "" {
			g.printf("  allowedListeners:\n    namespaces:\n      from: %s\n", gw.allowLS)
			if gw.allowLS == "Selector" {
				g.printf("      selector:\n        matchLabels:\n          env: prod\n")
			}
		}
		g.printf("  listeners:\n")
		for _, l := range gw.listeners {
			g.writeListener(l, "  ", func(l listener) (string, string) {
				if l.certNS != "" {
					return l.certNS, fmt.Sprintf("shared-cert-%d", l.cert)
				}
				return "", gw.name + "-tls"
			})
		}
	}
}

func (g *gen) listenerSets() {
	for _, gw := range g.gws {
		if gw.lsName == "" {
			continue
		}
		g.doc()
		g.printf("apiVersion: gateway.networking.k8s.io/v1\nkind: ListenerSet\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  parentRef:\n    name: %s\n    namespace: %s\n  listeners:\n",
			gw.lsName, gw.lsNS, gw.name, gw.ns)
		for _, l := range gw.lsListeners {
			g.writeListener(l, "  ", func(l listener) (string, string) { return "", gw.lsName + "-" + l.name })
		}
	}
}

// route kinds, with the share of routes each takes (in percent).
type routeKind struct {
	kind, apiVersion string
	percent          int
}

var routeKinds = []routeKind{
	{"HTTPRoute", "v1", 62},
	{"GRPCRoute", "v1", 10},
	{"TLSRoute", "v1", 10},
	{"TLSRoute", "v1alpha2", 10},
	{"TCPRoute", "v1alpha2", 8},
}

func (g *gen) pickKind() routeKind {
	n := g.rng.IntN(100)
	for _, k := range routeKinds {
		if n < k.percent {
			return k
		}
		n -= k.percent
	}
	return routeKinds[0]
}

// takes reports whether a listener carries a route kind.
func takes(l listener, kind string) bool {
	switch kind {
	case "HTTPRoute":
		return l.protocol == "HTTP" || l.protocol == "HTTPS"
	case "GRPCRoute":
		return l.protocol == "HTTPS"
	case "TLSRoute":
		return l.protocol == "TLS"
	case "TCPRoute":
		return l.protocol == "TCP"
	}
	return false
}

// hostnameIn returns a route hostname the listener hostname matches.
func hostnameIn(lh string, n int) string {
	switch {
	case lh == "":
		return fmt.Sprintf("r%d.any.example.net", n)
	case strings.HasPrefix(lh, "*."):
		return fmt.Sprintf("r%d.%s", n, lh[2:])
	}
	return lh
}

// sharedHostname is a hostname several routes on one listener use.
func sharedHostname(lh string, k int) string {
	switch {
	case lh == "":
		return fmt.Sprintf("shared%d.any.example.net", k)
	case strings.HasPrefix(lh, "*."):
		return fmt.Sprintf("shared%d.%s", k, lh[2:])
	}
	return lh
}

func (g *gen) routes() {
	var b strings.Builder
	for n := 0; n < g.c.Routes; n++ {
		b.Reset()
		rk := g.pickKind()
		gi := g.rng.IntN(len(g.gws))
		gw := g.gws[gi]
		app := g.rng.IntN(g.c.AppNamespaces)
		// Selector listeners admit env=prod: most routes aimed at them live there.
		if gi%4 == 1 && appEnv(app) != "prod" && g.rng.IntN(4) != 0 {
			app = (app + 1) % g.c.AppNamespaces
		}
		ns := appName(app)
		var fits []listener
		for _, l := range gw.listeners {
			if takes(l, rk.kind) {
				fits = append(fits, l)
			}
		}
		fmt.Fprintf(&b, "---\napiVersion: gateway.networking.k8s.io/%s\nkind: %s\nmetadata:\n  name: %s-%d\n  namespace: %s\n",
			rk.apiVersion, rk.kind, strings.ToLower(rk.kind[:len(rk.kind)-5]), n, ns)
		if n%7 == 0 {
			fmt.Fprintf(&b, "  labels:\n    app: svc-%d\n", n%servicesPerApp)
		}
		b.WriteString("spec:\n  parentRefs:\n")

		var target *listener
		if len(fits) > 0 {
			target = &fits[g.rng.IntN(len(fits))]
		}
		r := g.rng.IntN(1000)
		switch {
		case r < 5: // a Gateway that is not in the input
			fmt.Fprintf(&b, "  - name: gw-missing-%d\n    namespace: %s\n", n%10, gw.ns)
		case r < 15 && gw.lsName != "" && (rk.kind == "HTTPRoute" || rk.kind == "GRPCRoute"):
			fmt.Fprintf(&b, "  - group: %s\n    kind: ListenerSet\n    name: %s\n    namespace: %s\n", gwGroup, gw.lsName, gw.lsNS)
			target = &gw.lsListeners[n%len(gw.lsListeners)]
		default:
			fmt.Fprintf(&b, "  - name: %s\n    namespace: %s\n", gw.name, gw.ns)
			switch {
			case target == nil:
			case r < 20: // a typo
				fmt.Fprintf(&b, "    sectionName: %sx\n", target.name)
			case r < 550:
				fmt.Fprintf(&b, "    sectionName: %s\n", target.name)
				if r < 50 {
					fmt.Fprintf(&b, "    port: %d\n", target.port)
				}
			}
		}
		if rk.kind != "TCPRoute" {
			var hosts []string
			h := g.rng.IntN(100)
			switch {
			case target == nil || h < 3: // intersects nothing
				hosts = append(hosts, fmt.Sprintf("r%d.nomatch.example.org", n))
			case h < 8 && rk.kind == "HTTPRoute": // no hostnames: every listener's
			case h < 15: // collides with other routes on a shared name
				hosts = append(hosts, sharedHostname(target.hostname, n%3))
			default:
				hosts = append(hosts, hostnameIn(target.hostname, n))
				if h >= 80 && len(fits) > 1 { // and a second listener's
					hosts = append(hosts, hostnameIn(fits[(n+1)%len(fits)].hostname, n+1))
				}
			}
			if len(hosts) > 0 {
				b.WriteString("  hostnames:\n")
				for _, h := range hosts {
					if strings.HasPrefix(h, "*") {
						fmt.Fprintf(&b, "  - %q\n", h)
					} else {
						fmt.Fprintf(&b, "  - %s\n", h)
					}
				}
			}
		}
		b.WriteString("  rules:\n  - backendRefs:\n")
		svc := g.rng.IntN(servicesPerApp)
		port := 8080 + svc%2
		c := g.rng.IntN(100)
		switch {
		case c < 10 && rk.kind != "TCPRoute": // a shared Service in another namespace
			fmt.Fprintf(&b, "    - name: common-%d\n      namespace: %s\n      port: 8080\n", svc%4, sharedName(app%g.sharedNS))
		case c < 12: // a Service that does not exist
			fmt.Fprintf(&b, "    - name: gone-%d\n      port: %d\n", svc, port)
		case c < 14: // a port the Service does not have
			fmt.Fprintf(&b, "    - name: svc-%d\n      port: 9999\n", svc)
		default:
			fmt.Fprintf(&b, "    - name: svc-%d\n      port: %d\n", svc, port)
			if c >= 85 && rk.kind != "TLSRoute" && rk.kind != "TCPRoute" { // a canary split
				fmt.Fprintf(&b, "      weight: 90\n    - name: svc-%d\n      port: %d\n      weight: 10\n", (svc+1)%servicesPerApp, 8080+(svc+1)%2)
			}
		}
		if rk.kind == "HTTPRoute" && c%6 == 0 {
			b.WriteString("    matches:\n    - path:\n        type: PathPrefix\n        value: /api\n")
		}
		g.w.WriteString(b.String())
	}
}

// policies: svc-0 of every app namespace speaks TLS to the Gateway and has a
// BackendTLSPolicy with a CA ConfigMap; a few use the system CAs, and every 40th
// namespace has a second, conflicting policy.
func (g *gen) policies() {
	caPEM := "    " + strings.ReplaceAll(strings.TrimRight(string(g.ca.CertPEM), "\n"), "\n", "\n    ")
	for a := 0; a < g.c.AppNamespaces; a++ {
		ns := appName(a)
		g.doc()
		g.printf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: backend-ca\n  namespace: %s\ndata:\n  ca.crt: |\n%s\n", ns, caPEM)
		g.doc()
		g.printf("apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata:\n  name: svc-0-tls\n  namespace: %s\nspec:\n  targetRefs:\n  - group: \"\"\n    kind: Service\n    name: svc-0\n  validation:\n", ns)
		if a%10 == 5 {
			g.printf("    wellKnownCACertificates: System\n")
		} else {
			g.printf("    caCertificateRefs:\n    - group: \"\"\n      kind: ConfigMap\n      name: backend-ca\n")
		}
		g.printf("    hostname: svc-0.%s.svc.cluster.local\n", ns)
		if a%40 == 39 {
			g.doc()
			g.printf("apiVersion: gateway.networking.k8s.io/v1\nkind: BackendTLSPolicy\nmetadata:\n  name: svc-0-tls-old\n  namespace: %s\nspec:\n  targetRefs:\n  - group: \"\"\n    kind: Service\n    name: svc-0\n  validation:\n    wellKnownCACertificates: System\n    hostname: svc-0.%s.svc.cluster.local\n", ns, ns)
		}
	}
}

// Large is the size benchmarks run only when asked: with GWTLS_BENCH_LARGE=1 or a
// -bench pattern that names it, so that CI can run the small sizes cheaply.
const Large = "100k"

// SkipReason says why a benchmark of size s does not run now, or "" when it does.
func SkipReason(s Size) string {
	if s.Name != Large || os.Getenv("GWTLS_BENCH_LARGE") == "1" {
		return ""
	}
	if f := flag.Lookup("test.bench"); f != nil && strings.Contains(f.Value.String(), Large) {
		return ""
	}
	return "the 100k size runs with GWTLS_BENCH_LARGE=1 or -bench naming 100k (docs/performance.md)"
}
