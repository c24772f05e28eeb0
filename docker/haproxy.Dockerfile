# Debian 12's HAProxy in front of a Cinq cluster's nodes (docker/compose.cluster.yml), with docker/haproxy.cfg.
# The build context is this directory:   docker build -f docker/haproxy.Dockerfile -t cinq-haproxy docker
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY haproxy.cfg /etc/haproxy/cinq.cfg
# Port 8080 needs no privilege: HAProxy runs as its package's user from the start.
USER haproxy
EXPOSE 8080
# Healthy while some node answers /api/health through it (bash's /dev/tcp: no curl in the image).
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /api/health HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && IFS= read -r status <&3 && [[ $status == *' 200 '* ]]"]
# SIGTERM stops at once (SIGUSR1's soft stop would wait for every WebSocket tunnel to close); clients
# reconnect by themselves.
STOPSIGNAL SIGTERM
# -db: in the foreground, logging on stdout (the container's log).
CMD ["haproxy", "-db", "-f", "/etc/haproxy/cinq.cfg"]
