package typedjson

import (
	"encoding/json"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// smallRouteJSON is an HTTPRoute as the 100k benchmark input has most of
// them (hack/generate): one parentRef, one hostname, one backend.
const smallRouteJSON = `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"http-7","namespace":"app-661","labels":{"app":"svc-7"}},"spec":{"parentRefs":[{"name":"gw-365","namespace":"infra-15","sectionName":"https-5"}],"hostnames":["r7.w5.g365.example.com"],"rules":[{"backendRefs":[{"name":"svc-5","port":8081}]}]}}`

// BenchmarkDecode decodes one object at a time with this package and with
// encoding/json: the time and the allocations per object.
//
//	go test -run '^$' -bench Decode -benchmem ./internal/typedjson
func BenchmarkDecode(b *testing.B) {
	decoders := []struct {
		name   string
		decode func([]byte, any) error
	}{
		{"typedjson", Unmarshal},
		{"encoding-json", json.Unmarshal},
	}
	objects := []struct {
		name string
		js   string
		newV func() any
	}{
		{"SmallHTTPRoute", smallRouteJSON, func() any { return new(gwv1.HTTPRoute) }},
		{"HTTPRoute", httpRouteJSON, func() any { return new(gwv1.HTTPRoute) }},
		{"Gateway", gatewayJSON, func() any { return new(gwv1.Gateway) }},
	}
	for _, o := range objects {
		js := []byte(o.js)
		if !Decodes(js, o.newV()) {
			b.Fatalf("%s: the plan declines it", o.name)
		}
		for _, d := range decoders {
			b.Run(o.name+"/"+d.name, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(js)))
				for b.Loop() {
					if err := d.decode(js, o.newV()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
