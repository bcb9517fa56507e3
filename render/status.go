// Package render turns the engine's Result into what users and machines read:
// computed status, findings as tables, JSON, YAML and CI formats.
package render

import (
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/yaml"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// StatusItems returns every Gateway, ListenerSet, route and BackendTLSPolicy of the
// input, as written (apiVersion included), with .status replaced by what a
// conformant controller would write. Objects no in-scope controller owns keep the
// status they had.
func StatusItems(res *analyze.Result) ([]map[string]any, error) {
	var items []map[string]any
	add := func(meta model.Meta, status any) error {
		obj := map[string]any{}
		if err := json.Unmarshal(meta.Raw, &obj); err != nil {
			return fmt.Errorf("%s: %w", meta.Source, err)
		}
		if status != nil {
			st, err := toMap(status)
			if err != nil {
				return err
			}
			obj["status"] = st
		}
		items = append(items, obj)
		return nil
	}
	gateways := map[*model.Gateway]*analyze.GatewayResult{}
	for _, g := range res.Gateways {
		gateways[g.Gateway] = g
	}
	for _, g := range res.Model.Gateways {
		var st any
		if gr := gateways[g]; gr != nil {
			st = gatewayStatus(gr, g)
		}
		if err := add(g.Meta, st); err != nil {
			return nil, err
		}
	}
	sets := map[*model.ListenerSet]*analyze.ListenerSetResult{}
	for _, ls := range res.ListenerSets {
		sets[ls.ListenerSet] = ls
	}
	for _, ls := range res.Model.ListenerSets {
		var st any
		if lr := sets[ls]; lr != nil {
			st = listenerSetStatus(lr)
		}
		if err := add(ls.Meta, st); err != nil {
			return nil, err
		}
	}
	for _, rr := range res.Routes {
		if err := add(rr.Route.Meta, routeStatus(rr)); err != nil {
			return nil, err
		}
	}
	for _, pr := range res.BackendTLSPolicies {
		if err := add(pr.Policy.Meta, policyStatus(pr)); err != nil {
			return nil, err
		}
	}
	return items, nil
}

func toMap(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	return m, json.Unmarshal(b, &m)
}

func gatewayStatus(g *analyze.GatewayResult, gw *model.Gateway) gwv1.GatewayStatus {
	st := gwv1.GatewayStatus{
		// Addresses are assigned by the data plane; keep what the input recorded.
		Addresses:  gw.Obj.Status.Addresses,
		Conditions: analyze.Plain(g.Conditions),
		Listeners:  make([]gwv1.ListenerStatus, 0, len(g.Listeners)),
	}
	for _, l := range g.Listeners {
		st.Listeners = append(st.Listeners, gwv1.ListenerStatus{
			Name:           l.Listener.Name,
			SupportedKinds: l.SupportedKinds,
			AttachedRoutes: l.AttachedRoutes(),
			Conditions:     analyze.Plain(l.Conditions),
		})
	}
	n := g.AttachedListenerSets
	st.AttachedListenerSets = &n
	return st
}

func listenerSetStatus(ls *analyze.ListenerSetResult) gwv1.ListenerSetStatus {
	st := gwv1.ListenerSetStatus{Conditions: analyze.Plain(ls.Conditions)}
	if !ls.Allowed || ls.Parent == nil {
		return st
	}
	for _, l := range ls.Listeners {
		if l.Conditions == nil {
			continue
		}
		st.Listeners = append(st.Listeners, gwv1.ListenerEntryStatus{
			Name:           l.Listener.Name,
			SupportedKinds: l.SupportedKinds,
			AttachedRoutes: l.AttachedRoutes(),
			Conditions:     analyze.Plain(l.Conditions),
		})
	}
	return st
}

func routeStatus(rr *analyze.RouteResult) gwv1.RouteStatus {
	st := gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{}}
	for _, p := range rr.Parents {
		if !p.Written {
			continue
		}
		st.Parents = append(st.Parents, gwv1.RouteParentStatus{
			ParentRef:      p.Ref,
			ControllerName: p.Controller,
			Conditions:     analyze.Plain(p.Conditions),
		})
	}
	return st
}

func policyStatus(pr *analyze.PolicyResult) gwv1.PolicyStatus {
	st := gwv1.PolicyStatus{Ancestors: []gwv1.PolicyAncestorStatus{}}
	for _, g := range pr.Ancestors {
		gw := g.Gateway.Obj
		group, kind, ns := gwv1.Group(gwv1.GroupName), gwv1.Kind("Gateway"), gwv1.Namespace(gw.Namespace)
		st.Ancestors = append(st.Ancestors, gwv1.PolicyAncestorStatus{
			AncestorRef:    gwv1.ParentReference{Group: &group, Kind: &kind, Namespace: &ns, Name: gwv1.ObjectName(gw.Name)},
			ControllerName: g.Controller,
			Conditions:     analyze.Plain(pr.Conditions),
		})
	}
	return st
}

// StatusJSON writes the items as a v1 List, indented as kubectl does.
func StatusJSON(w io.Writer, items []map[string]any) error {
	if items == nil {
		items = []map[string]any{}
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "items": items}
	b, err := json.MarshalIndent(list, "", "    ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// StatusYAML writes the items as multi-document YAML.
func StatusYAML(w io.Writer, items []map[string]any) error {
	for i, it := range items {
		b, err := yaml.Marshal(it)
		if err != nil {
			return err
		}
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}
