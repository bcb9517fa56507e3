//go:build tools

// Package tools pins k8s.io/kubernetes/cmd/kube-apiserver (the cluster-mode tests'
// API server) and k8s.io/kubernetes/cmd/kubectl (hack/bench-cluster.sh's baseline)
// so `go mod tidy` keeps their dependencies in go.sum.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kubectl"
)
