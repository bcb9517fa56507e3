//go:build tools

// Package tools pins k8s.io/kubernetes/cmd/kube-apiserver so `go mod tidy` keeps
// its dependencies in go.sum.
package tools

import _ "k8s.io/kubernetes/cmd/kube-apiserver"
