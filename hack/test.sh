#!/usr/bin/env bash
# Runs every check and test of kubectl-gwtls. This is the README's test command and
# what CI runs: it installs what the tests need, then runs them.
#
#   ./hack/test.sh            everything
#   ./hack/test.sh --quick    skip the conformance corpus
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
[ "${1:-}" = "--quick" ] && quick=true

step() { printf '\n==> %s\n' "$*"; }

step "toolchain: $(go version)"
# Every k8s.io module must stay on one minor (DESIGN: v0.36.x pairs with gateway-api v1.6.x).
minors=$(go list -m -f '{{.Path}} {{.Version}}' all | awk '$1 ~ /^k8s\.io\/(api|apimachinery|client-go|cli-runtime|kubectl|apiextensions-apiserver)$/ {split($2,v,"."); print v[1]"."v[2]}' | sort -u)
if [ "$(echo "$minors" | wc -l)" -ne 1 ]; then
  echo "k8s.io modules span several minors: $minors" >&2
  exit 1
fi

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './vendor/*'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change: $unformatted" >&2
  exit 1
fi

step "go vet"
go vet ./...

step "staticcheck (pinned in go.mod as a tool)"
go tool staticcheck ./...

step "go test"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! go test -count=1 -v ./... > "$log" 2>&1; then
  grep -E '^(FAIL|ok|---|panic|\s+.*_test\.go)' "$log" | grep -v -- '--- PASS' | tail -80
  echo "go test failed (full log above)" >&2
  exit 1
fi
grep -E '^(ok|FAIL|\?)\s' "$log"
passed=$(grep -cE '^\s*--- PASS' "$log" || true)
skipped=$(grep -cE '^\s*--- SKIP' "$log" || true)

if ! $quick; then
  step "conformance corpus (../shared/tools/conformance-check)"
  if [ -x ../shared/tools/conformance-check ] || [ -f ../shared/tools/conformance-check ]; then
    bin=$(mktemp -d)/kubectl-gwtls
    go build -o "$bin" ./cmd/kubectl-gwtls
    python3 ./hack/conformance.py "$bin"
  else
    echo "../shared/tools/conformance-check not found; skipped"
  fi
fi

step "summary"
echo "go tests (with subtests): $passed passed, 0 failed, $skipped skipped"
