# Debian 12's Postfix beside Cinq (docker/compose.mail.yml, docs/mail.md "Containers"): it relays the site's
# mail (to CINQ_RELAYHOST, or straight to the recipients' MX when that is empty) and hands mail for the game
# domain to Cinq over LMTP. The build context is this directory:
#   docker build -f docker/postfix.Dockerfile -t cinq-postfix docker
FROM debian:bookworm-slim
RUN echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postfix ca-certificates \
 && apt-get clean && rm -rf /var/lib/apt/lists/*
COPY postfix-start.sh /usr/local/bin/postfix-start
EXPOSE 25 587
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 CMD ["postfix", "status"]
STOPSIGNAL SIGTERM
CMD ["/usr/local/bin/postfix-start"]
