#!/usr/bin/env bash
# Brings up deploy/compose.yaml (two replicas, Postgres, MinIO, nginx) and proves it through the proxy:
# readiness, the landing page, register + sign in, an upload through a presigned MinIO link, a saved movie, a
# byte-exact download, both replicas answering, and a rolling restart of each replica under a request loop.
# Then `down -v` (pass --keep to leave it running). Needs Docker with the compose plugin, Node >= 20.19 and
# the repository's dependencies (npx --yes pnpm@10 install). Exits non-zero on the first failure.
set -euo pipefail

cd "$(dirname "$0")/.."
KEEP=0
[[ "${1:-}" == "--keep" ]] && KEEP=1
COMPOSE=(docker compose -f deploy/compose.yaml)
ENV_FILE=deploy/.env
proved=()
step() { printf '\n== %s\n' "$*"; }
pass() { proved+=("$*"); printf '  ✓ %s\n' "$*"; }
fail() {
  printf '\n✗ %s\n' "$*" >&2
  "${COMPOSE[@]}" ps >&2 || true
  "${COMPOSE[@]}" logs --tail 40 app1 app2 proxy >&2 || true
  finish 1
}
finish() {
  if [[ $KEEP -eq 0 ]]; then "${COMPOSE[@]}" down -v --remove-orphans >/dev/null 2>&1 || true; fi
  printf '\nProved:\n'; printf '  - %s\n' "${proved[@]:-nothing}"
  exit "$1"
}

command -v docker >/dev/null || { echo "docker is not installed" >&2; exit 2; }
docker compose version >/dev/null 2>&1 || { echo "the docker compose plugin is missing" >&2; exit 2; }
command -v node >/dev/null || { echo "node (>= 20.19) is needed for the HTTP checks" >&2; exit 2; }
[[ -d api/node_modules ]] || npx --yes pnpm@10 install --frozen-lockfile

if [[ ! -f $ENV_FILE ]]; then
  step "No $ENV_FILE: writing one with generated secrets"
  secret() { node -e "process.stdout.write(require('crypto').randomBytes($1).toString('hex'))"; }
  sed -e "s/^POSTGRES_PASSWORD=.*/POSTGRES_PASSWORD=$(secret 24)/" \
    -e "s/^S3_SECRET_ACCESS_KEY=.*/S3_SECRET_ACCESS_KEY=$(secret 24)/" \
    -e "s/^JWT_SECRET=.*/JWT_SECRET=$(secret 32)/" \
    -e "s/^STORAGE_SIGNING_SECRET=.*/STORAGE_SIGNING_SECRET=$(secret 32)/" \
    -e "s/^CONTENT_MASTER_KEY=.*/CONTENT_MASTER_KEY=$(secret 32)/" \
    -e "s/^ADMIN_PASSWORD=.*/ADMIN_PASSWORD=$(secret 16)/" \
    -e "s/^# ALLOW_PAYMENT_SANDBOX=true$/ALLOW_PAYMENT_SANDBOX=true/" \
    -e "s/^# ALLOW_SMS_SIMULATOR=true$/ALLOW_SMS_SIMULATOR=true/" \
    deploy/.env.example >"$ENV_FILE"
  chmod 600 "$ENV_FILE"
fi
set -a; source "$ENV_FILE"; set +a
BASE="http://localhost:${FILAMU_HTTP_PORT:-8080}"
SMOKE=(npx --yes pnpm@10 --filter ./api exec node --import tsx ../scripts/deploy-smoke.ts --base-url "$BASE")

step "Building and starting (docker compose up -d --build --wait)"
"${COMPOSE[@]}" up -d --build --wait || fail "compose did not come up healthy"
pass "compose up: postgres, minio, s3-init, app1, app2 and proxy healthy"

step "Smoke test through the proxy ($BASE)"
"${SMOKE[@]}" --expect-replicas 2 || fail "the smoke test failed"
pass "smoke: ready, landing, register/sign in, upload to MinIO, save, library, byte-exact download, 2 replicas"

step "Rolling restart of each replica under a request loop"
"${SMOKE[@]}" --loop 90 &
loop=$!
for replica in app1 app2; do
  "${COMPOSE[@]}" stop "$replica" || fail "stopping $replica"
  "${COMPOSE[@]}" start "$replica" || fail "starting $replica"
  "${COMPOSE[@]}" up -d --wait "$replica" || fail "$replica did not become healthy again"
  pass "$replica stopped (SIGTERM) and back healthy"
done
wait "$loop" || fail "requests failed during the rolling restart"
pass "no failed request during the rolling restart"

step "Smoke test again after the restart"
"${SMOKE[@]}" --expect-replicas 2 || fail "the smoke test failed after the restart"
pass "smoke after restart"

finish 0
