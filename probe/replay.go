package probe

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/rules"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// ReplayOptions configure the replay client.
type ReplayOptions struct {
	// SNIs are extra server names to try on every socket, beside every intersected
	// hostname; ones no listener or route takes must be refused.
	SNIs []string
	// Roots verify presented chains (--ca-bundle); nil: each chain's own root.
	Roots       *x509.CertPool
	Timeout     time.Duration // per handshake, default 5s
	Concurrency int           // default 4
	Now         time.Time
}

// Replay is one real client handshake through the proxy and what it proved.
type Replay struct {
	Gateway string `json:"gateway"`
	Port    int32  `json:"port"`
	Address string `json:"address"`
	SNI     string `json:"sni"`
	// Predicted is simulate's answer for the request.
	Predicted simulate.Outcome `json:"predicted"`
	// Listener is the listener the proxy terminated or passed through on.
	Listener string `json:"listener,omitempty"`
	// Reached is the built-in backend's identification (nil when no backend answered,
	// or a --backend mapped one answered something else).
	Reached   *Identification `json:"reached,omitempty"`
	Response  string          `json:"response,omitempty"`
	Refused   bool            `json:"refused"`
	TLS       *Handshake      `json:"tls,omitempty"`
	Proxy     *ConnRecord     `json:"proxy,omitempty"`
	Verdict   Verdict         `json:"verdict"`
	Problems  []string        `json:"problems,omitempty"`
	Notes     []string        `json:"notes,omitempty"`
	predicted predictedCert
}

type predictedCert struct {
	fingerprint, secret string
	// oversizedKey names a key in the chain that Go clients refuse.
	oversizedKey string
}

// Replay makes, through the running proxy, a client handshake for every name
// the serving table serves on a socket's port and for every extra SNI, and
// compares each with simulate's prediction.
func (p *Proxy) Replay(ctx context.Context, o ReplayOptions) Replays {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Second
	}
	if o.Concurrency <= 0 {
		o.Concurrency = 4
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	var todo Replays
	for _, s := range p.sockets {
		for _, row := range s.port.Rows() {
			if row.Request.SNI != "" {
				todo = append(todo, s.replay(row.Request.SNI, row.Decision))
			}
		}
	}
	for _, sni := range o.SNIs {
		for _, s := range p.sockets {
			todo = append(todo, s.replay(sni, s.port.Decide(serving.Request{SNI: sni})))
		}
	}
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			p.replayOne(ctx, &todo[i], o)
		}()
	}
	wg.Wait()
	return todo
}

// replay is a handshake to make on the socket, with what the configuration
// promises for it: simulate's outcome and the certificate a terminating listener
// presents.
func (s *socket) replay(sni string, d serving.Decision) Replay {
	r := Replay{Gateway: s.Gateway, Port: s.Port, Address: s.Address, SNI: sni,
		Predicted: simulate.OutcomeOf(simulate.Request{SNI: sni, Port: s.Port, Gateway: s.Gateway}, d)}
	if c := d.Certificate; d.Refusal == serving.Served && d.Listener.Mode == gwv1.TLSModeTerminate && c != nil && c.Leaf() != nil {
		r.predicted = predictedCert{c.SHA256(), c.Secret.String(), oversizedRSAKey(c.Ref.Chain)}
	}
	return r
}

// HTTPRequest is what the replay client sends once TLS is up: built-in backends
// answer it with their identification.
func HTTPRequest(host string) string {
	return "GET / HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: kubectl-gwtls-probe\r\nConnection: close\r\n\r\n"
}

func (p *Proxy) replayOne(ctx context.Context, r *Replay, o ReplayOptions) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	d := &net.Dialer{}
	raw, err := d.DialContext(ctx, "tcp", r.Address)
	if err != nil {
		r.Verdict, r.Problems = VerdictMismatch, []string{"cannot connect to the proxy: " + err.Error()}
		return
	}
	defer raw.Close()
	deadline, _ := ctx.Deadline()
	raw.SetDeadline(deadline)
	local := raw.LocalAddr().String()
	// The chain is verified below, after the handshake, so that a certificate that
	// does not verify is reported rather than hiding everything else.
	tc := tls.Client(raw, &tls.Config{ServerName: r.SNI, InsecureSkipVerify: true, NextProtos: []string{"http/1.1"}})
	herr := tc.HandshakeContext(ctx)
	var resp []byte
	if herr == nil {
		if _, err := io.WriteString(tc, HTTPRequest(r.SNI)); err == nil {
			resp, _ = io.ReadAll(io.LimitReader(tc, 64<<10))
		}
	}
	tc.Close()
	r.Proxy = p.waitRecord(local)
	if r.Proxy != nil {
		r.Listener = r.Proxy.listener
	}
	if herr == nil {
		roots, now, against := o.Roots, o.Now, ""
		if p.servesOwnCertificate(r) {
			// The built-in backend's certificate is the probe's, issued for
			// this run: it verifies against the probe's CA at the current time,
			// whatever --ca-bundle and --now say of the configuration's.
			roots, now, against = x509.NewCertPool(), time.Now(), "the probe's CA (a built-in backend's own certificate)"
			roots.AddCert(p.reg.ca.Cert)
		}
		r.TLS = describeHandshake(tc.ConnectionState(), r.SNI, roots, against, now)
	}
	r.Response = string(resp)
	r.Reached, _ = ParseIdentification(r.Response)
	r.Refused = r.Reached == nil && (len(resp) == 0 || r.Proxy != nil && r.Proxy.refused)
	r.judge(herr)
}

// servesOwnCertificate reports whether the replayed connection reached a
// built-in passthrough backend with the certificate the probe issued it.
func (p *Proxy) servesOwnCertificate(r *Replay) bool {
	return r.Proxy != nil && r.Proxy.builtin && r.Predicted.Mode == string(gwv1.TLSModePassthrough) && p.opts.PassthroughCertificate == nil
}

// waitRecord waits briefly for the proxy's account of a connection: the proxy
// stores it before it closes or relays, but the client may see the end first.
func (p *Proxy) waitRecord(client string) *ConnRecord {
	for range 50 {
		if rec := p.Record(client); rec != nil {
			return rec
		}
		time.Sleep(2 * time.Millisecond)
	}
	return nil
}

func (r *Replay) judge(herr error) {
	problem := func(v Verdict, format string, args ...any) {
		if r.Verdict != VerdictMismatch {
			r.Verdict = v
		}
		r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
	}
	out := r.Predicted
	why := ""
	if r.Proxy != nil && r.Proxy.Error != "" {
		why = ": " + r.Proxy.Error
	} else if herr != nil {
		why = ": " + herr.Error()
	}
	if out.Outcome != simulate.Routed {
		if !r.Refused {
			problem(VerdictMismatch, "predicted refused (%s), but the connection was answered: %q", out.Reason, firstLine(r.Response))
		}
		if r.Verdict == "" {
			r.Verdict = VerdictOK
		}
		return
	}
	if r.Proxy != nil && r.Proxy.BackendError != "" {
		// Routed as predicted; the backend is what failed.
		problem(VerdictFinding, "%s: clients get %s", r.Proxy.BackendError, backendFailureSeen(r.Proxy))
		return
	}
	if herr != nil && r.predicted.oversizedKey != "" {
		// The client refused the certificate before the proxy could say why:
		// name the cause, which the configuration holds.
		problem(VerdictFinding, "the certificate from Secret %s has %s: Go's crypto/tls refuses RSA keys over %d bits (since Go 1.22; GODEBUG tlsmaxrsasize), so Go clients fail the handshake (%v)",
			r.predicted.secret, r.predicted.oversizedKey, rules.GoMaxRSAKeyBits, herr)
		return
	}
	if r.Refused || herr != nil {
		problem(VerdictMismatch, "predicted routed to %s, but the connection failed%s", routeName(out), why)
		return
	}
	if r.Reached != nil && r.Proxy != nil {
		if r.Reached.Backend != r.Proxy.Backend {
			problem(VerdictMismatch, "reached backend %s, the configuration picks %s", r.Reached.Backend, r.Proxy.Backend)
		}
		if want := routeName(out); r.Reached.Route != want {
			problem(VerdictMismatch, "reached route %s, predicted %s", r.Reached.Route, want)
		}
	} else if r.Reached == nil {
		r.Notes = append(r.Notes, "the backend did not identify itself (a --backend mapped one?): "+firstLine(r.Response))
	}
	if out.Mode == string(gwv1.TLSModeTerminate) {
		if r.TLS != nil && len(r.TLS.Chain) > 0 && r.predicted.fingerprint != "" && r.TLS.Chain[0].SHA256 != r.predicted.fingerprint {
			problem(VerdictMismatch, "presented a certificate other than Secret %s's", r.predicted.secret)
		}
		if bt := backendTLSFor(out, r.Proxy); bt != nil && r.Reached != nil && r.Reached.SNI != bt.Hostname {
			problem(VerdictMismatch, "re-encrypted with SNI %q, BackendTLSPolicy %s says %q", r.Reached.SNI, bt.Policy, bt.Hostname)
		}
	}
	if r.TLS != nil {
		if !r.TLS.CoversSNI {
			names := []string{}
			if len(r.TLS.Chain) > 0 {
				names = r.TLS.Chain[0].DNSNames
			}
			what := "the certificate"
			if r.predicted.secret != "" {
				what = "the certificate from Secret " + r.predicted.secret
			}
			problem(VerdictFinding, "%s does not cover SNI %s (DNS names %v): clients will reject it", what, r.SNI, names)
		}
		switch v := r.TLS.Verified; v.Status {
		case ChainUnverifiable:
			r.Notes = append(r.Notes, v.Err.Error())
		case ChainNotVerified:
			problem(VerdictFinding, "the chain does not verify: %v", v.Err)
		}
	}
	if r.Proxy != nil && r.Proxy.BackendTLS != "" {
		r.Notes = append(r.Notes, "backend TLS: "+r.Proxy.BackendTLS)
	}
	if r.Verdict == "" {
		r.Verdict = VerdictOK
	}
}

// backendFailureSeen is what a client sees of a backend that did not answer.
func backendFailureSeen(rec *ConnRecord) string {
	if rec.Status != 0 {
		return fmt.Sprintf("%d %s", rec.Status, http.StatusText(rec.Status))
	}
	return "a closed connection"
}

// backendTLSFor is the BackendTLS of the backend the proxy picked.
func backendTLSFor(out simulate.Outcome, rec *ConnRecord) *simulate.BackendTLS {
	if rec == nil {
		return nil
	}
	for _, b := range out.Backends {
		if BackendKey(b.Namespace, b.Name, b.Port) == rec.Backend {
			return b.BackendTLS
		}
	}
	return nil
}

func routeName(out simulate.Outcome) string {
	if out.Route == nil {
		return ""
	}
	return out.Route.Kind + "/" + out.Route.Namespace + "/" + out.Route.Name
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}
