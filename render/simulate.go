package render

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// SimulationTable writes outcomes as a table, one request a row.
func SimulationTable(w io.Writer, outs []simulate.Outcome, st Style) error {
	var buf bytes.Buffer
	t := newTable(&buf, []string{"GATEWAY", "PORT", "SNI", "HOST", "LISTENER", "MODE", "ROUTE", "CERTIFICATE", "BACKENDS", "OUTCOME"})
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
			s := fmt.Sprintf("%s/%s:%d", b.Namespace, b.Name, b.Port)
			if b.BackendTLS != nil {
				s += " tls=" + b.BackendTLS.Hostname
			}
			bs = append(bs, s)
		}
		outcome := st.paint(okStyle, o.Outcome)
		if o.Outcome != simulate.Routed {
			outcome = st.paint(errorStyle, o.Outcome) + ": " + o.Reason
		}
		host := o.Request.Host
		if host == o.Request.SNI {
			host = ""
		}
		if err := t.Append([]string{dash(o.Gateway), fmt.Sprint(o.Request.Port), dash(o.Request.SNI), dash(host), dash(o.Listener), dash(o.Mode), route, cert, dash(strings.Join(bs, ", ")), outcome}); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	return writeTrimmed(w, buf.String())
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// newTable is the borderless, left-aligned table every text output uses.
func newTable(w io.Writer, header []string) *tablewriter.Table {
	return tablewriter.NewTable(w,
		tablewriter.WithHeader(header),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithRendition(tw.Rendition{Borders: tw.BorderNone, Settings: tw.Settings{
			Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off}, Lines: tw.Lines{ShowHeaderLine: tw.Off}}}),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
	)
}
