#!/usr/bin/env bash
# Runs every check and test of kubectl-gwtls. This is the README's test command and
# what CI runs: it installs what the tests need, then runs them.
#
#   ./hack/test.sh            everything
#   ./hack/test.sh --quick    skip the conformance corpus (said in the log and the summary)
set -euo pipefail
cd "$(dirname "$0")/.."
# Independent TLS clients and a TLS server for the probe tests (Debian packages).
need=""; for p in openssl curl nginx; do command -v $p >/dev/null || need="$need $p"; done
if [ -n "$need" ]; then
  { [ "$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq $need >/dev/null; } \
    || echo "could not install$need: the tests that need them will skip" >&2
fi

quick=false
[ "${1:-}" = "--quick" ] && quick=true

step() { printf '\n==> %s\n' "$*"; }

# graphviz: TestGraphDOTRendersWithGraphviz renders `render graph -o dot` with dot -Tsvg
# (it skips without dot). Installed when missing and we may (root); never fatal.
command -v dot >/dev/null || { [ "$(id -u)" = 0 ] && (apt-get update -qq && apt-get install -y -qq graphviz >/dev/null); } \
  || echo "graphviz (dot) not installed: the DOT rendering test will skip" >&2

# Mermaid's own parser: TestGraphMermaidParses parses `render graph -o mermaid` with
# it (hack/mermaid pins mermaid and jsdom). Installed from the npm registry once per
# lock file into the cache, like the kube-apiserver; never fatal (the test skips).
mermaid_dir="${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-gwtls/mermaid-$(sha256sum hack/mermaid/package-lock.json | cut -c1-12)"
if [ ! -d "$mermaid_dir/node_modules/mermaid" ] && command -v npm >/dev/null; then
  { mkdir -p "$mermaid_dir" && cp hack/mermaid/package.json hack/mermaid/package-lock.json "$mermaid_dir/" \
    && (cd "$mermaid_dir" && npm ci --no-audit --no-fund --silent >/dev/null); } \
    || echo "could not install mermaid with npm: the Mermaid parse test will skip" >&2
fi
if [ -d "$mermaid_dir/node_modules/mermaid" ]; then
  cp hack/mermaid/check.mjs "$mermaid_dir/"
  export GWTLS_MERMAID_CHECK="$mermaid_dir/check.mjs"
fi

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
if ! go test -count=1 -timeout 40m -v ./... > "$log" 2>&1; then
  grep -E '^(FAIL|ok|---|panic|\s+.*_test\.go)' "$log" | grep -v -- '--- PASS' | tail -80
  echo "go test failed (full log above)" >&2
  exit 1
fi
grep -E '^(ok|FAIL|\?)\s' "$log"
passed=$(grep -cE '^\s*--- PASS' "$log" || true)
skipped=$(grep -cE '^\s*--- SKIP' "$log" || true)

# The packages that run goroutines (the loader's decoders and cluster pages, the
# engine's ranges, render's streaming writers, the probe proxy, diff's concurrent
# sides and sections, the serving table's deciders) and the command
# tree that drives them end to end, under the race detector: about 30 s on 2 cores
# with a warm build cache, about 8.5 minutes with an empty one (race builds of
# the dependencies are cached apart from the plain ones).
step "race detector: load, analyze, render, probe, change, serving, cmd/gwtls, admit's concurrent parts"
race_start=$SECONDS
if ! go test -race -count=1 -timeout 40m ./load ./analyze ./render ./probe ./change ./serving ./cmd/gwtls > "$log" 2>&1; then
  grep -E '^(FAIL|ok|---|panic|WARNING: DATA RACE|\s+.*_test\.go)' "$log" | grep -v -- '--- PASS' | tail -80
  echo "go test -race failed" >&2
  exit 1
fi
grep -E '^(ok|FAIL)\s' "$log"
# The validator's concurrent parts (the lock-free memo, rules compiled on
# first use, one Admitter shared by the loader's workers); the rest of admit's
# tests take minutes under the race detector, and load's run the validator
# from several workers at once.
if ! go test -race -count=1 -timeout 40m -run 'TestAdmitConcurrent|TestAdmitFirstUseConcurrent|TestMemo|TestForgottenMemo|TestLazyRulesAreTheEagerOnes' ./admit > "$log" 2>&1; then
  grep -E '^(FAIL|ok|---|panic|WARNING: DATA RACE|\s+.*_test\.go)' "$log" | grep -v -- '--- PASS' | tail -80
  echo "go test -race ./admit failed" >&2
  exit 1
fi
grep -E '^(ok|FAIL)\s' "$log"
echo "race step: $((SECONDS - race_start)) s"

step "benchmarks at the 1k size (so they cannot rot; docs/performance.md has the large sizes)"
go test -run '^$' -bench '/1k$' -benchtime 1x -benchmem ./load ./analyze ./cmd/gwtls | grep -E '^(Benchmark|ok|FAIL)'

step "cluster mode against a real kube-apiserver (hack/apiserver.sh; cold build ~11 min, then cached)"
./hack/apiserver.sh build
cluster_tmp=$(mktemp -d)
export GWTLS_CLUSTER_STATE=$cluster_tmp/cluster
trap 'rm -f "$log"; ./hack/apiserver.sh stop || true; rm -rf "$cluster_tmp"' EXIT
./hack/apiserver.sh start
if ! GWTLS_CLUSTER_TESTS=1 go test -count=1 -timeout 40m -v ./e2e -run Cluster > "$log" 2>&1; then
  grep -E '^(FAIL|ok|---|panic|\s+.*_test\.go)' "$log" | grep -v -- '--- PASS' | tail -80
  echo "cluster tests failed" >&2
  exit 1
fi
grep -E '^(ok|FAIL)\s' "$log"
if grep -qE '^\s*--- SKIP' "$log"; then
  grep -E -A1 '^\s*--- SKIP' "$log" >&2
  echo "cluster tests skipped although a cluster was started" >&2
  exit 1
fi
passed=$((passed + $(grep -cE '^\s*--- PASS' "$log" || true)))
# The cluster lister decodes pages on several goroutines while it reads the next:
# run the many-pages test under the race detector too.
if ! GWTLS_CLUSTER_TESTS=1 go test -race -count=1 -v ./e2e -run ClusterPagination > "$log" 2>&1; then
  grep -E '^(FAIL|ok|---|panic|WARNING: DATA RACE|\s+.*_test\.go)' "$log" | grep -v -- '--- PASS' | tail -80
  echo "cluster pagination test failed under -race" >&2
  exit 1
fi
passed=$((passed + $(grep -cE '^\s*--- PASS' "$log" || true)))
./hack/apiserver.sh stop

# conformance_skipped says why the conformance corpus did not run, if it did not.
# A clone without ../shared has no corpus: that is not a failure, but it must not
# pass for a run that checked it, so it is said where the step runs, on stderr,
# and again in the summary.
conformance_skipped=""
step "conformance corpus (../shared/tools/conformance-check --per-object)"
if $quick; then
  conformance_skipped="--quick was given"
elif [ ! -f ../shared/tools/conformance-check ]; then
  conformance_skipped="no ../shared/tools/conformance-check: a clone without ../shared has neither the corpus nor its checker"
elif [ ! -d ../shared/conformance ]; then
  conformance_skipped="no ../shared/conformance: no corpus to check"
else
  bin=$(mktemp -d)/kubectl-gwtls
  go build -o "$bin" ./cmd/kubectl-gwtls
  python3 ./hack/conformance.py "$bin"
fi
if [ -n "$conformance_skipped" ]; then
  echo "SKIPPED: the conformance corpus was NOT checked: $conformance_skipped"
  echo "SKIPPED: the conformance corpus was NOT checked: $conformance_skipped" >&2
fi

step "summary"
echo "tests: $passed passed, 0 failed, $skipped skipped"
if [ -n "$conformance_skipped" ]; then
  echo "conformance corpus: SKIPPED ($conformance_skipped)"
else
  echo "conformance corpus: checked per object"
fi
