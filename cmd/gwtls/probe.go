package gwtls

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
	"github.com/kubectl-gwtls/kubectl-gwtls/render"
)

// ProbeOptions are the options of `probe`.
type ProbeOptions struct {
	Input         *InputOptions
	SNIs          []string
	Backends      []string
	KeepRunning   bool
	ListenAddress string
	Targets       []string
	Gateway       string
	OCG           bool
	ClientCert    string
	ClientKey     string
	OCGTarget     string
	Timeout       time.Duration
	Concurrency   int
	MaxConns      int
	MaxBackend    int
	Output        string

	backends   map[string]string
	exposure   string               // the warning --listen-address calls for
	gateway    model.NamespacedName // --gateway
	clientPair tls.Certificate      // --client-cert and --client-key
	genericiooptions.IOStreams
}

// NewCmdProbe builds `probe`.
func NewCmdProbe(streams genericiooptions.IOStreams, configFlags *genericclioptions.ConfigFlags) *cobra.Command {
	o := &ProbeOptions{Input: NewInputOptions(configFlags), IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "probe",
		Short: "Replay real TLS handshakes through a local proxy built from the configuration, or against a live gateway",
		Long: `Probe makes real TLS handshakes and compares what a client sees with what the
configuration promises.

Without --target or --gateway it starts, on loopback, one socket per Gateway port
with TLS listeners: terminating listeners serve the certificate the configuration
selects for the SNI; passthrough listeners route on the ClientHello's SNI and pass
the bytes through untouched. Backends are built-in stand-ins that identify
themselves, unless --backend maps them to a real address. Every intersected
hostname, and every --sni, is then handshaked: the listener, route and backend
reached, TLS version, ALPN, cipher suite, the chain and whether it verifies. A
connection that does not do what 'simulate' predicts, or that a client would
reject, is a finding (exit 1). A terminating HTTPS listener routes each request
by its Host header as 'simulate --host' does: 404 where simulate refuses, 502 Bad
Gateway when the backend does not answer (a finding).

The proxy bounds what a client can hold: each socket serves --max-connections
at a time, each backend --max-backend-connections, and a client must finish its
handshake within --timeout. docs/security.md lists every bound.

With --target or --gateway it handshakes with a live data plane for every
intersected hostname and reports whether the certificate covers the SNI, is valid,
and is the one in the Secret the configuration references (SHA-256), so a stale
certificate is caught. It connects only to the addresses named.

With --ocg it performs an out-of-cluster Gateway's handshake to a meshed backend
(GEP-3792, provisional): mTLS with --client-cert/--client-key, offering ALPN
` + analyze.OCGALPN + `, verifying the backend against the Gateway's
spec.mesh.trustBundle.`,
		Example: `  ` + commandName() + ` probe -f manifests/
  ` + commandName() + ` probe -f manifests/ --sni shop.example.com --sni nope.example.com
  ` + commandName() + ` probe -f manifests/ --backend apps/api:8443=127.0.0.1:9443 --keep-running
  ` + commandName() + ` probe -f manifests/ --target 203.0.113.7:443
  ` + commandName() + ` probe --gateway infra/edge          # addresses from the Gateway's status
  ` + commandName() + ` probe -f manifests/ --ocg --ocg-target 10.0.0.5:8443 --sni svc.mesh --client-cert gw.crt --client-key gw.key`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(cmd, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	o.Input.AddFlags(cmd)
	f := cmd.Flags()
	f.StringArrayVar(&o.SNIs, "sni", nil, "an extra server name to try on every socket, beside every intersected hostname (repeatable)")
	f.StringArrayVar(&o.Backends, "backend", nil, "map a backend to a real address: NAMESPACE/NAME:PORT=HOST:PORT (repeatable; only backends routes reference)")
	f.BoolVar(&o.KeepRunning, "keep-running", false, "after the replay, keep the proxy running and print its addresses until interrupted")
	f.StringVar(&o.ListenAddress, "listen-address", "127.0.0.1", "address the local proxy and built-in backends listen on; any other than loopback lets other hosts connect through the proxy (a warning says so)")
	f.StringArrayVar(&o.Targets, "target", nil, "probe a live gateway at HOST:PORT (repeatable)")
	f.StringVar(&o.Gateway, "gateway", "", "probe the live Gateway NAMESPACE/NAME at the addresses in its status (or the one whose mesh trust bundle --ocg uses)")
	f.BoolVar(&o.OCG, "ocg", false, "perform an out-of-cluster Gateway's mTLS handshake to --ocg-target")
	f.StringVar(&o.ClientCert, "client-cert", "", "PEM client certificate for --ocg")
	f.StringVar(&o.ClientKey, "client-key", "", "PEM client key for --ocg")
	f.StringVar(&o.OCGTarget, "ocg-target", "", "HOST:PORT of the meshed backend for --ocg")
	f.DurationVar(&o.Timeout, "timeout", probe.DefaultHandshakeTimeout, "handshake deadline: for each handshake probe makes, and for each client of the proxy from accept to the end of its handshake; a proxied connection ends after 6 times as long")
	f.IntVar(&o.Concurrency, "concurrency", 8, "handshakes in flight at once")
	f.IntVar(&o.MaxConns, "max-connections", probe.DefaultMaxConns, "connections each socket of the local proxy serves at once; more wait until one ends")
	f.IntVar(&o.MaxBackend, "max-backend-connections", probe.DefaultMaxBackendConns, "connections to each backend at once: a built-in backend serves at most this many, the proxy opens at most this many to a --backend address")
	f.StringVarP(&o.Output, "output", "o", "", "output format: table (default), json")
	return cmd
}

// Complete reads each --backend NAMESPACE/NAME:PORT=HOST:PORT into a map,
// --gateway as NAMESPACE/NAME, and the --ocg client key pair.
func (o *ProbeOptions) Complete(cmd *cobra.Command, args []string) error {
	o.backends = make(map[string]string, len(o.Backends))
	for _, b := range o.Backends {
		k, v, ok := strings.Cut(b, "=")
		if !ok || k == "" || v == "" {
			return usageErrorf("--backend %q: want NAMESPACE/NAME:PORT=HOST:PORT", b)
		}
		o.backends[k] = v
	}
	if o.Gateway != "" {
		ns, name, _ := strings.Cut(o.Gateway, "/")
		o.gateway = model.NamespacedName{Namespace: ns, Name: name}
	}
	exposure, err := listenExposure(o.ListenAddress)
	if err != nil {
		return err
	}
	o.exposure = exposure
	if o.OCG && o.ClientCert != "" && o.ClientKey != "" {
		pair, err := tls.LoadX509KeyPair(o.ClientCert, o.ClientKey)
		if err != nil {
			return usageErrorf("--client-cert/--client-key: %w", err)
		}
		o.clientPair = pair
	}
	return o.Input.Complete()
}

// Validate checks the flags.
func (o *ProbeOptions) Validate() error {
	switch o.Output {
	case "", "table", "json":
	default:
		return usageErrorf("--output %q: want table or json", o.Output)
	}
	for _, s := range o.SNIs {
		if err := hostname.ValidatePrecise(s); err != nil {
			return usageErrorf("--sni: %w", err)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o.backends)) {
		if _, _, err := net.SplitHostPort(o.backends[k]); err != nil {
			return usageErrorf("--backend %q: %w", k+"="+o.backends[k], err)
		}
	}
	for _, t := range o.Targets {
		if _, _, err := net.SplitHostPort(t); err != nil {
			return usageErrorf("--target %s: want HOST:PORT: %w", t, err)
		}
	}
	if o.Gateway != "" && (o.gateway.Namespace == "" || o.gateway.Name == "" || strings.Contains(o.gateway.Name, "/")) {
		return usageErrorf("--gateway %q: want NAMESPACE/NAME", o.Gateway)
	}
	if o.Timeout <= 0 || o.Concurrency <= 0 || o.MaxConns <= 0 || o.MaxBackend <= 0 {
		return usageErrorf("--timeout, --concurrency, --max-connections and --max-backend-connections must be positive")
	}
	if o.OCG && (o.OCGTarget == "" || o.ClientCert == "" || o.ClientKey == "") {
		return usageErrorf("--ocg needs --ocg-target, --client-cert and --client-key")
	}
	if o.KeepRunning && (len(o.Targets) > 0 || o.Gateway != "" || o.OCG) {
		return usageErrorf("--keep-running is for the local proxy, not with --target, --gateway or --ocg")
	}
	return o.Input.Validate()
}

// Run probes and prints.
func (o *ProbeOptions) Run(ctx context.Context) error {
	res, err := o.Input.Result(ctx, o.IOStreams)
	if err != nil {
		return err
	}
	switch {
	case o.OCG:
		return o.runOCG(ctx, res)
	case len(o.Targets) > 0 || o.Gateway != "":
		return o.runLive(ctx, res)
	}
	return o.runReplay(ctx, res)
}

func (o *ProbeOptions) runReplay(ctx context.Context, res *analyze.Result) error {
	if o.exposure != "" {
		fmt.Fprintln(o.ErrOut, o.exposure)
	}
	p, err := probe.Start(res, probe.Options{ListenAddress: o.ListenAddress, Backends: o.backends,
		HandshakeTimeout: o.Timeout, ConnTimeout: 6 * o.Timeout, MaxConns: o.MaxConns, MaxBackendConns: o.MaxBackend, Log: o.ErrOut})
	if err != nil {
		return fmt.Errorf("local proxy: %w", err)
	}
	defer p.Close()
	if len(p.Sockets()) == 0 {
		return errors.New("the configuration has no Gateway with an HTTPS or TLS listener to probe")
	}
	rs := p.Replay(ctx, probe.ReplayOptions{SNIs: o.SNIs, Roots: o.Input.caBundle, Timeout: o.Timeout, Concurrency: o.Concurrency, Now: o.Input.now})
	if o.Output == "json" {
		err = writeProbeJSON(o.Out, map[string]any{"sockets": p.Sockets(), "replays": rs})
	} else {
		err = render.ProbeReplays(o.Out, p.Sockets(), rs)
	}
	if err != nil {
		return err
	}
	if o.KeepRunning {
		fmt.Fprintln(o.ErrOut, "\nthe proxy keeps running; try it by hand, then press Ctrl-C:")
		for _, s := range p.Sockets() {
			_, port, _ := net.SplitHostPort(s.Address)
			fmt.Fprintf(o.ErrOut, "  %s port %d  ->  %s\n", s.Gateway, s.Port, s.Address)
			fmt.Fprintf(o.ErrOut, "    curl --resolve HOST:%s:127.0.0.1 https://HOST:%s/ -k\n    openssl s_client -connect %s -servername HOST\n", port, port, s.Address)
		}
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		<-ctx.Done()
	}
	if n := rs.Findings(); n > 0 {
		return findingsError{n}
	}
	return nil
}

func (o *ProbeOptions) runLive(ctx context.Context, res *analyze.Result) error {
	lives, err := probe.LiveProbe(ctx, res, probe.LiveOptions{Targets: o.Targets, Gateway: o.gateway, Roots: o.Input.caBundle,
		Timeout: o.Timeout, Concurrency: o.Concurrency, Now: o.Input.now})
	if err != nil {
		return err
	}
	if o.Output == "json" {
		err = writeProbeJSON(o.Out, map[string]any{"live": lives})
	} else {
		err = render.ProbeLive(o.Out, lives)
	}
	if err != nil {
		return err
	}
	if n := lives.Findings(); n > 0 {
		return findingsError{n}
	}
	return nil
}

func (o *ProbeOptions) runOCG(ctx context.Context, res *analyze.Result) error {
	trust, meshTrust := probe.OCGTrust(res, o.gateway)
	sni := ""
	if len(o.SNIs) > 0 {
		sni = o.SNIs[0]
	}
	r := probe.OCGHandshake(ctx, probe.OCGOptions{Target: o.OCGTarget, ServerName: sni, ClientCertificate: o.clientPair,
		TrustBundle: trust, MeshTrust: meshTrust, Timeout: o.Timeout})
	var err error
	if o.Output == "json" {
		err = writeProbeJSON(o.Out, map[string]any{"ocg": r})
	} else {
		err = render.ProbeOCG(o.Out, r)
	}
	if err != nil {
		return err
	}
	if r.Verdict != probe.VerdictOK {
		return findingsError{len(r.Problems)}
	}
	return nil
}

func writeProbeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
