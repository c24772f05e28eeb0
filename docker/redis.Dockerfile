# Debian 12's Redis for a Cinq cluster's bus (docker/compose.cluster.yml), built here since no registry image
# is used. The build context is this directory:   docker build -f docker/redis.Dockerfile -t cinq-redis docker
# No persistence: the bus carries messages between the nodes while they are in flight, and nothing the game
# needs is kept in Redis (the games are in PostgreSQL), so a restarted Redis starts empty on purpose.
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
USER redis
WORKDIR /var/lib/redis
EXPOSE 6379
# redis-cli exits 0 on an error reply too ("LOADING"): only PONG counts.
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["sh", "-c", "[ \"$(redis-cli ping)\" = PONG ]"]
STOPSIGNAL SIGTERM
# Every address of the container's network (no port is published: only the nodes reach it), so protected
# mode, which refuses other hosts when there is no password, is off.
CMD ["redis-server", "--bind", "0.0.0.0", "--protected-mode", "no", "--save", "", "--appendonly", "no", \
     "--daemonize", "no", "--logfile", ""]
