#!/bin/sh
# Writes Postfix's main.cf from the environment, then runs Postfix in the foreground (its log on stdout).
#   CINQ_MAIL_DOMAIN   the game domain (cinq serve --mail-domain): its mail goes to Cinq over LMTP
#   CINQ_LMTP          where Cinq listens for it (default cinq:2424)
#   CINQ_MAIL_HOST     this MTA's host name (default mail.$CINQ_MAIL_DOMAIN)
#   CINQ_RELAYHOST     where the site's mail goes out ([smtp.example.org]:587), empty: the recipients' MX
#   CINQ_MYNETWORKS    who may send through port 587 without a login (default: the container's networks)
# Two ports:
#   25   the MX, the one to publish: mail for the game domain from anyone, and nothing else (no relaying, even
#        for mynetworks: Docker's port proxy, used for the host's own and for IPv6 connections, connects from
#        the network's gateway, which is inside the container's subnet)
#   587  not published: Cinq's mail out (--smtp smtp://postfix:587), relayed for mynetworks
# No service runs chrooted: Debian's master.cf chroots smtp(8) and lmtp(8) into /var/spool/postfix, which has
# no resolv.conf here, so they could not look up `cinq` or the relay host in Docker's DNS. The container is
# the jail.
# While Cinq's container is stopped or being recreated, Docker's DNS does not know `cinq`, and Postfix takes
# "host not found" for a permanent error: the players' turns would bounce. lmtp_fallback_relay points at a
# port where nothing listens, so such mail is deferred (4.4.1, "connection refused") and delivered once Cinq
# is back (the queue's retries: about 5 minutes, then longer). Cinq's own refusals (5xx) still bounce.
set -eu
: "${CINQ_MAIL_DOMAIN:?set CINQ_MAIL_DOMAIN to the game domain}"
lmtp=${CINQ_LMTP:-cinq:2424}
echo "$CINQ_MAIL_DOMAIN lmtp:inet:$lmtp" > /etc/postfix/transport
cat > /etc/postfix/main.cf <<CONF
compatibility_level = 3.6
myhostname = ${CINQ_MAIL_HOST:-mail.$CINQ_MAIL_DOMAIN}
mydestination =
alias_maps =
alias_database =
inet_interfaces = all
inet_protocols = ipv4
mynetworks_style = subnet
${CINQ_MYNETWORKS:+mynetworks = $CINQ_MYNETWORKS}
relay_domains = $CINQ_MAIL_DOMAIN
transport_maps = texthash:/etc/postfix/transport
lmtp_fallback_relay = [127.0.0.1]:9
relayhost = ${CINQ_RELAYHOST:-}
smtpd_relay_restrictions = reject_unauth_destination
smtp_tls_security_level = may
maillog_file = /dev/stdout
biff = no
CONF
postconf -F '*/*/chroot = n'
postconf -M '587/inet=587 inet n - n - - smtpd'
postconf -P '587/inet/smtpd_relay_restrictions=permit_mynetworks,reject_unauth_destination'
exec postfix start-fg
