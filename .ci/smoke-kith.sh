#!/usr/bin/env bash
# Starts Kith the way README.md tells a newcomer to (./kith, embedded stores, no configuration) and checks that it
# comes up with every module and answers its health, readiness and API probes; then stops it. The unit and HTTP
# tests start Kith inside the test JVM from the class path, so a dependency missing from the runnable jar only shows
# here (the push module once failed to start under ./kith while every test passed).
set -euo pipefail
cd "$(dirname "$0")/.."

port="${KITH_SMOKE_PORT:-18090}"
work="$(mktemp -d)"
log="$work/kith.log"
KITH_HTTP_PORT="$port" KITH_DATA_DIR="$work/data" ./kith >"$log" 2>&1 &
pid=$!
stop() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

fail() {
  echo "smoke: $*" >&2
  echo "--- the last lines Kith printed:" >&2
  tail -n 40 "$log" >&2
  exit 1
}

# a deadline that only catches a hang: start-up takes seconds, a build of the jar a few minutes
for _ in $(seq 1 300); do
  if grep -q "Kith is up" "$log"; then break; fi
  kill -0 "$pid" 2>/dev/null || fail "Kith exited before it was up"
  sleep 1
done
grep -q "Kith is up" "$log" || fail "Kith was not up after 300 s"

up_line="$(grep "Kith is up" "$log")"
for module in accounts relations feeds notifications moderation messaging push activities gateway; do
  [[ "$up_line" == *"$module"* ]] || fail "module $module missing from: $up_line"
done

for path in /health /ready /api/v1/ping /console/ /console/app.js; do
  code="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$path")"
  [ "$code" = "200" ] || fail "GET $path answered $code"
done
echo "smoke: ./kith is up with every module; /health, /ready, /api/v1/ping and the console answer 200"
