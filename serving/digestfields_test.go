package serving_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/analyze"
	"github.com/kubectl-gwtls/kubectl-gwtls/serving"
)

// TestDigestKnowsEveryField is a tripwire for serving/inputs.go: a diff skips
// every request whose digests are equal on both sides, so a field that a
// decision (or the comparison of two decisions) comes to read, and that the
// digest does not cover, would hide a real change. When a struct below (a
// decision, and what it reads) gains, loses or renames a field, this test
// fails until someone decides whether the digest must read it (and
// TestDigestsCover changes it), then records the new field list here.
func TestDigestKnowsEveryField(t *testing.T) {
	for _, c := range []struct {
		typ    reflect.Type
		fields []string
	}{
		{reflect.TypeFor[serving.Listener](), []string{"Result", "Port", "Name", "Owner", "Protocol", "Mode", "Hostname", "Accepted", "Routes", "index", "indexOnce"}},
		{reflect.TypeFor[serving.Route](), []string{"Attachment", "Ref", "Hostnames", "rules", "rulesOnce"}},
		{reflect.TypeFor[serving.Certificate](), []string{"Ref", "Secret", "Covers"}},
		{reflect.TypeFor[serving.Decision](), []string{"Port", "Listener", "Hostname", "Routes", "Certificate", "Rule", "Match", "RegexPath", "Refusal"}},
		{reflect.TypeFor[serving.Port](), []string{"Gateway", "Number", "Listeners", "rows"}},
		{reflect.TypeFor[analyze.Attachment](), []string{"Route", "Parent", "Listener", "Hostnames"}},
		{reflect.TypeFor[analyze.CertificateRef](), certificateRefFields},
		{reflect.TypeFor[analyze.BackendResult](), backendResultFields},
	} {
		var got []string
		for i := range c.typ.NumField() {
			got = append(got, c.typ.Field(i).Name)
		}
		if !slices.Equal(got, c.fields) {
			t.Errorf("%s's fields are now %q, were %q: does a decision read the new ones? Add them to the digest (serving/inputs.go) and to TestDigestsCover, then record them here", c.typ, got, c.fields)
		}
	}
}

var (
	// The digest reads Namespace, Ref.Name, Secret (whether it was read),
	// External, Unverified, Problem and Chain.
	certificateRefFields = []string{"Ref", "Namespace", "Secret", "External", "Unverified", "Problem", "Chain"}
	// The digest reads Rule, Index, Namespace, every field of Ref, Problem
	// and Policy; Service and unverified decide Problem, which it reads.
	backendResultFields = []string{"Ref", "Namespace", "Service", "Problem", "Policy", "unverified", "Rule", "Index"}
)
