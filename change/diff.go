package change

import (
	"sync"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// Options steer a comparison.
type Options struct {
	// Now and WarnExpiry decide which certificates expire soon: those whose
	// leaf expires before Now+WarnExpiry (the engine's --now and --warn-expiry).
	Now        time.Time
	WarnExpiry time.Duration
}

// Diff is everything that differs between two configurations, each section in
// a stable order, and a list (empty, not nil) when nothing in it changed.
type Diff struct {
	// Hostnames are the requests, by Gateway, port and hostname, that either
	// side serves and that the two sides handle differently.
	Hostnames []Hostname `json:"hostnames"`
	// Routes are routes whose acceptance by a parent changed.
	Routes []Route `json:"routes"`
	// DNS and Certificates are the changes of the provisioning plans.
	DNS          []DNSRecord       `json:"dns"`
	Certificates []CertificateName `json:"certificates"`
	// Findings are the findings new in head and fixed since base.
	Findings []Finding `json:"findings"`
	// Migration is the comparison of the base's Ingresses with head's
	// Gateway API configuration; nil when the diff is not a migration.
	Migration *Migration `json:"migration,omitempty"`
}

// Compare is what changes from base to head. Both Results come from the one
// engine with the same options; their serving tables and plans are built here,
// both sides at once.
//
// A request that both sides' tables decide from equal inputs
// (serving.SameDecision) is decided on neither: its two decisions are equal
// in everything the comparison reads, so it has no change. Likewise the plans'
// records of a Gateway, and the certificate names of a listener, that are
// equal on both sides are not compared (comparePlansSkipping). compareAll,
// which decides every row and compares every record, is the same diff the
// slow way.
func Compare(base, head *analyze.Result, opts Options) *Diff {
	return compare(base, head, opts, false)
}

// compareAll is Compare deciding every row of both sides, skipping none: the
// oracle Compare's tests hold it to.
func compareAll(base, head *analyze.Result, opts Options) *Diff {
	return compare(base, head, opts, true)
}

func compare(base, head *analyze.Result, opts Options, all bool) *Diff {
	b, h := newSide(base, Base), newSide(head, Head)
	sides := []*side{b, h}
	onBoth := func(f func(s *side)) {
		var wg sync.WaitGroup
		for _, s := range sides {
			wg.Add(1)
			go func() {
				defer wg.Done()
				f(s)
			}()
		}
		wg.Wait()
	}
	onBoth((*side).prepare)
	if all {
		onBoth(func(s *side) { s.rows = s.table.Rows() })
	} else {
		onBoth(func(s *side) { s.digests = s.table.Digests() })
		onBoth(func(s *side) {
			s.rows = s.table.RowsWhere(func(p *serving.Port) bool {
				return !serving.SamePort(b.digests, h.digests, p.Gateway.Name, p.Number)
			}, func(p *serving.Port, req serving.Request) bool {
				return !serving.SameDecision(b.digests, h.digests, p.Gateway.Name, p.Number, req)
			})
		})
	}
	d := &Diff{}
	// The sections read the sides and write only their own part.
	sections := []func(){
		func() { d.Hostnames = compareHostnames(b, h, opts) },
		func() { d.Routes = compareRoutes(b, h) },
		func() {
			if all {
				d.DNS, d.Certificates = comparePlans(b.plan, h.plan)
			} else {
				d.DNS, d.Certificates = comparePlansSkipping(b.plan, h.plan, uniqueGateways(base) && uniqueGateways(head))
			}
		},
		func() { d.Findings = compareFindings(base.Findings, head.Findings) },
	}
	var wg sync.WaitGroup
	for _, f := range sections {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	wg.Wait()
	return d
}

// uniqueGateways reports whether no two of the Result's Gateways have one
// name.
func uniqueGateways(res *analyze.Result) bool {
	seen := make(map[model.NamespacedName]bool, len(res.Gateways))
	for _, g := range res.Gateways {
		n := model.NameOf(g.Gateway.Obj)
		if seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
}

// side is one configuration and what the comparison reads of it.
type side struct {
	name  Side
	res   *analyze.Result
	table *serving.Table
	// rows are the table's rows the comparison decided: every row, less those
	// both sides decide alike (Compare).
	rows    []*serving.Row
	digests *serving.Digests
	plan    analyze.Plan
	// routes finds a route by kind, namespace and name.
	routes map[model.Ref]*analyze.RouteResult
}

func newSide(res *analyze.Result, name Side) *side { return &side{name: name, res: res} }

// prepare builds what the comparison reads but the rows: the serving table,
// the plan, and the routes by name.
func (s *side) prepare() {
	s.table = serving.Build(s.res)
	s.plan = s.res.Plan()
	s.routes = make(map[model.Ref]*analyze.RouteResult, len(s.res.Routes))
	for _, rr := range s.res.Routes {
		s.routes[routeRef(rr.Route)] = rr
	}
}

func routeRef(r *model.Route) model.Ref {
	return model.Ref{Kind: r.Kind, Namespace: r.ObjectMeta.Namespace, Name: r.ObjectMeta.Name}
}

// Summary counts a diff's changes.
type Summary struct {
	// Changes is the number of changes of every kind; Regressions those that can
	// fail the run, by severity in Errors, Warnings and Info.
	Changes     int `json:"changes"`
	Regressions int `json:"regressions"`
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
	Info        int `json:"info"`
	// Kinds counts changes by kind.
	Kinds map[Kind]int `json:"kinds"`
}

// Summary counts the diff's changes.
func (d *Diff) Summary() Summary {
	s := Summary{Kinds: map[Kind]int{}}
	d.Each(func(c *Change) {
		s.Changes++
		s.Kinds[c.Kind]++
		if !c.Regression {
			return
		}
		s.Regressions++
		switch *c.Severity {
		case analyze.SeverityError:
			s.Errors++
		case analyze.SeverityWarning:
			s.Warnings++
		default:
			s.Info++
		}
	})
	return s
}

// CountAtOrAbove is the number of regressions of severity sev or higher: the
// changes that fail a run with --fail-on sev.
func (d *Diff) CountAtOrAbove(sev analyze.Severity) int {
	n := 0
	d.Each(func(c *Change) {
		if c.Regression && *c.Severity >= sev {
			n++
		}
	})
	return n
}

// Each calls f on every change, section by section, in order.
func (d *Diff) Each(f func(*Change)) {
	for i := range d.Hostnames {
		for j := range d.Hostnames[i].Changes {
			f(&d.Hostnames[i].Changes[j])
		}
	}
	for i := range d.Routes {
		for j := range d.Routes[i].Changes {
			f(&d.Routes[i].Changes[j])
		}
	}
	for i := range d.DNS {
		for j := range d.DNS[i].Changes {
			f(&d.DNS[i].Changes[j])
		}
	}
	for i := range d.Certificates {
		for j := range d.Certificates[i].Changes {
			f(&d.Certificates[i].Changes[j])
		}
	}
	for i := range d.Findings {
		for j := range d.Findings[i].Changes {
			f(&d.Findings[i].Changes[j])
		}
	}
}
