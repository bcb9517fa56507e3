package fastunstructured

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// BenchmarkFromUnstructured converts an admitted HTTPRoute and Gateway (the
// test's httpRouteJSON and gatewayJSON) with this package and with
// apimachinery's converter.
//
//	go test -run '^$' -bench FromUnstructured -benchmem ./internal/fastunstructured
func BenchmarkFromUnstructured(b *testing.B) {
	converters := []struct {
		name    string
		convert func(map[string]any, any) error
	}{
		{"plan", FromUnstructured},
		{"apimachinery", runtime.DefaultUnstructuredConverter.FromUnstructured},
	}
	objects := []struct {
		name string
		js   string
		newV func() any
	}{
		{"HTTPRoute", httpRouteJSON, func() any { return new(gwv1.HTTPRoute) }},
		{"Gateway", gatewayJSON, func() any { return new(gwv1.Gateway) }},
	}
	for _, o := range objects {
		u := unstructured(b, o.js)
		for _, c := range converters {
			b.Run(o.name+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := c.convert(u, o.newV()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
