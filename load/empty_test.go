package load

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kubectl-gwtls/kubectl-gwtls/internal/fakecluster"
	"github.com/kubectl-gwtls/kubectl-gwtls/model"
)

// TestNothingToAnalyze: an input without a Gateway API object is named for
// what it is, so that the command can refuse it; one Gateway API object of
// any kind is enough.
func TestNothingToAnalyze(t *testing.T) {
	for _, tt := range []struct {
		name    string
		content string
		want    string // "": something to analyze
	}{
		{"an empty file", "", "the input holds no Kubernetes object"},
		{"only document separators", "---\n---\n...\n", "the input holds no Kubernetes object"},
		{"only comments", "# nothing here\n---\n# nor here\n", "the input holds no Kubernetes object"},
		{"an empty List", "apiVersion: v1\nkind: List\nitems: []\n", "the input holds no Kubernetes object"},
		{"only objects the engine reads beside Gateway API ones", cm("a") + "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n", "it holds only Secret (1), ConfigMap (1)"},
		{"only an Ingress migration's base", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: i\n", "it holds only Ingress (1)"},
		{"only kinds the tool does not analyze", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n", "objects of kinds this tool does not analyze: apps/v1/Deployment (1)"},
		{"one GatewayClass", "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata:\n  name: c\n", ""},
		{"one route", "apiVersion: gateway.networking.k8s.io/v1\nkind: TCPRoute\nmetadata:\n  name: r\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Files(FileOptions{Filenames: []string{"-"}, Stdin: strings.NewReader(tt.content)})
			if err != nil {
				t.Fatal(err)
			}
			err = NothingToAnalyze(m)
			if tt.want == "" {
				if err != nil {
					t.Errorf("err = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrNothingToAnalyze) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if err := NothingToAnalyze(&model.Model{}); !errors.Is(err, ErrNothingToAnalyze) {
		t.Errorf("an empty folder's model: err = %v", err)
	}
}

// TestNothingToAnalyzeInAForbiddenCluster: a cluster where every kind is
// forbidden reads nothing, and says which kinds.
func TestNothingToAnalyzeInAForbiddenCluster(t *testing.T) {
	all := map[string]http.HandlerFunc{}
	for _, resources := range fakecluster.Resources {
		for _, r := range resources {
			all[r] = fakecluster.Forbidden
		}
	}
	srv := fakecluster.New(t, all)
	m, err := Cluster(context.Background(), ClusterOptions{Config: srv.Config(10 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	err = NothingToAnalyze(m)
	if !errors.Is(err, ErrNothingToAnalyze) || !strings.Contains(err.Error(), "the identity may not list") || !strings.Contains(err.Error(), "Gateway,") {
		t.Errorf("err = %v", err)
	}
}
