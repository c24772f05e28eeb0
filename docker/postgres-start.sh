#!/bin/sh
# The PostgreSQL container's command (docker/postgres.Dockerfile), as the user postgres. On the first start
# it creates the cluster, the role `cinq` with the password POSTGRES_PASSWORD (default `cinq`) and the
# database `cinq` it owns; then it serves on every address, scram-sha-256 passwords over TCP (the socket,
# inside the container alone, trusts its users: `docker exec CONTAINER psql -U cinq`).
set -eu
export POSTGRES_PASSWORD="${POSTGRES_PASSWORD:-cinq}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  # Set up beside PGDATA and renamed once complete: a first start cut short is redone from scratch.
  new="$PGDATA.new"
  rm -rf "$new"
  initdb --pgdata="$new" --username=postgres --encoding=UTF8 --no-locale \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  printf 'host all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n' >>"$new/pg_hba.conf"
  # A server on its socket alone for the setup (the health check asks over TCP, so it stays unready).
  pg_ctl --pgdata="$new" --wait --silent -o "-c listen_addresses=''" start
  # psql reads the password from the environment itself (\getenv) and quotes it (:'pw'): it is never on a
  # command line.
  printf '%s\n' '\getenv pw POSTGRES_PASSWORD' "CREATE ROLE cinq LOGIN PASSWORD :'pw';" \
    'CREATE DATABASE cinq OWNER cinq;' |
    psql --quiet --no-psqlrc --set=ON_ERROR_STOP=1 --username=postgres --dbname=postgres
  pg_ctl --pgdata="$new" --wait --silent --mode=fast stop
  mv "$new" "$PGDATA"
  echo "postgres-start: created the cluster, the role cinq and the database cinq"
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
