package admit_test

import (
	"reflect"
	"sync"
	"testing"

	"github.com/kubectl-gwtls/kubectl-gwtls/admit"
)

// A built-in Admitter decodes a kind's CRD, compiles its version, its rules
// and checks each default the first time an object needs them: when that
// first time comes on many goroutines at once, every object still gets the
// verdict a fresh Admitter gives it alone. Run it with -race too.
func TestAdmitFirstUseConcurrent(t *testing.T) {
	fresh := func() *admit.Admitter {
		crds, err := admit.Builtin(admit.Experimental)
		if err != nil {
			t.Fatal(err)
		}
		a, err := admit.New(crds)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	objects := []struct{ kind, json string }{
		// Defaults under listeners (allowedRoutes) and under rules (matches,
		// backendRefs' weight), and a listener set that needs none.
		{"Gateway", gateway(`{"name":"http","port":80,"protocol":"HTTP"}`)},
		{"Gateway", gateway(`{"name":"http","port":80,"protocol":"HTTP","allowedRoutes":{"namespaces":{"from":"All"}}}`, `{"name":"http","port":81,"protocol":"HTTP"}`)},
		{"HTTPRoute", httpRoute(`{"rules":[{"backendRefs":[{"name":"web","port":80}]}]}`)},
		{"HTTPRoute", httpRoute(`{"parentRefs":[{"name":"gw"}],"rules":[{"matches":[{"path":{"type":"Exact","value":"/a"}}],"backendRefs":[{"name":"web"}]}]}`)},
		{"HTTPRoute", httpRoute(`{"useDefaultGateways":"All"}`)},
	}
	alone := make([]admit.Verdict, len(objects))
	for i, o := range objects {
		alone[i] = fresh().Admit(v1, o.kind, []byte(o.json))
	}
	a := fresh()
	start := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			<-start
			for n := range len(objects) {
				i := (g + n) % len(objects)
				if got := a.Admit(v1, objects[i].kind, []byte(objects[i].json)); !reflect.DeepEqual(got, alone[i]) {
					t.Errorf("object %d: verdict on first use, concurrent\n%+v\nalone, on a fresh Admitter\n%+v", i, got, alone[i])
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
}
