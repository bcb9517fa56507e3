#!/usr/bin/env bash
# Cluster mode at scale (docs/performance.md): loads a generated configuration into the
# real kube-apiserver + etcd of hack/apiserver.sh, then times `analyze -A` listing it
# back against `kubectl get` of the same kinds from the same API server, runs of both
# alternated, and the same analyze on the file for comparison.
#
#   hack/bench-cluster.sh                  100,000 routes, 1,000 Gateways (113,838 objects)
#   hack/bench-cluster.sh --routes 1000    a quick check (1,157 objects, ~2 min)
#
# Options (or the environment variable in parentheses):
#   --routes R     routes to generate (ROUTES; default 100000)
#   --gateways G   Gateways (GATEWAYS; default R/100, at least 1)
#   --workers N    concurrent create requests while loading (WORKERS; default 16)
#   --runs N       runs of each lister against the cluster per chunk size (RUNS; default
#                  3; 0 only loads)
#   --chunk-sizes "500 0"
#                  the --chunk-size values to run analyze and kubectl with (CHUNK_SIZES;
#                  default 500, kubectl's; 0 lists each kind in one response)
#   --kubectl-outputs "json name"
#                  the kubectl get -o formats to time (KUBECTL_OUTPUTS; default "json
#                  name"; "" times analyze alone)
#   --cluster-state DIR
#                  measure an already loaded cluster of hack/apiserver.sh (its
#                  GWTLS_CLUSTER_STATE), loaded with the same --routes and --gateways:
#                  the cluster is neither started, loaded nor stopped
#   --keep         keep the work dir (binaries, YAML, outputs; the cluster's state dir
#                  in it is still removed) and print its path
#
# The kubectl baseline: `kubectl get RESOURCES -A -o json --chunk-size N`, RESOURCES
# being every resource analyze's first run listed (read from the API server's request
# counters, so it follows load/kinds.go), so both read the same objects in pages of the
# same size. kubectl lists the kinds one after the other, decodes every page into maps
# (Unstructured), then, for -o json and -o name alike, marshals all items into one List,
# decodes that again and prints it (k8s.io/kubectl pkg/cmd/get printGeneric); -o name
# writes one line per object instead of the objects. Its discovery is cached in the work
# dir (--cache-dir), as kubectl caches it in ~/.kube/cache: only the first run fills it.
# analyze also reads the Gateway API CRDs (GETs, not LISTs) and analyzes what it read;
# its --timings line splits the listing ("load") from the rest.
#
# Needs the cached kube-apiserver (hack/apiserver.sh build, once), kubectl (built by
# hack/apiserver.sh kubectl if not cached), etcd, curl and /usr/bin/time. The cluster
# gets its own state dir under the work dir (GWTLS_CLUSTER_STATE), so it never collides
# with hack/test.sh's cluster, and it is stopped on exit. Results go to stdout,
# progress to stderr; exits non-zero on failure.
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
kubectl_outputs=${KUBECTL_OUTPUTS-json name}
cluster_state=
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
    --kubectl-outputs) kubectl_outputs=${2?--kubectl-outputs needs a value}; shift 2 ;;
    --cluster-state) cluster_state=${2:?--cluster-state needs a value}; shift 2 ;;
    --keep) keep=true; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' >&2; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
for v in "$routes" "${gateways:-1}" "$workers" "$runs" $chunk_sizes; do
  case "$v" in ''|*[!0-9]*) die "not a number: $v" ;; esac
done
for o in $kubectl_outputs; do
  case "$o" in json|name|yaml) ;; *) die "--kubectl-outputs: $o is not one of json, name, yaml" ;; esac
done
[ -n "$gateways" ] || gateways=$(( routes / 100 > 0 ? routes / 100 : 1 ))
[ -x /usr/bin/time ] || die "/usr/bin/time missing (Debian package time)"
# Fail fast rather than after building and generating: a cold kube-apiserver build
# takes ~12 CPU-minutes and is hack/apiserver.sh build's job.
k8s_version=$(sed -n 's/^K8S_VERSION=//p' "$here/apiserver.sh")
[ -x "${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-gwtls/kube-apiserver-$k8s_version" ] ||
  die "kube-apiserver $k8s_version is not built: run hack/apiserver.sh build first (cold: ~11 min on 2 cores)"
command -v curl >/dev/null || die "curl missing"
if [ -n "$cluster_state" ]; then
  cluster_state=$(cd "$cluster_state" && pwd) || die "--cluster-state: no directory $cluster_state"
  [ -f "$cluster_state/apiserver.pid" ] && kill -0 "$(cat "$cluster_state/apiserver.pid")" 2>/dev/null ||
    die "--cluster-state: no kube-apiserver of hack/apiserver.sh runs with state $cluster_state"
fi
kubectl=
[ -z "$kubectl_outputs" ] || kubectl=$("$here/apiserver.sh" kubectl)

work=$(mktemp -d "${TMPDIR:-/tmp}/gwtls-bench-cluster.XXXXXX")
if [ -n "$cluster_state" ]; then
  export GWTLS_CLUSTER_STATE=$cluster_state
else
  export GWTLS_CLUSTER_STATE=$work/cluster
fi
state=$GWTLS_CLUSTER_STATE
cleanup() {
  local rc=$?
  if [ -z "$cluster_state" ]; then "$here/apiserver.sh" stop || rc=1; fi
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

if [ -z "$cluster_state" ]; then
  log "starting kube-apiserver + etcd (state $state)"
  "$here/apiserver.sh" start >&2
fi
kc=$state/admin.kubeconfig

# metrics prints the API server's apiserver_request_total series, read with the
# admin's client certificate.
metrics() {
  curl -sS --cacert "$state/pki/ca.crt" --cert "$state/pki/admin.crt" --key "$state/pki/admin.key" \
    "https://127.0.0.1:$(cat "$state/apiserver.port")/metrics" | grep '^apiserver_request_total{'
}
# metric_sum PROM_FILTER sums apiserver_request_total over the series that match
# (an awk regex on the label set).
metric_sum() { metrics | awk -v f="$1" '$0 ~ f { s += $NF } END { printf "%d\n", s }'; }
# list_counts prints "RESOURCE[.GROUP] PAGES" for every resource LISTed so far.
list_counts() {
  metrics | awk '
    function label(name) { return match($0, "[{,]" name "=\"[^\"]*\"") ? substr($0, RSTART + length(name) + 3, RLENGTH - length(name) - 4) : "" }
    /verb="LIST"/ {
    g = label("group"); r = label("resource")
    if (r != "") n[g == "" ? r : r "." g] += $NF
  } END { for (k in n) print k, n[k] }' | LC_ALL=C sort
}
# listed_since FILE prints, comma-separated, the resources LISTed since FILE was
# written by list_counts.
listed_since() {
  list_counts | awk -v before="$1" '
    BEGIN { while ((getline l < before) > 0) { split(l, f, " "); n[f[1]] = f[2] } }
    $2 > n[$1] { printf "%s%s", sep, $1; sep = "," }'
}
rss_mb() { ps -o rss= -p "$1" | awk '{ printf "%d MB", $1 / 1024 }'; }
# cpu_s PID prints the process's user + system CPU seconds so far.
cpu_s() { awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.1f\n", ($12 + $13) / hz }' "/proc/$1/stat"; }
delta() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# seconds DURATION converts a Go duration as --timings prints it (1m2.5s, 950ms) to seconds.
seconds() {
  awk -v d="$1" 'BEGIN {
    s = 0
    if (match(d, /^[0-9.]+m[^s]/)) { s = 60 * substr(d, 1, RSTART + RLENGTH - 3); d = substr(d, RSTART + RLENGTH - 1) }
    if (d ~ /ms$/) s += substr(d, 1, length(d) - 2) / 1000
    else if (d ~ /s$/) s += substr(d, 1, length(d) - 1)
    printf "%.2f\n", s
  }'
}

apid=$(cat "$state/apiserver.pid")
etcdpid=$(cat "$state/etcd.pid")
echo "== input: --seed 1 --gateways $gateways --listeners 20 --routes $routes ($(du -h "$yaml" | cut -f1) YAML)"
if [ -z "$cluster_state" ]; then
  echo "== loading with $workers concurrent creates"
  a0=$(cpu_s "$apid")
  e0=$(cpu_s "$etcdpid")
  /usr/bin/time -f '%e s wall, %U + %S s CPU, %M KB max RSS' -o "$work/loader.time" \
    "$loader" -kubeconfig "$kc" -f "$yaml" -workers "$workers"
  echo "loader:   $(cat "$work/loader.time")"
  echo "server CPU while loading: kube-apiserver $(delta "$a0" "$(cpu_s "$apid")") s, etcd $(delta "$e0" "$(cpu_s "$etcdpid")") s"
  echo "after loading: kube-apiserver RSS $(rss_mb "$apid"), etcd RSS $(rss_mb "$etcdpid"), etcd data $(du -sh "$(cat "$state/etcd.data")" | cut -f1)"
else
  echo "== cluster $state, loaded before: kube-apiserver RSS $(rss_mb "$apid"), etcd RSS $(rss_mb "$etcdpid")"
fi

[ "$runs" -ge 1 ] || exit 0

# The API server works on for a while after a large load (the first list after
# it used to take twice as long): wait until it uses under a fifth of a core.
settle_start=$SECONDS
while [ $((SECONDS - settle_start)) -lt 180 ]; do
  a0=$(cpu_s "$apid")
  sleep 5
  awk -v a="$a0" -v b="$(cpu_s "$apid")" 'BEGIN { exit !(b - a < 1) }' && break
done
log "API server settled after $((SECONDS - settle_start)) s"

# results holds a line per measured run: lister chunk run wall cpu rss_kb listing_s.
results=$work/results.tsv
: >"$results"

# measure NAME LISTER CHUNK RUN COMMAND... runs COMMAND under /usr/bin/time with its
# stdout in NAME.out and stderr in NAME.err, prints the time line, the API server's
# LIST requests and CPU, and records the run in $results.
measure() {
  local name=$1 lister=$2 chunk=$3 run=$4
  shift 4
  local code=0 lists0 a0
  lists0=$(metric_sum 'verb="LIST"')
  a0=$(cpu_s "$apid")
  /usr/bin/time -f '%e %U %S %M' -o "$work/$name.time" "$@" >"$work/$name.out" 2>"$work/$name.err" || code=$?
  if [ "$code" -ne 0 ]; then
    cat "$work/$name.err" >&2
    die "$lister (run $run, --chunk-size $chunk) exited $code"
  fi
  local wall user sys rss listing=
  read -r wall user sys rss <"$work/$name.time"
  if [ "$lister" != "${lister#analyze}" ]; then
    sed 's/^/  /' "$work/$name.err"
    listing=$(seconds "$(sed -n 's/^timings: load \([^ ]*\) .*/\1/p' "$work/$name.err")")
  fi
  printf '  %s: %s s wall, %s + %s s CPU, %d MB max RSS; %s LIST requests, kube-apiserver CPU %s s\n' \
    "$lister" "$wall" "$user" "$sys" $((rss / 1024)) "$(( $(metric_sum 'verb="LIST"') - lists0 ))" "$(delta "$a0" "$(cpu_s "$apid")")"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$lister" "$chunk" "$run" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" "$rss" "${listing:--}" >>"$results"
}

analyze_cluster() { # CHUNK RUN
  measure "analyze-$1-$2" analyze "$1" "$2" \
    "$bin" analyze -o json --timings --fail-on none --now "$now" --kubeconfig "$kc" -A --chunk-size "$1"
}

resources=
kubectl_get() { # OUTPUT CHUNK RUN
  measure "kubectl-$1-$2-$3" "kubectl-o-$1" "$2" "$3" \
    "$kubectl" --kubeconfig "$kc" --cache-dir "$work/kubectl-cache" get "$resources" -A -o "$1" --chunk-size "$2"
}

for chunk in $chunk_sizes; do
  echo "== --chunk-size $chunk: analyze -A --kubeconfig (cluster) and kubectl get -A -o {$(echo $kubectl_outputs | tr ' ' ,)}, $runs runs each, alternated"
  for i in $(seq "$runs"); do
    echo "run $i (load average $(cut -d' ' -f1-3 /proc/loadavg)):"
    # Each run takes turns at going first, so that neither always follows the other.
    listers="analyze $kubectl_outputs"
    [ $((i % 2)) -eq 1 ] || listers="$kubectl_outputs analyze"
    for l in $listers; do
      if [ "$l" = analyze ]; then
        list_counts >"$work/lists.before"
        analyze_cluster "$chunk" "$i"
        if [ -z "$resources" ] && [ -n "$kubectl_outputs" ]; then
          resources=$(listed_since "$work/lists.before")
          [ -n "$resources" ] || die "analyze listed nothing, per the API server's counters"
          echo "  kubectl gets what analyze listed: $resources"
        fi
      else
        list_counts >"$work/lists.before"
        kubectl_get "$l" "$chunk" "$i"
        got=$(listed_since "$work/lists.before")
        # A warning only: another client of the API server may have listed too.
        [ "$got" = "$resources" ] || echo "  warning: the API server saw LISTs of $got, not just of what analyze listed"
      fi
    done
  done
done
echo "== analyze -f (the same file), 1 run"
measure file analyze-f - 1 "$bin" analyze -o json --timings --fail-on none --now "$now" -f "$yaml"

first_chunk=${chunk_sizes%% *}
n_cluster=$(sed -n 's/.*(\([0-9]*\) objects).*/\1/p' "$work/analyze-$first_chunk-1.err")
n_file=$(sed -n 's/.*(\([0-9]*\) objects).*/\1/p' "$work/file.err")
echo "== objects: cluster $n_cluster, file $n_file (difference $(( n_cluster - n_file )))"
for o in $kubectl_outputs; do
  f=$work/kubectl-$o-$first_chunk-1.out
  echo "   kubectl -o $o: $(du -h "$f" | cut -f1) of output$([ "$o" != name ] || echo ", $(wc -l <"$f") names")"
done

# The summary: medians over the runs (peak RSS: the largest), and analyze's against
# each kubectl's; "listing" is analyze's --timings load (discovery, CRDs, lists, decode).
echo "== medians of $runs runs (load average now $(cut -d' ' -f1-3 /proc/loadavg))"
awk -F'\t' '
  function median(list,   a, n, i, t, j) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  $1 != "analyze-f" {
    k = $1 SUBSEP $2
    if (!(k in wall)) { order[++nk] = k }
    wall[k] = wall[k] " " $4; cpu[k] = cpu[k] " " $5; lst[k] = lst[k] " " $7
    if ($6 > rss[k]) rss[k] = $6
  }
  END {
    printf "%-14s %6s %9s %9s %9s %9s\n", "lister", "chunk", "wall s", "CPU s", "max RSS", "listing s"
    for (i = 1; i <= nk; i++) {
      split(order[i], p, SUBSEP)
      mw[order[i]] = median(wall[order[i]]); mc[order[i]] = median(cpu[order[i]])
      ml[order[i]] = p[1] == "analyze" ? median(lst[order[i]]) : "-"
      printf "%-14s %6s %9.2f %9.2f %6d MB %9s\n", p[1], p[2], mw[order[i]], mc[order[i]], rss[order[i]] / 1024, ml[order[i]]
    }
    for (i = 1; i <= nk; i++) {
      split(order[i], p, SUBSEP)
      if (p[1] == "analyze") continue
      a = "analyze" SUBSEP p[2]
      if (!(a in mw)) continue
      printf "analyze / %s at --chunk-size %s: wall %.2fx (listing alone %.2fx), CPU %.2fx, max RSS %.2fx\n",
        p[1], p[2], mw[a] / mw[order[i]], ml[a] / mw[order[i]], mc[a] / mc[order[i]], rss[a] / rss[order[i]]
    }
  }' "$results"
