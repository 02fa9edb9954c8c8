#!/usr/bin/env bash
# Installs (only when missing) and starts the services the web tests need:
#   - Debian's chromium, driven by Playwright through executable_path;
#   - a PostgreSQL server on loopback, in a cluster of its own under /tmp.
# Idempotent: run it as often as you like. It writes what it started to
# /tmp/kingmaker-test-services.env, which tests/web reads (and fails loudly without).
# Runs as root (CI and developers' machines are root); Debian bookworm.
set -euo pipefail

PG_PORT="${KINGMAKER_PG_PORT:-55432}"
PG_DIR="${KINGMAKER_PG_DIR:-/tmp/kingmaker-pg}"
PG_DB=kingmaker_test
ENV_FILE=/tmp/kingmaker-test-services.env

updated=0
apt_install() {
    if [ "$updated" = 0 ]; then
        echo "test-services: apt-get update"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        updated=1
    fi
    echo "test-services: apt-get install $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ---- chromium -----------------------------------------------------------------
if [ ! -x /usr/bin/chromium ]; then
    apt_install chromium fonts-dejavu-core fonts-liberation
fi
echo "test-services: chromium: $(/usr/bin/chromium --version 2>/dev/null || echo 'not runnable')"

# ---- PostgreSQL -------------------------------------------------------------------
pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
if [ -z "$(pg_bin)" ] || [ ! -x "$(pg_bin)/initdb" ]; then
    apt_install postgresql
fi
BIN="$(pg_bin)"
as_pg() { runuser -u postgres -- "$@"; }

if ! "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT"; then
    if [ ! -f "$PG_DIR/PG_VERSION" ]; then
        rm -rf "$PG_DIR"
        mkdir -p "$PG_DIR"
        chown postgres:postgres "$PG_DIR"
        chmod 700 "$PG_DIR"
        as_pg "$BIN/initdb" -D "$PG_DIR" -A trust -U postgres -E UTF8 >/dev/null
    fi
    rm -f "$PG_DIR/postmaster.pid"
    as_pg "$BIN/pg_ctl" -D "$PG_DIR" -l "$PG_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k /tmp -c fsync=off -c max_connections=200" \
        start >/dev/null
fi
if ! as_pg "$BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc \
        "SELECT 1 FROM pg_database WHERE datname='$PG_DB'" | grep -q 1; then
    as_pg "$BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres "$PG_DB"
fi
echo "test-services: postgresql $("$BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT"

cat > "$ENV_FILE" <<ENV
KINGMAKER_TEST_PG_URL=postgresql://postgres@127.0.0.1:$PG_PORT/$PG_DB
KINGMAKER_TEST_CHROMIUM=/usr/bin/chromium
ENV
echo "test-services: wrote $ENV_FILE"
