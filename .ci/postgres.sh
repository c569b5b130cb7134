#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests: `source .ci/postgres.sh start` creates one in a
# temporary folder on a free loopback port and exports TEST_DATABASE_URL; `pg_stop` (or the
# script's `stop`) stops it and removes the folder. As root, the cluster runs as an unprivileged
# user (PostgreSQL refuses to run as root). Without PostgreSQL's programs it says so and returns 1.
pg_bin() {
    local dir
    for dir in /usr/lib/postgresql/*/bin /usr/local/bin /usr/bin; do
        if [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]]; then echo "$dir"; return 0; fi
    done
    return 1
}

pg_start() {
    local bin port user run
    bin="$(pg_bin)" || { echo "PostgreSQL (initdb, pg_ctl) is not installed: only the SQLite half runs." >&2; return 1; }
    PG_TMP="$(mktemp -d /tmp/tablebot-pg.XXXXXX)"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    run=()
    if [[ "$(id -u)" == 0 ]]; then
        user=postgres
        id "$user" >/dev/null 2>&1 || user=nobody
        chown "$user" "$PG_TMP"
        run=(runuser -u "$user" --)
    fi
    "${run[@]}" "$bin/initdb" -D "$PG_TMP/data" -U tablebot --auth=trust -E UTF8 --no-sync >"$PG_TMP/initdb.log" 2>&1 \
        || { cat "$PG_TMP/initdb.log" >&2; return 1; }
    # fsync off: the cluster lives for one test run; durability is SQLite's and PostgreSQL's own job.
    "${run[@]}" "$bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/server.log" -w -t 60 start \
        -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$PG_TMP -c fsync=off -c max_connections=200" \
        >/dev/null || { cat "$PG_TMP/server.log" >&2; return 1; }
    PG_RUN="${run[*]}"
    PG_BIN="$bin"
    export PG_TMP PG_RUN PG_BIN
    export TEST_DATABASE_URL="postgresql://tablebot@127.0.0.1:$port/postgres"
    echo "PostgreSQL $("$bin/pg_ctl" --version | awk '{print $3}') on 127.0.0.1:$port ($PG_TMP)" >&2
}

pg_stop() {
    [[ -n "${PG_TMP:-}" && -d "$PG_TMP/data" ]] || return 0
    # shellcheck disable=SC2086
    $PG_RUN "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_TMP"
    unset TEST_DATABASE_URL PG_TMP
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    echo "source this file, then call pg_start / pg_stop" >&2
    exit 2
fi
