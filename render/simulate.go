package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// SimulationTable writes outcomes as a table, one request a row.
func SimulationTable(w io.Writer, outs []simulate.Outcome, st Style) error {
	rows := make([][]string, 0, len(outs)+1)
	rows = append(rows, []string{"GATEWAY", "PORT", "SNI", "HOST", "LISTENER", "MODE", "ROUTE", "CERTIFICATE", "BACKENDS", "OUTCOME"})
	for _, o := range outs {
		route, cert := "-", "-"
		if o.Route != nil {
			route = o.Route.String()
		}
		if c := o.Certificate; c != nil {
			mark := "verifies"
			if !c.VerifiesForSNI {
				mark = "DOES NOT verify"
			}
			cert = fmt.Sprintf("%s (%s)", c.Secret, mark)
		}
		var bs []string
		for _, b := range o.Backends {
			bs = append(bs, simulatedBackend(b))
		}
		for _, b := range o.Mirrors {
			bs = append(bs, "mirror "+simulatedBackend(b))
		}
		outcome := st.paint(okStyle, o.Outcome)
		if o.Outcome != simulate.Routed {
			outcome = st.paint(errorStyle, o.Outcome) + ": " + terminalCell(o.Reason)
		}
		host := o.Request.Host
		if host == o.Request.SNI {
			host = ""
		}
		rows = append(rows, []string{TerminalText(dash(o.Gateway)), fmt.Sprint(o.Request.Port), TerminalText(dash(o.Request.SNI)), TerminalText(dash(host)), TerminalText(dash(o.Listener)),
			TerminalText(dash(o.Mode)), TerminalText(route), TerminalText(cert), TerminalText(dash(strings.Join(bs, ", "))), outcome})
	}
	return writeColumns(w, rows)
}

func simulatedBackend(b simulate.Backend) string {
	s := fmt.Sprintf("%s:%d", model.NamespacedName{Namespace: b.Namespace, Name: b.Name}, b.Port)
	if b.BackendTLS != nil {
		s += " tls=" + b.BackendTLS.Hostname
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
