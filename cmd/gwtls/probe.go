package gwtls

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/hostname"
	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
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
	Output        string

	backends map[string]string
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
reject, is a finding (exit 1).

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
	f.StringVar(&o.ListenAddress, "listen-address", "127.0.0.1", "address the local proxy and built-in backends listen on")
	f.StringArrayVar(&o.Targets, "target", nil, "probe a live gateway at HOST:PORT (repeatable)")
	f.StringVar(&o.Gateway, "gateway", "", "probe the live Gateway NAMESPACE/NAME at the addresses in its status (or the one whose mesh trust bundle --ocg uses)")
	f.BoolVar(&o.OCG, "ocg", false, "perform an out-of-cluster Gateway's mTLS handshake to --ocg-target")
	f.StringVar(&o.ClientCert, "client-cert", "", "PEM client certificate for --ocg")
	f.StringVar(&o.ClientKey, "client-key", "", "PEM client key for --ocg")
	f.StringVar(&o.OCGTarget, "ocg-target", "", "HOST:PORT of the meshed backend for --ocg")
	f.DurationVar(&o.Timeout, "timeout", 5*time.Second, "per-handshake (and per proxied connection) timeout")
	f.IntVar(&o.Concurrency, "concurrency", 8, "handshakes in flight at once")
	f.StringVarP(&o.Output, "output", "o", "", "output format: table (default), json")
	return cmd
}

// Complete reads each --backend NAMESPACE/NAME:PORT=HOST:PORT into a map.
func (o *ProbeOptions) Complete(cmd *cobra.Command, args []string) error {
	o.backends = make(map[string]string, len(o.Backends))
	for _, b := range o.Backends {
		k, v, ok := strings.Cut(b, "=")
		if !ok || k == "" || v == "" {
			return usageErrorf("--backend %q: want NAMESPACE/NAME:PORT=HOST:PORT", b)
		}
		o.backends[k] = v
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
	for k, v := range o.backends {
		if _, _, err := net.SplitHostPort(v); err != nil {
			return usageErrorf("--backend %q: %w", k+"="+v, err)
		}
	}
	for _, t := range o.Targets {
		if _, _, err := net.SplitHostPort(t); err != nil {
			return usageErrorf("--target %s: want HOST:PORT: %w", t, err)
		}
	}
	if o.Timeout <= 0 || o.Concurrency <= 0 {
		return usageErrorf("--timeout and --concurrency must be positive")
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
	p, err := probe.Start(res, probe.Options{ListenAddress: o.ListenAddress, Backends: o.backends,
		HelloTimeout: o.Timeout, ConnTimeout: 6 * o.Timeout})
	if err != nil {
		return usageErrorf("%v", err)
	}
	defer p.Close()
	if len(p.Sockets()) == 0 {
		return usageErrorf("the configuration has no Gateway with an HTTPS or TLS listener to probe")
	}
	rs := p.Replay(ctx, probe.ReplayOptions{SNIs: o.SNIs, Roots: o.Input.caBundle, Timeout: o.Timeout, Concurrency: o.Concurrency, Now: o.Input.now})
	bad := 0
	for _, r := range rs {
		if r.Verdict != probe.VerdictOK {
			bad++
		}
	}
	if o.Output == "json" {
		if err := writeProbeJSON(o.Out, map[string]any{"sockets": p.Sockets(), "replays": rs}); err != nil {
			return err
		}
	} else {
		printReplays(o.Out, p.Sockets(), rs)
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
	if bad > 0 {
		return findingsError{bad}
	}
	return nil
}

func printReplays(w io.Writer, sockets []probe.Socket, rs []probe.Replay) {
	fmt.Fprintln(w, "Local proxy:")
	for _, s := range sockets {
		fmt.Fprintf(w, "  %s port %d on %s\n", s.Gateway, s.Port, s.Address)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GATEWAY\tPORT\tSNI\tPREDICTED\tREACHED\tTLS\tALPN\tCERTIFICATE\tVERIFIED\tVERDICT")
	for _, r := range rs {
		predicted := r.Predicted.Outcome
		if r.Predicted.Route != nil && r.Predicted.Outcome == "routed" {
			predicted = r.Predicted.Mode + " " + r.Predicted.Route.Kind + "/" + r.Predicted.Route.Name
		}
		reached := "refused"
		if r.Reached != nil {
			reached = r.Reached.Backend
			if r.Reached.SNI != "" {
				reached += " (sni " + r.Reached.SNI + ")"
			}
		} else if !r.Refused {
			reached = "?"
		}
		tlsv, alpn, cert, verified := "-", "-", "-", "-"
		if r.TLS != nil {
			tlsv = r.TLS.Version + " " + r.TLS.CipherSuite
			if r.TLS.ALPN != "" {
				alpn = r.TLS.ALPN
			}
			if len(r.TLS.Chain) > 0 {
				cert = r.TLS.Chain[0].Subject
			}
			verified = r.TLS.Verified
			verified, _, _ = strings.Cut(verified, ",")
			verified, _, _ = strings.Cut(verified, ":")
			if !r.TLS.CoversSNI {
				verified += ", not for SNI"
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Gateway, r.Port, r.SNI, predicted, reached, tlsv, alpn, cert, verified, r.Verdict)
	}
	tw.Flush()
	for _, r := range rs {
		for _, p := range r.Problems {
			fmt.Fprintf(w, "\n%s %s: %s", strings.ToUpper(r.Verdict), r.SNI, p)
		}
	}
	bad := 0
	for _, r := range rs {
		if r.Verdict != probe.VerdictOK {
			bad++
		}
	}
	fmt.Fprintf(w, "\n%d handshakes, %d as the configuration promises, %d findings\n", len(rs), len(rs)-bad, bad)
}

func (o *ProbeOptions) runLive(ctx context.Context, res *analyze.Result) error {
	lives, err := probe.LiveProbe(ctx, res, probe.LiveOptions{Targets: o.Targets, Gateway: o.Gateway, Roots: o.Input.caBundle,
		Timeout: o.Timeout, Concurrency: o.Concurrency, Now: o.Input.now})
	if err != nil {
		return usageErrorf("%v", err)
	}
	bad := 0
	for _, l := range lives {
		if l.Verdict != probe.VerdictOK {
			bad++
		}
	}
	if o.Output == "json" {
		if err := writeProbeJSON(o.Out, map[string]any{"live": lives}); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(o.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ADDRESS\tSNI\tLISTENER\tMODE\tCERTIFICATE\tCOVERS SNI\tVALIDITY\tSAME AS SECRET\tVERDICT")
		for _, l := range lives {
			cert, covers, same := "-", "-", "-"
			if l.TLS != nil && len(l.TLS.Chain) > 0 {
				cert = l.TLS.Chain[0].Subject + " sha256:" + l.TLS.Chain[0].SHA256[:16]
				covers = fmt.Sprint(l.TLS.CoversSNI)
			}
			if l.SameAsSecret != nil {
				same = fmt.Sprintf("%v (%s)", *l.SameAsSecret, l.Secret)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", l.Address, l.SNI, l.Listener, l.Mode, cert, covers, probeOrDash(l.Validity), same, l.Verdict)
		}
		tw.Flush()
		for _, l := range lives {
			for _, p := range l.Problems {
				fmt.Fprintf(o.Out, "\nFINDING %s at %s: %s", l.SNI, l.Address, p)
			}
		}
		fmt.Fprintf(o.Out, "\n%d handshakes, %d findings\n", len(lives), bad)
	}
	if bad > 0 {
		return findingsError{bad}
	}
	return nil
}

func (o *ProbeOptions) runOCG(ctx context.Context, res *analyze.Result) error {
	pair, err := tls.LoadX509KeyPair(o.ClientCert, o.ClientKey)
	if err != nil {
		return usageErrorf("--client-cert/--client-key: %v", err)
	}
	var trust, meshTrust []*x509.Certificate
	for _, g := range res.Gateways {
		if g.Mesh != nil && (o.Gateway == "" || g.Gateway.Obj.Namespace+"/"+g.Gateway.Obj.Name == o.Gateway) {
			trust = append(trust, g.Mesh.TrustBundle...)
		}
	}
	for _, m := range res.Meshes {
		meshTrust = append(meshTrust, m.TrustBundle...)
	}
	sni := ""
	if len(o.SNIs) > 0 {
		sni = o.SNIs[0]
	}
	r := probe.OCGHandshake(ctx, probe.OCGOptions{Target: o.OCGTarget, ServerName: sni, ClientCertificate: pair,
		TrustBundle: trust, MeshTrust: meshTrust, Timeout: o.Timeout})
	if o.Output == "json" {
		if err := writeProbeJSON(o.Out, map[string]any{"ocg": r}); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(o.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "target\t%s (SNI %s)\n", r.Target, r.ServerName)
		fmt.Fprintf(tw, "ALPN offered\t%s\n", r.ALPNOffered)
		fmt.Fprintf(tw, "ALPN selected\t%s\n", probeOrDash(r.ALPNSelected))
		fmt.Fprintf(tw, "backend chain verifies (Gateway trust bundle)\t%v\n", r.ServerVerified)
		fmt.Fprintf(tw, "client certificate accepted\t%v\n", r.ClientAccepted)
		if r.ClientVerified != "" {
			fmt.Fprintf(tw, "client chain verifies (Mesh trust bundle)\t%s\n", r.ClientVerified)
		}
		fmt.Fprintf(tw, "verdict\t%s\n", r.Verdict)
		tw.Flush()
		for _, p := range r.Problems {
			fmt.Fprintf(o.Out, "FINDING: %s\n", p)
		}
	}
	if r.Verdict != probe.VerdictOK {
		return findingsError{len(r.Problems)}
	}
	return nil
}

func probeOrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func writeProbeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
