# Sourced by `make test` (and by a developer who runs pytest by hand: `source .ci/postgres.sh`):
# a throwaway PostgreSQL cluster on a free loopback port, from Debian's package (installed if missing),
# owned by the postgres user in a temporary folder, stopped and deleted when the shell exits.
# Exports TREATY_TEST_PG_URL for tests/app/test_store.py.
treaty_pg_start() {
  if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "[postgres] a instalar o PostgreSQL (apt)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local bin port
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  TREATY_PG_DIR=$(mktemp -d /tmp/treaty-pg.XXXXXX)
  chown postgres: "$TREATY_PG_DIR"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  runuser -u postgres -- "$bin/initdb" -D "$TREATY_PG_DIR/data" -A trust -U postgres -E UTF8 --locale=C.UTF-8 >/dev/null
  runuser -u postgres -- "$bin/pg_ctl" -D "$TREATY_PG_DIR/data" -l "$TREATY_PG_DIR/server.log" -w \
    -o "-p $port -k $TREATY_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
  runuser -u postgres -- "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres treaty_test
  export TREATY_TEST_PG_URL="postgresql+psycopg://postgres@127.0.0.1:$port/treaty_test"
  TREATY_PG_BIN=$bin
  trap treaty_pg_stop EXIT
  echo "[postgres] servidor de teste em 127.0.0.1:$port ($TREATY_PG_DIR)"
}

treaty_pg_stop() {
  if [ -n "${TREATY_PG_DIR:-}" ] && [ -d "$TREATY_PG_DIR/data" ]; then
    runuser -u postgres -- "$TREATY_PG_BIN/pg_ctl" -D "$TREATY_PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$TREATY_PG_DIR"
  fi
}

treaty_pg_start
