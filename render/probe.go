package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/probe"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// ProbeReplays writes the local proxy's sockets, one row per replayed handshake
// (what simulate predicted, what the client reached and saw, the verdict), each
// problem, and the count.
func ProbeReplays(w io.Writer, sockets []probe.Socket, rs probe.Replays) error {
	fmt.Fprintln(w, "Local proxy:")
	for _, s := range sockets {
		fmt.Fprintf(w, "  %s port %d on %s\n", TerminalText(s.Gateway), s.Port, TerminalText(s.Address))
	}
	fmt.Fprintln(w)
	rows := make([][]string, 0, len(rs)+1)
	rows = append(rows, []string{"GATEWAY", "PORT", "SNI", "PREDICTED", "REACHED", "TLS", "ALPN", "CERTIFICATE", "VERIFIED", "VERDICT"})
	for _, r := range rs {
		predicted := r.Predicted.Outcome
		if r.Predicted.Route != nil && r.Predicted.Outcome == simulate.Routed {
			predicted = r.Predicted.Mode + " " + r.Predicted.Route.Kind + "/" + r.Predicted.Route.Name
		}
		reached := "refused"
		if r.Reached != nil {
			reached = r.Reached.Backend
			if r.Reached.SNI != "" {
				reached += " (sni " + r.Reached.SNI + ")"
			}
		} else if r.Proxy != nil && r.Proxy.BackendError != "" {
			reached = r.Proxy.Backend + " (failed)"
		} else if !r.Refused {
			reached = "?"
		}
		tlsv, alpn, cert, verified := "-", "-", "-", "-"
		if h := r.TLS; h != nil {
			tlsv = h.Version + " " + h.CipherSuite
			alpn = dash(h.ALPN)
			if len(h.Chain) > 0 {
				cert = h.Chain[0].Subject
			}
			verified = h.Verified.Status.String()
			if !h.CoversSNI {
				verified += ", not for SNI"
			}
		}
		rows = append(rows, terminalRow(r.Gateway, fmt.Sprint(r.Port), r.SNI, predicted, reached, tlsv, alpn, cert, verified, string(r.Verdict)))
	}
	if err := writeColumns(w, rows); err != nil {
		return err
	}
	for _, r := range rs {
		for _, p := range r.Problems {
			fmt.Fprintf(w, "\n%s %s: %s", strings.ToUpper(string(r.Verdict)), TerminalText(r.SNI), TerminalLines(p))
		}
	}
	bad := rs.Findings()
	_, err := fmt.Fprintf(w, "\n%d handshakes, %d as the configuration promises, %d findings\n", len(rs), len(rs)-bad, bad)
	return err
}

// ProbeLive writes one row per handshake with a live address (the certificate
// presented, whether it covers the SNI, is valid and is the Secret's), each
// finding, and the count.
func ProbeLive(w io.Writer, lives probe.Lives) error {
	rows := make([][]string, 0, len(lives)+1)
	rows = append(rows, []string{"ADDRESS", "SNI", "LISTENER", "MODE", "CERTIFICATE", "COVERS SNI", "VALIDITY", "SAME AS SECRET", "VERDICT"})
	for _, l := range lives {
		cert, covers, same := "-", "-", "-"
		if l.TLS != nil && len(l.TLS.Chain) > 0 {
			cert = l.TLS.Chain[0].Subject + " sha256:" + l.TLS.Chain[0].SHA256[:16]
			covers = fmt.Sprint(l.TLS.CoversSNI)
		}
		if l.SameAsSecret != nil {
			same = fmt.Sprintf("%v (%s)", *l.SameAsSecret, l.Secret)
		}
		rows = append(rows, terminalRow(l.Address, l.SNI, l.Listener, l.Mode, cert, covers, dash(string(l.Validity)), same, string(l.Verdict)))
	}
	if err := writeColumns(w, rows); err != nil {
		return err
	}
	for _, l := range lives {
		for _, p := range l.Problems {
			fmt.Fprintf(w, "\nFINDING %s at %s: %s", TerminalText(l.SNI), TerminalText(l.Address), TerminalLines(p))
		}
	}
	_, err := fmt.Fprintf(w, "\n%d handshakes, %d findings\n", len(lives), lives.Findings())
	return err
}

// ProbeOCG writes what an out-of-cluster Gateway's handshake showed, one fact a
// line, then each finding.
func ProbeOCG(w io.Writer, r probe.OCG) error {
	rows := [][]string{
		{"target", fmt.Sprintf("%s (SNI %s)", r.Target, r.ServerName)},
		{"ALPN offered", r.ALPNOffered},
		{"ALPN selected", dash(r.ALPNSelected)},
		{"backend chain verifies (Gateway trust bundle)", fmt.Sprint(r.ServerVerified)},
		{"client certificate accepted", fmt.Sprint(r.ClientAccepted)},
	}
	if r.ClientVerified != nil {
		rows = append(rows, []string{"client chain verifies (Mesh trust bundle)", r.ClientVerified.String()})
	}
	rows = append(rows, []string{"verdict", string(r.Verdict)})
	for i, row := range rows {
		rows[i] = terminalRow(row...)
	}
	if err := writeColumns(w, rows); err != nil {
		return err
	}
	for _, p := range r.Problems {
		if _, err := fmt.Fprintf(w, "FINDING: %s\n", TerminalLines(p)); err != nil {
			return err
		}
	}
	return nil
}
