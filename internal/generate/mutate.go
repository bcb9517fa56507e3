package generate

import (
	"bytes"
)

// Mutated is a generated configuration after a change of the size a large
// pull request makes: of every 400 routes (HTTPRoutes, GRPCRoutes, TLSRoutes),
// four have their first hostname renamed, four their first backendRef's port
// changed, and one is removed. The other side of a diff benchmark.
func Mutated(data []byte) []byte {
	sep := []byte("\n---\n")
	docs := bytes.Split(data, sep)
	out := make([][]byte, 0, len(docs))
	n := 0
	for _, d := range docs {
		if !isRoute(d) {
			out = append(out, d)
			continue
		}
		n++
		switch {
		case n%100 == 0:
			d = bytes.Replace(d, []byte("  hostnames:\n  - "), []byte("  hostnames:\n  - moved-"), 1)
		case n%100 == 50:
			d = bytes.Replace(d, []byte("      port: "), []byte("      port: 1"), 1)
		case n%400 == 7:
			continue
		}
		out = append(out, d)
	}
	return bytes.Join(out, sep)
}

func isRoute(doc []byte) bool {
	for _, k := range []string{"HTTPRoute", "GRPCRoute", "TLSRoute"} {
		if bytes.Contains(doc, []byte("\nkind: "+k+"\n")) {
			return true
		}
	}
	return false
}
