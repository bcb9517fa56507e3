package render

import (
	"io"
	"strconv"
	"strings"

	"github.com/kubectl-gwtls/kubectl-gwtls/model"
	"github.com/kubectl-gwtls/kubectl-gwtls/simulate"
)

// SimulationJSON writes outcomes as json.MarshalIndent(outs, "", "  ") does,
// and a newline, as IndentedList writes a list, each outcome written by hand
// rather than through encoding/json: at 100k routes simulate --all writes
// 59,000 outcomes, 45 MB, and encoding/json's reflection and its second pass
// to indent were a quarter of what the command adds to the analysis
// (docs/performance.md). TestSimulationJSONIsMarshalIndent holds it to
// encoding/json, and TestSimulationJSONKnowsEveryField to the fields of the
// types it writes.
func SimulationJSON(w io.Writer, outs []simulate.Outcome) error {
	return IndentedList(w, len(outs), readOnly(func(i int) any { return outcomeJSON{&outs[i]} }))
}

// indentedAppender is an item of an indented list that writes itself: at
// depth, as an item of json.MarshalIndent(list, "", "  ") at that depth.
type indentedAppender interface {
	appendIndented(b []byte, depth int) []byte
}

// outcomeJSON is an outcome that writes itself.
type outcomeJSON struct{ o *simulate.Outcome }

// indentedObject writes the members of a JSON object as json.MarshalIndent with
// the indent "  " does: each on a line of its own at depth+1, the closing
// brace at depth; an object without members is "{}".
type indentedObject struct {
	b       []byte
	depth   int
	members int
}

func openIndented(b []byte, depth int) indentedObject {
	return indentedObject{b: append(b, '{'), depth: depth}
}

// key starts a member.
func (o *indentedObject) key(k string) {
	if o.members > 0 {
		o.b = append(o.b, ',')
	}
	o.members++
	o.b = indentedNewline(o.b, o.depth+1)
	o.b = append(o.b, '"')
	o.b = append(o.b, k...) // keys are plain ASCII
	o.b = append(o.b, '"', ':', ' ')
}

func (o *indentedObject) str(k, v string) {
	o.key(k)
	o.b = appendJSONString(o.b, v)
}

// strOmit is a string member with omitempty.
func (o *indentedObject) strOmit(k, v string) {
	if v != "" {
		o.str(k, v)
	}
}

func (o *indentedObject) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *indentedObject) bool(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

// strs is a []string member: null when nil.
func (o *indentedObject) strs(k string, vs []string) {
	o.key(k)
	if vs == nil {
		o.b = append(o.b, "null"...)
		return
	}
	if len(vs) == 0 {
		o.b = append(o.b, '[', ']')
		return
	}
	o.b = append(o.b, '[')
	for i, v := range vs {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.b = indentedNewline(o.b, o.depth+2)
		o.b = appendJSONString(o.b, v)
	}
	o.b = indentedNewline(o.b, o.depth+1)
	o.b = append(o.b, ']')
}

func (o *indentedObject) close() []byte {
	if o.members == 0 {
		return append(o.b, '}')
	}
	o.b = indentedNewline(o.b, o.depth)
	return append(o.b, '}')
}

func (x outcomeJSON) appendIndented(b []byte, depth int) []byte {
	out := x.o
	o := openIndented(b, depth)
	o.str("outcome", out.Outcome)
	o.key("request")
	r := openIndented(o.b, depth+1)
	r.strOmit("sni", out.Request.SNI)
	r.int("port", int64(out.Request.Port))
	r.strOmit("host", out.Request.Host)
	r.strOmit("gateway", out.Request.Gateway)
	o.b = r.close()
	o.strOmit("gateway", out.Gateway)
	o.strOmit("listener", out.Listener)
	if out.ListenerOwner != nil {
		o.key("listenerOwner")
		o.b = appendRefJSON(o.b, out.ListenerOwner, depth+1)
	}
	o.strOmit("mode", out.Mode)
	if out.Route != nil {
		o.key("route")
		o.b = appendRefJSON(o.b, out.Route, depth+1)
	}
	o.strOmit("intersectedHostname", out.IntersectedHostname)
	if c := out.Certificate; c != nil {
		o.key("certificate")
		co := openIndented(o.b, depth+1)
		co.str("secret", c.Secret)
		co.strs("dnsNames", c.DNSNames)
		co.bool("verifiesForSNI", c.VerifiesForSNI)
		if c.External {
			co.bool("external", true)
		}
		o.b = co.close()
	}
	if len(out.Backends) > 0 {
		o.key("backends")
		o.b = appendBackendsJSON(o.b, out.Backends, depth+1)
	}
	if len(out.Mirrors) > 0 {
		o.key("mirrors")
		o.b = appendBackendsJSON(o.b, out.Mirrors, depth+1)
	}
	o.strOmit("reason", out.Reason)
	if len(out.AlsoServedBy) > 0 {
		o.strs("alsoServedBy", out.AlsoServedBy)
	}
	return o.close()
}

func appendRefJSON(b []byte, ref *model.Ref, depth int) []byte {
	o := openIndented(b, depth)
	o.str("kind", ref.Kind)
	o.strOmit("namespace", ref.Namespace)
	o.str("name", ref.Name)
	return o.close()
}

// appendBackendsJSON writes a list of backends that is not empty.
func appendBackendsJSON(b []byte, bs []simulate.Backend, depth int) []byte {
	b = append(b, '[')
	for i := range bs {
		be := &bs[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = indentedNewline(b, depth+1)
		o := openIndented(b, depth+1)
		o.strOmit("kind", be.Kind)
		o.str("namespace", be.Namespace)
		o.str("name", be.Name)
		if be.Port != 0 {
			o.int("port", int64(be.Port))
		}
		o.int("weight", int64(be.Weight))
		o.int("rule", int64(be.Rule))
		o.bool("resolved", be.Resolved)
		if t := be.BackendTLS; t != nil {
			o.key("backendTLS")
			to := openIndented(o.b, depth+2)
			to.str("policy", t.Policy)
			to.str("hostname", t.Hostname)
			to.str("ca", t.CA)
			if len(t.SubjectAltNames) > 0 {
				to.strs("subjectAltNames", t.SubjectAltNames)
			}
			o.b = to.close()
		}
		b = o.close()
	}
	b = indentedNewline(b, depth)
	return append(b, ']')
}

// indentedNewline starts a line at depth, indented by two spaces a level.
func indentedNewline(b []byte, depth int) []byte {
	if n := 1 + 2*depth; n <= len(indentedNewlines) {
		return append(b, indentedNewlines[:n]...)
	}
	b = append(b, '\n')
	for range depth {
		b = append(b, ' ', ' ')
	}
	return b
}

// indentedNewlines are a newline and the indentation of up to 16 levels.
var indentedNewlines = "\n" + strings.Repeat("  ", 16)
