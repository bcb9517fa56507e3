#!/usr/bin/env bash
# A real kube-apiserver (+ etcd) on 127.0.0.1 for the cluster-mode end-to-end tests.
#
#   hack/apiserver.sh build   build kube-apiserver (once per version, cached outside the repo)
#   hack/apiserver.sh kubectl print the path of kubectl of the same version, building it
#                             first if it is not cached (hack/bench-cluster.sh's baseline)
#   hack/apiserver.sh start   start etcd + kube-apiserver, install the Gateway API CRDs,
#                             write kubeconfigs; prints the state dir and kubeconfig paths
#   hack/apiserver.sh stop    stop kube-apiserver, then etcd; remove the state
#   hack/apiserver.sh env     print GWTLS_CLUSTER_STATE=... (the state dir)
#
# State dir: $GWTLS_CLUSTER_STATE (default ${TMPDIR:-/tmp}/kubectl-gwtls-cluster), holding
#   admin.kubeconfig       system:masters client certificate
#   restricted.kubeconfig  user "gwtls-restricted", no permissions of its own (the tests
#                          grant it a namespaced Role)
#   nocrd.kubeconfig       admin of a second kube-apiserver (same etcd, another prefix)
#                          that never gets the Gateway API CRDs
#   standard.kubeconfig    admin of a third kube-apiserver (same etcd, a third prefix)
#                          with the standard channel's CRDs (the admission test)
# etcd data lives under /dev/shm. The kube-apiserver binary is cached in
# ${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-gwtls/kube-apiserver-$K8S_VERSION, kubectl
# beside it as kubectl-$K8S_VERSION; both are built in the separate module
# hack/kube-apiserver, so Kubernetes never enters the main module's go.mod.
set -euo pipefail

K8S_VERSION=v1.36.3
GATEWAY_API_VERSION=v1.6.3
here=$(cd "$(dirname "$0")" && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-gwtls
bin=$cache/kube-apiserver-$K8S_VERSION
kubectl_bin=$cache/kubectl-$K8S_VERSION
state=${GWTLS_CLUSTER_STATE:-${TMPDIR:-/tmp}/kubectl-gwtls-cluster}

log() { printf 'apiserver.sh: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

# build_once CMD OUT NOTE builds k8s.io/kubernetes/cmd/CMD into OUT in the module
# hack/kube-apiserver, unless OUT is cached (progress on stderr).
build_once() {
  if [ -x "$2" ]; then
    log "cached: $2"
    return
  fi
  mkdir -p "$cache"
  log "building $1 $K8S_VERSION into $2 (cold build: $3 on 2 cores)"
  local start=$SECONDS
  (cd "$here/kube-apiserver" &&
    CGO_ENABLED=0 nice -n 10 go build -trimpath -o "$2.tmp" "k8s.io/kubernetes/cmd/$1") >&2
  mv "$2.tmp" "$2"
  log "built in $((SECONDS - start))s"
}

build() { build_once kube-apiserver "$bin" "~11 min"; }

# kubectl prints the path of kubectl $K8S_VERSION, building it once like
# kube-apiserver (progress on stderr, the path alone on stdout).
kubectl() {
  build_once kubectl "$kubectl_bin" "several minutes"
  echo "$kubectl_bin"
}

# free_port prints a TCP port on 127.0.0.1 that nothing listens on, below the
# kernel's ephemeral range: a port inside it can be taken by any outgoing
# connection (the API servers' own to etcd) between this check and the bind,
# which made etcd fail with "address already in use". Ports already handed
# out by this run (listed in $state/ports) are skipped too.
free_port() {
  local p eph lo=20000 hi=32768
  if [[ -r /proc/sys/net/ipv4/ip_local_port_range ]]; then
    read -r eph _ </proc/sys/net/ipv4/ip_local_port_range
    if ((eph > 12000 && eph < hi)); then hi=$eph; lo=$((eph - 12000 > 10000 ? eph - 12000 : 10000)); fi
  fi
  for _ in $(seq 100); do
    p=$((lo + RANDOM % (hi - lo)))
    grep -qx "$p" "$state/ports" 2>/dev/null && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p" >>"$state/ports"
      echo "$p"
      return
    fi
  done
  die "no free port found"
}

ensure_etcd() {
  command -v etcd >/dev/null && return
  log "etcd missing: installing Debian's etcd-server"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq etcd-server >&2
  command -v etcd >/dev/null || die "etcd still missing after installing etcd-server"
}

# certs writes a CA, a serving certificate for 127.0.0.1, client certificates for
# the admin (system:masters) and the restricted identity, and a service-account key.
certs() {
  local d=$state/pki
  mkdir -p "$d"
  cd "$d"
  openssl ecparam -name prime256v1 -genkey -noout -out ca.key 2>/dev/null
  openssl req -x509 -new -key ca.key -subj /CN=gwtls-e2e-ca -days 2 -out ca.crt 2>/dev/null
  leaf() { # name subject extensions
    openssl ecparam -name prime256v1 -genkey -noout -out "$1.key" 2>/dev/null
    openssl req -new -key "$1.key" -subj "$2" -out "$1.csr" 2>/dev/null
    printf '%s\n' "$3" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 -extfile "$1.ext" -out "$1.crt" 2>/dev/null
  }
  leaf serving /CN=kube-apiserver "$(printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature')"
  leaf admin "/O=system:masters/CN=gwtls-admin" "$(printf 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature')"
  leaf restricted "/CN=gwtls-restricted" "$(printf 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature')"
  openssl genrsa -out sa.key 2048 2>/dev/null
  openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
  cd - >/dev/null
}

kubeconfig() { # file port user
  cat > "$1" <<KC
apiVersion: v1
kind: Config
clusters:
- name: gwtls-e2e
  cluster:
    server: https://127.0.0.1:$2
    certificate-authority: $state/pki/ca.crt
users:
- name: $3
  user:
    client-certificate: $state/pki/$3.crt
    client-key: $state/pki/$3.key
contexts:
- name: gwtls-e2e
  context:
    cluster: gwtls-e2e
    user: $3
    namespace: default
current-context: gwtls-e2e
KC
}

# apiserver NAME PORT ETCD_PREFIX starts a kube-apiserver in the background.
apiserver() {
  "$bin" \
    --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$2" \
    --etcd-servers="http://127.0.0.1:$(cat "$state/etcd.port")" --etcd-prefix="$3" \
    --tls-cert-file="$state/pki/serving.crt" --tls-private-key-file="$state/pki/serving.key" \
    --client-ca-file="$state/pki/ca.crt" \
    --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc.cluster.local \
    --service-account-key-file="$state/pki/sa.pub" \
    --service-account-signing-key-file="$state/pki/sa.key" \
    --service-cluster-ip-range=10.96.0.0/12 \
    --profiling=false --v=1 \
    >"$state/$1.log" 2>&1 &
  echo $! > "$state/$1.pid"
  echo "$2" > "$state/$1.port"
}

# curl_api NAME ARGS... talks to an apiserver as the admin.
curl_api() {
  local name=$1 path=$2
  shift 2
  curl -sS --cacert "$state/pki/ca.crt" --cert "$state/pki/admin.crt" --key "$state/pki/admin.key" \
    "$@" "https://127.0.0.1:$(cat "$state/$name.port")$path"
}

wait_ready() { # NAME
  for _ in $(seq 240); do
    if [ "$(curl_api "$1" /readyz -o /dev/null -w '%{http_code}' 2>/dev/null)" = 200 ]; then
      return
    fi
    kill -0 "$(cat "$state/$1.pid")" 2>/dev/null || { tail -30 "$state/$1.log" >&2; die "$1 exited"; }
    sleep 0.5
  done
  tail -30 "$state/$1.log" >&2
  die "$1 not ready after 120s"
}

# crds installs the Gateway API CRDs of a channel (experimental by default) with
# server-side apply.
crds() { # NAME [CHANNEL]
  local dir channel=${2:-experimental}
  dir=$(cd "$here/kube-apiserver" && GOFLAGS=-mod=mod go mod download -json "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -d "$dir/config/crd/$channel" ] || die "gateway-api $GATEWAY_API_VERSION not in the module cache ($dir)"
  local f base name code
  for f in "$dir"/config/crd/"$channel"/gateway.networking*.yaml; do # the x-k8s.io kinds (XMesh...) too
    base=$(basename "$f" .yaml)
    case "$base" in *_vap_*) continue ;; esac
    name="${base#*_}.${base%%_*}" # gateway.networking.k8s.io_gateways -> gateways.gateway.networking.k8s.io
    code=$(grep -v '^---$' "$f" | curl_api "$1" "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/$name?fieldManager=gwtls-e2e&force=true" \
      -X PATCH -H 'Content-Type: application/apply-patch+yaml' --data-binary @- -o "$state/$1.crd.out" -w '%{http_code}')
    [ "$code" = 200 ] || [ "$code" = 201 ] || { cat "$state/$1.crd.out" >&2; die "applying CRD $name to $1: HTTP $code"; }
  done
  # Wait until discovery serves every kind in every version the tests use (the
  # standard channel serves TLSRoute in v1 only).
  local tlsroutes=/apis/gateway.networking.k8s.io/v1alpha2
  [ "$channel" = standard ] && tlsroutes=/apis/gateway.networking.k8s.io/v1
  for _ in $(seq 120); do
    if curl_api "$1" /apis/gateway.networking.k8s.io/v1 2>/dev/null | grep -q '"listenersets"' &&
      curl_api "$1" /apis/gateway.networking.k8s.io/v1 2>/dev/null | grep -q '"backendtlspolicies"' &&
      curl_api "$1" "$tlsroutes" 2>/dev/null | grep -q '"tlsroutes"' &&
      curl_api "$1" /apis/gateway.networking.k8s.io/v1beta1 2>/dev/null | grep -q '"referencegrants"'; then
      log "Gateway API $GATEWAY_API_VERSION $channel CRDs established on $1"
      return
    fi
    sleep 0.5
  done
  die "Gateway API $channel CRDs not served by $1 after 60s"
}

start() {
  [ -x "$bin" ] || die "no kube-apiserver at $bin: run $0 build first"
  if [ -f "$state/apiserver.pid" ] && kill -0 "$(cat "$state/apiserver.pid")" 2>/dev/null; then
    die "already running (state $state); run $0 stop first"
  fi
  ensure_etcd
  rm -rf "$state"
  mkdir -p "$state"
  local t0=$SECONDS
  certs
  local data etcd_port peer_port
  data=$(mktemp -d /dev/shm/gwtls-etcd.XXXXXX)
  echo "$data" > "$state/etcd.data"
  etcd_port=$(free_port)
  peer_port=$(free_port)
  echo "$etcd_port" > "$state/etcd.port"
  etcd --name gwtls-e2e --data-dir "$data" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "gwtls-e2e=http://127.0.0.1:$peer_port" --log-level warn \
    >"$state/etcd.log" 2>&1 &
  echo $! > "$state/etcd.pid"
  for _ in $(seq 60); do
    curl -sf "http://127.0.0.1:$etcd_port/health" >/dev/null 2>&1 && break
    sleep 0.5
  done
  curl -sf "http://127.0.0.1:$etcd_port/health" >/dev/null || { tail -20 "$state/etcd.log" >&2; die "etcd not healthy"; }

  # "apiserver" gets the Gateway API CRDs; "nocrd" shares etcd under another prefix
  # and never gets them (the tests' cluster without the Gateway API); "standard"
  # gets the standard channel's CRDs, under a third prefix (the admission test
  # compares the offline verdicts of both channels with an API server's).
  apiserver apiserver "$(free_port)" /registry
  apiserver nocrd "$(free_port)" /registry-nocrd
  apiserver standard "$(free_port)" /registry-standard
  wait_ready apiserver
  wait_ready nocrd
  wait_ready standard
  crds apiserver
  crds standard standard
  kubeconfig "$state/admin.kubeconfig" "$(cat "$state/apiserver.port")" admin
  kubeconfig "$state/restricted.kubeconfig" "$(cat "$state/apiserver.port")" restricted
  kubeconfig "$state/nocrd.kubeconfig" "$(cat "$state/nocrd.port")" admin
  kubeconfig "$state/standard.kubeconfig" "$(cat "$state/standard.port")" admin
  log "ready in $((SECONDS - t0))s"
  echo "GWTLS_CLUSTER_STATE=$state"
  echo "admin:      $state/admin.kubeconfig"
  echo "restricted: $state/restricted.kubeconfig"
  echo "nocrd:      $state/nocrd.kubeconfig"
  echo "standard:   $state/standard.kubeconfig"
}

stop_pid() { # FILE
  [ -f "$1" ] || return 0
  local pid
  pid=$(cat "$1")
  if kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    for _ in $(seq 100); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  fi
  rm -f "$1"
}

stop() {
  [ -d "$state" ] || return 0
  # The apiservers before etcd, so they do not spin on a vanished backend.
  stop_pid "$state/apiserver.pid"
  stop_pid "$state/nocrd.pid"
  stop_pid "$state/standard.pid"
  stop_pid "$state/etcd.pid"
  if [ -f "$state/etcd.data" ]; then
    case "$(cat "$state/etcd.data")" in /dev/shm/gwtls-etcd.*) rm -rf "$(cat "$state/etcd.data")" ;; esac
  fi
  rm -rf "$state"
  log "stopped"
}

case "${1:-}" in
  build) build ;;
  kubectl) kubectl ;;
  start) start ;;
  stop) stop ;;
  env) echo "GWTLS_CLUSTER_STATE=$state" ;;
  *) die "usage: $0 build|kubectl|start|stop|env" ;;
esac
