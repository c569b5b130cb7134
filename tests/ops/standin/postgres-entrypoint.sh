#!/bin/sh
# Stands in for the official postgres image's entry point in tests/ops/test_container.py, with the
# part of its interface compose.yaml uses: POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB make
# the user and database on first start, the data lives in PGDATA (the volume), the server listens
# on every address with password authentication, and pg_isready answers the health check.
set -eu
export PGDATA=/var/lib/postgresql/data
bin=$(ls -d /usr/lib/postgresql/*/bin | tail -n 1)
mkdir -p "$PGDATA" /run/postgresql
chown postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "$POSTGRES_PASSWORD" > /run/postgresql/pwfile
    chown postgres /run/postgresql/pwfile
    runuser -u postgres -- "$bin/initdb" -D "$PGDATA" -U "$POSTGRES_USER" -E UTF8 --no-sync \
        --auth-local=trust --auth-host=scram-sha-256 --pwfile=/run/postgresql/pwfile >/dev/null
    rm /run/postgresql/pwfile
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    runuser -u postgres -- "$bin/pg_ctl" -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
    runuser -u postgres -- "$bin/createdb" -U "$POSTGRES_USER" "$POSTGRES_DB"
    runuser -u postgres -- "$bin/pg_ctl" -D "$PGDATA" -w stop >/dev/null
fi
exec runuser -u postgres -- "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
