package analyze

import (
	"fmt"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// What attaching a route records for explain and says in its rejections: one
// step per check a listener makes, and the fix that changes each outcome.

// admitSteps are the steps of admit's checks of one listener that led to its
// verdict, as explain shows them.
func (e *engine) admitSteps(v *listenerView, r *model.Route, verdict verdict, hosts []string) []Step {
	l, routeNS := v.l, r.ObjectMeta.Namespace
	switch verdict {
	case notConfigured:
		return []Step{notAcceptedStep(l)}
	case kindNotAllowed:
		return []Step{kindStep(l, r.Kind)}
	case namespaceDenied:
		return []Step{e.namespaceStep(l, routeNS)}
	}
	steps := []Step{e.namespaceStep(l, routeNS)}
	if r.HasHostnames() && v.hostnames {
		steps = append(steps, hostnameStep(l, hostStrings(r), hosts))
	}
	if verdict == admittedInactive {
		steps = append(steps, notAcceptedStep(l))
	}
	return steps
}

// hostStrings is a route's spec.hostnames as strings, for messages.
func hostStrings(r *model.Route) []string {
	out := make([]string, len(r.Hostnames))
	for i, h := range r.Hostnames {
		out[i] = string(h)
	}
	return out
}

func listenerNames(ls []*ListenerResult) string {
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Name()
	}
	return strings.Join(names, ", ")
}

func notAcceptedStep(l *ListenerResult) Step {
	msg, fix := "not evaluated", ""
	if c := Find(l.Conditions, string(gwv1.ListenerConditionAccepted)); c != nil {
		msg, fix = c.Reason+": "+c.Message, c.Fix
	}
	return Step{Rule: "listener.accepted", Subject: "listener " + l.Name(), Detail: "listener is not accepted: " + msg, Fix: fix}
}

func kindStep(l *ListenerResult, kind string) Step {
	kinds := make([]string, len(l.SupportedKinds))
	for i, k := range l.SupportedKinds {
		kinds[i] = string(k.Kind)
	}
	ln := "listener " + l.Name()
	return Step{Rule: "listener.allowedRoutes.kinds", Subject: ln,
		Inputs: map[string]string{"routeKind": kind, "supportedKinds": strings.Join(kinds, ",")},
		Detail: fmt.Sprintf("%s %s takes %s, not %s", ln, protocolLabel(l), orNone(kinds), kind),
		Fix:    kindFix(kind)}
}

// kindFix is how to attach a route of a kind a listener does not take.
func kindFix(kind string) string {
	return "attach the " + kind + " to a listener that takes it, or add " + kind + " to the listener's allowedRoutes.kinds if its protocol carries it"
}

func hostnameStep(l *ListenerResult, routeHosts, intersected []string) Step {
	ln := "listener " + l.Name()
	in := map[string]string{"listenerHostname": l.Hostname(), "routeHostnames": strings.Join(routeHosts, ",")}
	if len(intersected) == 0 {
		return Step{Rule: "hostname.intersect", Subject: ln, Inputs: in,
			Detail: fmt.Sprintf("listener hostname %q and route hostnames [%s] do not intersect", l.Hostname(), strings.Join(routeHosts, ", ")),
			Fix:    hostnameFix(ln, l.Hostname(), routeHosts)}
	}
	in["intersected"] = strings.Join(intersected, ",")
	return Step{Rule: "hostname.intersect", Subject: ln, Inputs: in, Passed: true, Detail: "intersected hostnames: " + describeHosts(intersected)}
}

// hostnameFix says how to make a listener and a route's hostnames intersect, naming
// the apex case spec 003 warns about (*.example.com does not match example.com).
func hostnameFix(listenerName, listenerHost string, routeHosts []string) string {
	if base, ok := strings.CutPrefix(listenerHost, "*."); ok {
		for _, h := range routeHosts {
			if strings.EqualFold(h, base) {
				return fmt.Sprintf("%s's wildcard %s needs at least one label before %s, so it does not match the apex %s: add a listener with hostname %s (or a route hostname under it, such as %s)",
					listenerName, listenerHost, base, h, h, exampleHost(listenerHost))
			}
		}
	}
	return fmt.Sprintf("add a route hostname that %s matches (for example %s), or change the listener hostname", listenerName, exampleHost(listenerHost))
}

func exampleHost(listenerHost string) string {
	switch {
	case listenerHost == "":
		return "any hostname"
	case strings.HasPrefix(listenerHost, "*."):
		return "app." + listenerHost[2:]
	}
	return listenerHost
}

func describeHosts(hs []string) string {
	if len(hs) == 1 && hs[0] == "" {
		return "any (neither side names a hostname)"
	}
	return strings.Join(hs, ", ")
}
