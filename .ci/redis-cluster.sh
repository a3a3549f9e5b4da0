#!/usr/bin/env bash
# Starts or stops a Redis Cluster on loopback for the tests: 3 masters and 3 replicas of the redis-server on PATH,
# each with AOF on, under DIR (one sub-directory per node, its log and pid file there). DEBUG is allowed from
# loopback: the failover test crashes a master with DEBUG SEGFAULT.
#
#   .ci/redis-cluster.sh start DIR [BASE_PORT]   starts ports BASE_PORT..BASE_PORT+5 (default 7000), waits for
#                                                cluster_state:ok, prints the seed list for KITH_TEST_REDIS_CLUSTER
#   .ci/redis-cluster.sh stop DIR                stops every node started under DIR
set -euo pipefail

action=${1:?usage: $0 start|stop DIR [BASE_PORT]}
dir=${2:?usage: $0 start|stop DIR [BASE_PORT]}
base=${3:-7000}

stop() {
  for pidfile in "$dir"/*/redis.pid; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}

start() {
  mkdir -p "$dir"
  nodes=()
  for i in 0 1 2 3 4 5; do
    port=$((base + i))
    node="$dir/$port"
    # a fresh cluster each time: old nodes.conf or AOF files would bring back an old topology
    rm -rf "$node" && mkdir -p "$node"
    redis-server --port "$port" --bind 127.0.0.1 --dir "$node" --daemonize yes \
      --pidfile "$node/redis.pid" --logfile "$node/redis.log" \
      --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 2000 \
      --appendonly yes --appendfsync everysec --save '' --protected-mode yes --enable-debug-command local
    nodes+=("127.0.0.1:$port")
  done
  for n in "${nodes[@]}"; do
    for _ in $(seq 1 100); do redis-cli -u "redis://$n" ping >/dev/null 2>&1 && break; sleep 0.1; done
  done
  redis-cli --cluster create "${nodes[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log"
  for n in "${nodes[@]}"; do
    for _ in $(seq 1 300); do
      redis-cli -u "redis://$n" cluster info | grep -q '^cluster_state:ok' && break
      sleep 0.1
    done
    redis-cli -u "redis://$n" cluster info | grep -q '^cluster_state:ok' \
      || { echo "Redis Cluster node $n is not ok after 30 s (see $dir/create.log)" >&2; exit 1; }
  done
  # every master has its replica in sync, so that the failover test finds one to promote
  for _ in $(seq 1 300); do
    [ "$(for n in "${nodes[@]}"; do redis-cli -u "redis://$n" info replication; done \
      | grep -c '^master_link_status:up')" = 3 ] && break
    sleep 0.1
  done
  (IFS=,; echo "${nodes[*]}")
}

case "$action" in
  start) stop; start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop DIR [BASE_PORT]" >&2; exit 2 ;;
esac
