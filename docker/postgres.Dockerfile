# Debian 12's PostgreSQL for Cinq's store, built here since no registry image is used. The build context is
# this directory:   docker build -f docker/postgres.Dockerfile -t cinq-postgres docker
# (docker/compose.postgres.yml builds and starts it). On its first start, with an empty volume, it creates the
# cluster, the role and the database `cinq` (password: POSTGRES_PASSWORD, default `cinq`), then serves on
# every address with scram-sha-256 password authentication.
FROM debian:bookworm-slim
# No cluster from the package's own scripts: postgres-start.sh creates one in the volume.
RUN mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
# The volume is created here so that a new named volume starts owned by postgres, mode 0700; the cluster is
# its subdirectory pgdata (postgres-start.sh).
RUN mkdir -p /var/lib/postgresql/data /run/postgresql \
 && chown postgres:postgres /var/lib/postgresql/data /run/postgresql \
 && chmod 0700 /var/lib/postgresql/data
COPY postgres-start.sh /usr/local/bin/postgres-start.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data/pgdata
USER postgres
VOLUME /var/lib/postgresql/data
EXPOSE 5432
# Ready only once the final server answers on TCP: the server of the first start's setup listens on its
# socket alone, so nobody connects before the role and the database exist.
HEALTHCHECK --interval=5s --timeout=5s --start-period=60s --retries=5 \
  CMD ["pg_isready", "-q", "-h", "127.0.0.1", "-U", "cinq", "-d", "cinq"]
# SIGINT is PostgreSQL's fast shutdown (SIGTERM's smart one would wait for cinq to disconnect).
STOPSIGNAL SIGINT
CMD ["postgres-start.sh"]
