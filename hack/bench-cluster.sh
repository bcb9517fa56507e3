#!/usr/bin/env bash
# Cluster mode at scale (docs/performance.md): loads a generated configuration into the
# real kube-apiserver + etcd of hack/apiserver.sh, then times `analyze -A` listing it
# back, and the same analyze on the file for comparison.
#
#   hack/bench-cluster.sh                  100,000 routes, 1,000 Gateways (113,838 objects)
#   hack/bench-cluster.sh --routes 1000    a quick check (1,157 objects, ~1 min)
#
# Options (or the environment variable in parentheses):
#   --routes R     routes to generate (ROUTES; default 100000)
#   --gateways G   Gateways (GATEWAYS; default R/100, at least 1)
#   --workers N    concurrent create requests while loading (WORKERS; default 16)
#   --runs N       analyze runs against the cluster per chunk size (RUNS; default 3; 0 only loads)
#   --chunk-sizes "500 0"
#                  the --chunk-size values to run analyze with (CHUNK_SIZES; default 500,
#                  kubectl's; 0 lists each kind in one response)
#   --keep         keep the work dir (binaries, YAML, analyze outputs; the cluster's
#                  state dir in it is still removed) and print its path
#
# Needs the cached kube-apiserver (hack/apiserver.sh build, once), etcd, curl and
# /usr/bin/time. The cluster gets its own state dir under the work dir
# (GWTLS_CLUSTER_STATE), so it never collides with hack/test.sh's cluster, and it is
# stopped on exit. Results go to stdout, progress to stderr; exits non-zero on failure.
#
# The loader (hack/bench-cluster) creates Namespaces and GatewayClasses first, then the
# rest with --workers concurrent POSTs and no client-side rate limit. Every 50th
# generated Gateway repeats a listener's port, protocol and hostname on purpose, which
# the Gateway API CRD's validation rejects: the loader gives the later duplicate a
# distinct hostname (dup-LISTENER.HOSTNAME), so the object count matches but those
# Gateways' findings differ from the -f run. The cluster also holds a few objects of
# its own (Namespaces default, kube-*, Service default/kubernetes, two kube-system
# ConfigMaps) that -A reads: the loader's "cluster:" line lists them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."

routes=${ROUTES:-100000}
gateways=${GATEWAYS:-}
workers=${WORKERS:-16}
runs=${RUNS:-3}
chunk_sizes=${CHUNK_SIZES:-500}
keep=false
now=2026-01-01T00:00:00Z

log() { printf 'bench-cluster.sh: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --routes) routes=${2:?--routes needs a value}; shift 2 ;;
    --gateways) gateways=${2:?--gateways needs a value}; shift 2 ;;
    --workers) workers=${2:?--workers needs a value}; shift 2 ;;
    --runs) runs=${2:?--runs needs a value}; shift 2 ;;
    --chunk-sizes) chunk_sizes=${2:?--chunk-sizes needs a value}; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
for v in "$routes" "${gateways:-1}" "$workers" "$runs" $chunk_sizes; do
  case "$v" in ''|*[!0-9]*) die "not a number: $v" ;; esac
done
[ -n "$gateways" ] || gateways=$(( routes / 100 > 0 ? routes / 100 : 1 ))
[ -x /usr/bin/time ] || die "/usr/bin/time missing (Debian package time)"
# Fail fast rather than after building and generating: a cold kube-apiserver build
# takes ~12 CPU-minutes and is hack/apiserver.sh build's job.
k8s_version=$(sed -n 's/^K8S_VERSION=//p' "$here/apiserver.sh")
[ -x "${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-gwtls/kube-apiserver-$k8s_version" ] ||
  die "kube-apiserver $k8s_version is not built: run hack/apiserver.sh build first (cold: ~11 min on 2 cores)"
command -v curl >/dev/null || die "curl missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/gwtls-bench-cluster.XXXXXX")
export GWTLS_CLUSTER_STATE=$work/cluster
state=$GWTLS_CLUSTER_STATE
cleanup() {
  local rc=$?
  "$here/apiserver.sh" stop || rc=1
  if $keep; then log "work dir kept: $work"; else rm -rf "$work"; fi
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

bin=$work/kubectl-gwtls
loader=$work/bench-cluster
yaml=$work/input.yaml

log "building kubectl-gwtls, the loader (hack/bench-cluster) and the generator (hack/generate)"
go build -o "$bin" ./cmd/kubectl-gwtls
go build -o "$loader" ./hack/bench-cluster
go build -o "$work/generate" ./hack/generate

log "generating --seed 1 --gateways $gateways --listeners 20 --routes $routes"
"$work/generate" --seed 1 --gateways "$gateways" --listeners 20 --routes "$routes" -o "$yaml"

log "starting kube-apiserver + etcd (state $state)"
"$here/apiserver.sh" start >&2
kc=$state/admin.kubeconfig

# metric_sum PROM_FILTER sums apiserver_request_total over the series that match
# (an awk regex on the label set), read with the admin's client certificate.
metric_sum() {
  curl -sS --cacert "$state/pki/ca.crt" --cert "$state/pki/admin.crt" --key "$state/pki/admin.key" \
    "https://127.0.0.1:$(cat "$state/apiserver.port")/metrics" |
    awk -v f="$1" '/^apiserver_request_total\{/ && $0 ~ f { s += $NF } END { printf "%d\n", s }'
}
rss_mb() { ps -o rss= -p "$1" | awk '{ printf "%d MB", $1 / 1024 }'; }
# cpu_s PID prints the process's user + system CPU seconds so far.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.1f\n", ($12 + $13) / hz }' "/proc/$1/stat"; }

echo "== input: --seed 1 --gateways $gateways --listeners 20 --routes $routes ($(du -h "$yaml" | cut -f1) YAML)"
echo "== loading with $workers concurrent creates"
apid=$(cat "$state/apiserver.pid")
etcdpid=$(cat "$state/etcd.pid")
a0=$(cpu_s "$apid")
e0=$(cpu_s "$etcdpid")
/usr/bin/time -f '%e s wall, %U + %S s CPU, %M KB max RSS' -o "$work/loader.time" \
  "$loader" -kubeconfig "$kc" -f "$yaml" -workers "$workers"
echo "loader:   $(cat "$work/loader.time")"
echo "server CPU while loading: kube-apiserver $(awk -v a="$a0" -v b="$(cpu_s "$apid")" 'BEGIN { printf "%.1f", b - a }') s, etcd $(awk -v a="$e0" -v b="$(cpu_s "$etcdpid")" 'BEGIN { printf "%.1f", b - a }') s"
echo "after loading: kube-apiserver RSS $(rss_mb "$apid"), etcd RSS $(rss_mb "$etcdpid"), etcd data $(du -sh "$(cat "$state/etcd.data")" | cut -f1)"

# analyze NAME ARGS... runs the built binary under /usr/bin/time and prints its
# stderr (the --timings line) and the time line.
analyze() {
  local name=$1
  shift
  local code=0
  /usr/bin/time -f '%e s wall, %U + %S s CPU, %M KB max RSS' -o "$work/$name.time" \
    "$bin" analyze -o json --timings --fail-on none --now "$now" "$@" >"$work/$name.json" 2>"$work/$name.err" || code=$?
  if [ "$code" -ne 0 ]; then
    cat "$work/$name.err" >&2
    die "analyze $* exited $code"
  fi
  sed 's/^/  /' "$work/$name.err"
  sed 's/^/  /' "$work/$name.time"
}

for chunk in $chunk_sizes; do
  echo "== analyze -A --kubeconfig --chunk-size $chunk (cluster), $runs runs"
  for i in $(seq "$runs"); do
    lists0=$(metric_sum 'verb="LIST"')
    a0=$(cpu_s "$apid")
    echo "run $i:"
    analyze "cluster-$chunk-$i" --kubeconfig "$kc" -A --chunk-size "$chunk"
    echo "  LIST requests (pages) seen by the apiserver: $(( $(metric_sum 'verb="LIST"') - lists0 )), kube-apiserver CPU $(awk -v a="$a0" -v b="$(cpu_s "$apid")" 'BEGIN { printf "%.1f", b - a }') s"
  done
done
echo "== analyze -f (the same file), 1 run"
analyze file -f "$yaml"

[ "$runs" -ge 1 ] || exit 0
n_cluster=$(sed -n 's/.*(\([0-9]*\) objects).*/\1/p' "$work/cluster-${chunk_sizes%% *}-1.err")
n_file=$(sed -n 's/.*(\([0-9]*\) objects).*/\1/p' "$work/file.err")
echo "== objects: cluster $n_cluster, file $n_file (difference $(( n_cluster - n_file )))"
