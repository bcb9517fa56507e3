package typedjson

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// FuzzAgreesWithEncodingJSON decodes the fuzzer's bytes into the test's
// sample, an HTTPRoute, a Gateway and a GRPCRoute, with encoding/json and
// with this package, and holds the two to the same value or the same error.
// The seeds are the test's objects, which the fuzzer mutates into wrong
// types, numbers out of range, keys in other cases, broken escapes and
// syntax errors.
//
//	go test -fuzz FuzzAgreesWithEncodingJSON -fuzztime 60s ./internal/typedjson
func FuzzAgreesWithEncodingJSON(f *testing.F) {
	targets := []func() any{
		newSample,
		func() any { return new(gwv1.HTTPRoute) },
		func() any { return new(gwv1.Gateway) },
		func() any { return new(gwv1.GRPCRoute) },
	}
	for i, js := range []string{sampleJSON, httpRouteJSON, gatewayJSON, `{"spec":{"rules":[{"matches":[{"method":{"service":"s"}}]}]}}`} {
		f.Add(uint8(i), []byte(js))
	}
	for _, js := range []string{`{"Str": 1}`, `{"i8": 1e2}`, `{"labels": {"a": null}}`, `{"strs": ["\u00e9", "\ud800"]}`} {
		f.Add(uint8(0), []byte(js))
	}
	f.Fuzz(func(t *testing.T, target uint8, js []byte) {
		agreement(t, js, targets[int(target)%len(targets)])
	})
}
