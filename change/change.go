// Package change is what a change to a configuration does to traffic: two
// analyses of it, base and head, compared as serving tables, as routes'
// acceptance, as provisioning plans and as findings.
//
// The engine decides both sides and the serving package indexes them; this
// package decides nothing about Gateway API itself. It asks each side's serving
// table what happens to every request either side serves, and says what
// differs: which hostnames are gained and lost, which route, listener,
// certificate and backends take a hostname, which routes are newly accepted or
// rejected, which DNS records and certificate names the plans add and remove,
// and which findings are new and fixed. Some changes are regressions: they fail
// a run at or above --fail-on.
package change

import (
	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Kind names one kind of change.
type Kind string

// Hostname changes: what happens to the requests for a hostname on a Gateway
// port.
const (
	// HostnameAdded: a route takes requests for the hostname that no route took.
	HostnameAdded Kind = "HostnameAdded"
	// HostnameRemoved: no route takes requests for the hostname any more.
	HostnameRemoved Kind = "HostnameRemoved"
	// HostnameRefused: a route still takes the hostname, but its requests are
	// refused now (no usable certificate, no backend that resolves): lost to a
	// client as surely as a removed one.
	HostnameRefused Kind = "HostnameRefused"
	// HostnameRestored: requests that were refused are served.
	HostnameRestored Kind = "HostnameRestored"
	// Takeover: a route in another namespace than the route that claimed the
	// hostname takes it now. Gateway API lets routes of any namespace a listener
	// allows claim any hostname it serves (the more specific hostname, then the
	// oldest route wins), so one team's change can capture another team's
	// traffic without touching its objects; and a name its owner stops
	// claiming falls to whatever route matches next.
	Takeover Kind = "Takeover"
	// RouteChanged: another route of the same namespace takes the hostname.
	RouteChanged Kind = "RouteChanged"
	// HostnameClaimed: a route takes a hostname that only its listener's
	// default route took (a route that names no hostname narrower than the
	// listener's): the way a hostname is added beside a catch-all.
	HostnameClaimed Kind = "HostnameClaimed"
	// ListenerChanged: another listener takes the hostname, or the listener's
	// protocol or TLS mode changed (Terminate to Passthrough moves TLS to the
	// backend).
	ListenerChanged Kind = "ListenerChanged"
	// CertificateChanged: the certificate presented for the hostname is another
	// one (another Secret, or another leaf by SHA-256).
	CertificateChanged Kind = "CertificateChanged"
	// CoverageLost: the certificate presented for the hostname covered it and
	// does not now; clients reject the handshake (RFC 6125; a wildcard covers one
	// label).
	CoverageLost Kind = "CoverageLost"
	// CoverageGained: the certificate presented covers the hostname now.
	CoverageGained Kind = "CoverageGained"
	// CertificateExpiring: the certificate presented for the hostname expires
	// within --warn-expiry of --now (or has expired), and the base's did not.
	CertificateExpiring Kind = "CertificateExpiring"
	// BackendsChanged: the backends the hostname's route forwards to changed
	// (Service, port, weight, or whether they resolve).
	BackendsChanged Kind = "BackendsChanged"
	// BackendTLSRemoved: a backend that a BackendTLSPolicy applied to has none
	// now: the Gateway connects to it without TLS (GEP-1897).
	BackendTLSRemoved Kind = "BackendTLSRemoved"
	// BackendTLSChanged: a backend has a BackendTLSPolicy now, another one, or
	// one whose validation (hostname, CA, subjectAltNames) changed.
	BackendTLSChanged Kind = "BackendTLSChanged"
)

// Route changes: a route's acceptance by one of its parents.
const (
	// RouteRejected: a parent does not accept the route, and accepted it or did
	// not know it (a new route, a new parentRef).
	RouteRejected Kind = "RouteRejected"
	// RouteAccepted: a parent accepts the route, and rejected it or did not
	// know it.
	RouteAccepted Kind = "RouteAccepted"
	// RouteDetached: a parent that accepted the route does not have it: the
	// route or its parentRef is gone.
	RouteDetached Kind = "RouteDetached"
)

// Plan changes: DNS records and certificate names to provision or remove
// (spec 003 "Programmatic use of the hostname field").
const (
	DNSRecordAdded   Kind = "DNSRecordAdded"
	DNSRecordRemoved Kind = "DNSRecordRemoved"
	// DNSRecordChanged: the record's addresses changed.
	DNSRecordChanged       Kind = "DNSRecordChanged"
	CertificateNameAdded   Kind = "CertificateNameAdded"
	CertificateNameRemoved Kind = "CertificateNameRemoved"
)

// Finding changes.
const (
	// FindingNew: a finding of head that base does not have (by
	// analyze.Finding.Key). Its severity is the finding's.
	FindingNew   Kind = "FindingNew"
	FindingFixed Kind = "FindingFixed"
)

// regressions are the kinds that can fail a run, and their severity; every
// other kind is reported and never fails one. FindingNew takes the finding's
// severity.
var regressions = map[Kind]analyze.Severity{
	HostnameRemoved:     analyze.SeverityError,
	HostnameRefused:     analyze.SeverityError,
	Takeover:            analyze.SeverityError,
	RouteRejected:       analyze.SeverityError,
	CoverageLost:        analyze.SeverityError,
	RouteChanged:        analyze.SeverityWarning,
	CertificateExpiring: analyze.SeverityWarning,
	BackendTLSRemoved:   analyze.SeverityWarning,
}

// Regression reports whether changes of the kind can fail a run, and at which
// severity.
func Regression(k Kind) (analyze.Severity, bool) {
	sev, ok := regressions[k]
	return sev, ok
}

// Side is one of the two configurations compared.
type Side string

const (
	Base Side = "base"
	Head Side = "head"
)

// Change is one thing that differs between base and head.
type Change struct {
	Kind Kind `json:"kind"`
	// Regression is whether the change can fail the run; Severity is what
	// --fail-on compares, and is only set for regressions.
	Regression bool              `json:"regression"`
	Severity   *analyze.Severity `json:"severity,omitempty"`
	Message    string            `json:"message"`
	// From and To say what it was and what it is, in a few words each; empty
	// for what one side does not have.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// Source is where to look: the object that changed, on the side that has it
	// (head when it does, else base, where it was removed from). Plan changes
	// have none: the hostname changes that cause them do.
	Source *model.Source `json:"source,omitempty"`
	Side   Side          `json:"side,omitempty"`
	// Related is where the object on the other side is, when a change has
	// one: for an Ingress migration's finding (on the Ingress, in base), the
	// Gateway API object in head that decides the request.
	Related *model.Source `json:"related,omitempty"`
}

func newChange(k Kind, msg, from, to string, at located) Change {
	c := Change{Kind: k, Message: msg, From: from, To: to, Side: at.side}
	if at.side != "" {
		src := at.source
		c.Source = &src
	}
	if sev, ok := regressions[k]; ok {
		c.Regression, c.Severity = true, &sev
	}
	return c
}

// located is where a change is: an object's source and the side it is on.
type located struct {
	source model.Source
	side   Side
}
