#!/bin/sh
# Writes Postfix's main.cf from the environment, then runs Postfix in the foreground (its log on stdout).
#   CINQ_MAIL_DOMAIN   the game domain (cinq serve --mail-domain): its mail goes to Cinq over LMTP
#   CINQ_LMTP          where Cinq listens for it (default cinq:2424)
#   CINQ_MAIL_HOST     this MTA's host name (default mail.$CINQ_MAIL_DOMAIN)
#   CINQ_RELAYHOST     where the site's mail goes out ([smtp.example.org]:587), empty: the recipients' MX
#   CINQ_MYNETWORKS    who may send through it without a login (default: the container's networks)
set -eu
: "${CINQ_MAIL_DOMAIN:?set CINQ_MAIL_DOMAIN to the game domain}"
lmtp=${CINQ_LMTP:-cinq:2424}
echo "$CINQ_MAIL_DOMAIN lmtp:inet:$lmtp" > /etc/postfix/transport
cat > /etc/postfix/main.cf <<CONF
compatibility_level = 3.6
myhostname = ${CINQ_MAIL_HOST:-mail.$CINQ_MAIL_DOMAIN}
mydestination =
inet_interfaces = all
inet_protocols = ipv4
mynetworks_style = subnet
${CINQ_MYNETWORKS:+mynetworks = $CINQ_MYNETWORKS}
relay_domains = $CINQ_MAIL_DOMAIN
transport_maps = texthash:/etc/postfix/transport
relayhost = ${CINQ_RELAYHOST:-}
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtp_tls_security_level = may
maillog_file = /dev/stdout
biff = no
CONF
exec postfix start-fg
