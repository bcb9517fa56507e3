package change

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// Route is a route whose acceptance by one of its parents changed.
type Route struct {
	Route  model.Ref `json:"route"`
	Parent Parent    `json:"parent"`
	// Base and Head are the parent's Accepted condition on each side; nil when
	// the side does not have the route or this parentRef.
	Base    *Acceptance `json:"base"`
	Head    *Acceptance `json:"head"`
	Changes []Change    `json:"changes"`
}

// Parent is a parentRef with its defaults (GEP-1426): kind Gateway, the
// route's namespace.
type Parent struct {
	Kind        string `json:"kind"`
	Namespace   string `json:"namespace"`
	Name        string `json:"name"`
	SectionName string `json:"sectionName,omitempty"`
	Port        int32  `json:"port,omitempty"`
}

func (p Parent) String() string {
	s := p.Kind + " " + p.Namespace + "/" + p.Name
	if p.SectionName != "" {
		s += " sectionName " + p.SectionName
	}
	if p.Port != 0 {
		s += fmt.Sprintf(" port %d", p.Port)
	}
	return s
}

// Acceptance is a parent's Accepted condition.
type Acceptance struct {
	Accepted bool   `json:"accepted"`
	Reason   string `json:"reason"`
	Message  string `json:"message"`
}

func (a *Acceptance) label() string {
	if a == nil {
		return ""
	}
	if a.Accepted {
		return "accepted"
	}
	return "rejected: " + a.Reason
}

// compareRoutes compares every decided parent of every route on both sides.
// Parents no controller in scope decides (another controller's Gateway) have
// no acceptance to compare.
func compareRoutes(b, h *side) []Route {
	out := []Route{}
	for _, hr := range h.res.Routes {
		ref := routeRef(hr.Route)
		br := b.routes[ref]
		for _, hp := range hr.Parents {
			if !decided(hp) {
				continue
			}
			par := parentOf(hp)
			bp := findParent(br, par)
			if bp != nil && decided(bp) && bp.Accepted() == hp.Accepted() {
				continue // unchanged; a rejection's new reason is a new finding
			}
			// The conditions' messages are built only for what changed: there
			// are hundreds of thousands of parents at scale.
			ha := acceptance(hp)
			var ba *Acceptance
			if bp != nil && decided(bp) {
				ba = acceptance(bp)
			}
			at := located{hr.Route.Source, Head}
			if !ha.Accepted {
				msg := fmt.Sprintf("%s rejects %s: %s: %s", par, ref, ha.Reason, ha.Message)
				if ba == nil {
					msg = fmt.Sprintf("%s rejects %s, which it did not have: %s: %s", par, ref, ha.Reason, ha.Message)
				}
				out = append(out, Route{Route: ref, Parent: par, Base: ba, Head: ha,
					Changes: []Change{newChange(RouteRejected, msg, ba.label(), ha.label(), at)}})
				continue
			}
			msg := fmt.Sprintf("%s accepts %s: %s", par, ref, ha.Message)
			if ba != nil {
				msg += fmt.Sprintf(" (it rejected it: %s: %s)", ba.Reason, ba.Message)
			}
			out = append(out, Route{Route: ref, Parent: par, Base: ba, Head: ha,
				Changes: []Change{newChange(RouteAccepted, msg, ba.label(), ha.label(), at)}})
		}
	}
	for _, br := range b.res.Routes {
		ref := routeRef(br.Route)
		hr := h.routes[ref]
		for _, bp := range br.Parents {
			if !bp.Accepted() {
				continue
			}
			par := parentOf(bp)
			if hp := findParent(hr, par); hp != nil && decided(hp) {
				continue
			}
			why, at := "the route is gone", located{br.Route.Source, Base}
			if hr != nil {
				why, at = "the route no longer names it in parentRefs", located{hr.Route.Source, Head}
			}
			ba := acceptance(bp)
			out = append(out, Route{Route: ref, Parent: par, Base: ba,
				Changes: []Change{newChange(RouteDetached, fmt.Sprintf("%s no longer has %s: %s", par, ref, why), ba.label(), "", at)}})
		}
	}
	slices.SortFunc(out, func(x, y Route) int {
		return cmp.Or(strings.Compare(x.Route.Kind, y.Route.Kind), strings.Compare(x.Route.Namespace, y.Route.Namespace),
			strings.Compare(x.Route.Name, y.Route.Name), strings.Compare(x.Parent.Kind, y.Parent.Kind),
			strings.Compare(x.Parent.Namespace, y.Parent.Namespace), strings.Compare(x.Parent.Name, y.Parent.Name),
			strings.Compare(x.Parent.SectionName, y.Parent.SectionName), cmp.Compare(x.Parent.Port, y.Parent.Port))
	})
	return out
}

// decided reports whether a controller in scope decides the parent: it
// accepts or rejects the route. Another controller's Gateway does neither.
func decided(p *analyze.ParentResult) bool { return p.Accepted() || p.Rejected() }

// acceptance is a decided parent's Accepted condition.
func acceptance(p *analyze.ParentResult) *Acceptance {
	c, _ := p.AcceptedCondition()
	return &Acceptance{Accepted: p.Accepted(), Reason: c.Reason, Message: c.Message}
}

func parentOf(p *analyze.ParentResult) Parent {
	r := p.Ref
	out := Parent{Kind: "Gateway", Namespace: p.Route.Route.ObjectMeta.Namespace, Name: string(r.Name)}
	if r.Kind != nil {
		out.Kind = string(*r.Kind)
	}
	if r.Namespace != nil && *r.Namespace != "" {
		out.Namespace = string(*r.Namespace)
	}
	if r.SectionName != nil {
		out.SectionName = string(*r.SectionName)
	}
	if r.Port != nil {
		out.Port = int32(*r.Port)
	}
	return out
}

// findParent is the route's parent with the same parentRef, nil when the route
// is nil or has none.
func findParent(rr *analyze.RouteResult, par Parent) *analyze.ParentResult {
	if rr == nil {
		return nil
	}
	for _, p := range rr.Parents {
		if parentOf(p) == par {
			return p
		}
	}
	return nil
}
