#!/usr/bin/env python3
"""TLS and the security headers, on a real `cinq serve` over real sockets.

Usage: tls_test.py CINQ_BINARY WEB_DIR

- Headers (plain HTTP): every answer, page and API, carries the Content-Security-Policy (scripts from the
  site's own files only), `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`; no
  Strict-Transport-Security over plain HTTP, unless a trusted balancer says the client came over HTTPS
  (`X-Forwarded-Proto: https`); an untrusted peer saying so is not believed. No page of the client holds an
  inline script (the policy would block it).
- TLS: with a self-signed certificate made here by `openssl`, `cinq serve --tls-cert --tls-key` serves HTTPS
  (the page, the API, with HSTS) and WSS (hello, welcome, a room); plain HTTP on its port gets no answer.
- Reload: the files replaced by another certificate, then SIGHUP: a new connection gets the new certificate,
  a WebSocket opened before goes on (with the old one); files that do not load are logged on SIGHUP and the
  certificate in force stays.
- Bad files: a key that is not the certificate's, a missing file, one option without the other: `cinq serve`
  exits 1 naming the option and the file.
"""

import asyncio
import glob
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets

from cinq_support import Failed, Server, check, checked_run

CSP_SCRIPTS = "script-src 'self'"


def make_cert(directory, name, cn):
    """A self-signed certificate for 127.0.0.1 and localhost: (cert path, key path)."""
    cert, key = os.path.join(directory, f"{name}.crt"), os.path.join(directory, f"{name}.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", f"/CN={cn}",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


def der_of(cert_path):
    return ssl.PEM_cert_to_DER_cert(open(cert_path).read())


def client_context(*cert_paths):
    """Trusts exactly these certificates."""
    context = ssl.create_default_context()
    for path in cert_paths:
        context.load_verify_locations(cafile=path)
    return context


def fetch(url, context=None, headers=None):
    """(status, headers, body) of a GET."""
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10, context=context) as r:
            return r.status, r.headers, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read().decode("utf-8")


def peer_certificate(port):
    """The DER certificate a new TLS connection to the server is given (not verified: it is compared)."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            return tls.getpeercert(binary_form=True)


def check_security_headers(headers, where, hsts):
    csp = headers.get("Content-Security-Policy", "")
    check(CSP_SCRIPTS in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0],
          f"{where}: Content-Security-Policy {csp!r} allows scripts other than the site's own files")
    check("default-src 'self'" in csp and "frame-ancestors 'none'" in csp, f"{where}: CSP {csp!r}")
    check(headers.get("X-Content-Type-Options") == "nosniff", f"{where}: no X-Content-Type-Options: nosniff")
    check(headers.get("Referrer-Policy") == "no-referrer", f"{where}: no Referrer-Policy: no-referrer")
    has_hsts = headers.get("Strict-Transport-Security") is not None
    check(has_hsts == hsts, f"{where}: Strict-Transport-Security {'missing' if hsts else 'sent over plain HTTP'}")


def check_no_inline_script(web_dir):
    for page in glob.glob(os.path.join(web_dir, "**", "*.html"), recursive=True):
        text = open(page, encoding="utf-8").read()
        for tag in re.findall(r"<script\b[^>]*>", text, re.I):
            check(re.search(r"\bsrc\s*=", tag), f"{page}: an inline script ({tag}): the policy blocks it")
        check(not re.search(r"\son[a-z]+\s*=", text, re.I), f"{page}: an inline event handler")
        check("javascript:" not in text, f"{page}: a javascript: link")


def wait_log(server, pattern, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if re.search(pattern, open(server.log_path, errors="replace").read()):
            return
        time.sleep(0.05)
    raise Failed(f"the log never said {pattern!r}")


async def hello_over(url, context):
    ws = await websockets.connect(url, ssl=context, open_timeout=5)
    await ws.send(json.dumps({"type": "hello", "name": "Tess"}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
    check(welcome.get("type") == "welcome", f"{url}: hello answered {welcome}")
    return ws


async def plain_checks(server, web_dir):
    port = server.port
    check_no_inline_script(web_dir)
    for path in ("/", "/index.html", "/app.js", "/api/health", "/api/games", "/no-such-file"):
        _, headers, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}{path}")
        check_security_headers(headers, f"GET {path}", hsts=False)
    # Not a trusted proxy: its word about the client's scheme is not taken.
    _, headers, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}/", None, {"X-Forwarded-Proto": "https"})
    check_security_headers(headers, "GET / from an untrusted peer saying https", hsts=False)


async def proxied_checks(server):
    _, headers, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{server.port}/", None,
                                            {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"})
    check_security_headers(headers, "GET / through a trusted balancer over https", hsts=True)
    _, headers, _ = await asyncio.to_thread(fetch, f"http://127.0.0.1:{server.port}/", None,
                                            {"X-Forwarded-Proto": "http", "X-Forwarded-For": "203.0.113.9"})
    check_security_headers(headers, "GET / through a trusted balancer over http", hsts=False)


async def tls_checks(server, files, certs):
    port = server.port
    cert_path, key_path = files
    (a_cert, _), (b_cert, b_key) = certs
    trust_a, trust_both = client_context(a_cert), client_context(a_cert, b_cert)
    for path in ("/", "/api/health"):
        status, headers, body = await asyncio.to_thread(fetch, f"https://127.0.0.1:{port}{path}", trust_a)
        check(status == 200, f"GET https {path}: HTTP {status} {body[:200]}")
        check_security_headers(headers, f"GET https {path}", hsts=True)
    status, _, body = await asyncio.to_thread(fetch, f"https://localhost:{port}/api/health", trust_a)
    check(status == 200 and json.loads(body).get("status") == "ok", f"https health: {status} {body[:200]}")
    # Plain HTTP on the TLS port: no HTTP answer.
    def plain_attempt():
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as r:
                return r.status
        except Exception:  # noqa: BLE001 - any failure is the expected outcome
            return None
    check(await asyncio.to_thread(plain_attempt) is None, "plain HTTP on the TLS port was answered")

    # WSS: a hello, a room.
    url = f"wss://127.0.0.1:{port}/ws"
    before = await hello_over(url, trust_a)
    await before.send(json.dumps({"type": "create", "game": "tablut", "seat": 0}))
    while True:
        m = json.loads(await asyncio.wait_for(before.recv(), 5))
        if m.get("type") in ("state", "error"):
            break
    check(m["type"] == "state", f"create over WSS: {m}")
    check(peer_certificate(port) == der_of(a_cert), "the first certificate is not the one given")

    # Renewed the way certbot does it (new files moved into place), then SIGHUP.
    shutil.copy(b_cert, cert_path + ".new")
    shutil.copy(b_key, key_path + ".new")
    os.replace(cert_path + ".new", cert_path)
    os.replace(key_path + ".new", key_path)
    server.process.send_signal(signal.SIGHUP)
    wait_log(server, r"certificate reloaded")
    check(server.process.poll() is None, "cinq serve died of SIGHUP")
    check(peer_certificate(port) == der_of(b_cert), "after SIGHUP a new connection still gets the old certificate")
    check(before.transport.get_extra_info("ssl_object").getpeercert(binary_form=True) == der_of(a_cert),
          "the connection opened before the reload is not the one it was")
    # The connection opened before goes on.
    await before.send(json.dumps({"type": "ping", "ref": "after-reload"}))
    while True:  # the room's events (presence) may come first
        m = json.loads(await asyncio.wait_for(before.recv(), 5))
        if m.get("type") != "event":
            break
    check(m.get("type") == "pong", f"the WebSocket opened before the reload: ping answered {m}")
    await before.close()
    # A new one, trusting the new certificate only.
    after = await hello_over(url, client_context(b_cert))
    await after.close()
    status, _, _ = await asyncio.to_thread(fetch, f"https://127.0.0.1:{port}/api/health", client_context(b_cert))
    check(status == 200, f"https after the reload: HTTP {status}")

    # A renewal gone wrong: logged, and the certificate in force stays.
    with open(cert_path, "w") as f:
        f.write("not a certificate\n")
    server.process.send_signal(signal.SIGHUP)
    wait_log(server, r"tls: reload: --tls-cert .*\(the certificate in force stays\)")
    check(peer_certificate(port) == der_of(b_cert), "a failed reload changed the certificate")
    status, _, _ = await asyncio.to_thread(fetch, f"https://127.0.0.1:{port}/api/health", trust_both)
    check(status == 200, f"https after a failed reload: HTTP {status}")


def refused_start(binary, web_dir, args, expected):
    data = tempfile.mkdtemp(prefix="cinq-tls-bad-")
    try:
        run = subprocess.run([binary, "serve", "--port", "0", "--data", data, "--web", web_dir, *args],
                             capture_output=True, text=True, timeout=30)
        out = run.stdout + run.stderr
        check(run.returncode == 1, f"cinq serve {' '.join(args)}: exit {run.returncode}, expected 1:\n{out}")
        check(re.search(expected, out), f"cinq serve {' '.join(args)}: no {expected!r} in:\n{out}")
    finally:
        shutil.rmtree(data, ignore_errors=True)


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, web_dir = sys.argv[1], sys.argv[2]
    work = tempfile.mkdtemp(prefix="cinq-tls-")
    failures = []
    try:
        certs = [make_cert(work, "a", "cinq-test-a"), make_cert(work, "b", "cinq-test-b")]
        # The files the server is given: copies of a's, replaced by b's for the reload.
        cert_path, key_path = os.path.join(work, "fullchain.pem"), os.path.join(work, "privkey.pem")
        shutil.copy(certs[0][0], cert_path)
        shutil.copy(certs[0][1], key_path)

        plain = Server(binary, web_dir)
        failures.append(checked_run(plain, plain.wait_ready, lambda: plain_checks(plain, web_dir), 60))
        plain.cleanup()
        proxied = Server(binary, web_dir, "--trusted-proxy", "127.0.0.1")
        failures.append(checked_run(proxied, proxied.wait_ready, lambda: proxied_checks(proxied), 60))
        proxied.cleanup()
        tls = Server(binary, web_dir, "--tls-cert", cert_path, "--tls-key", key_path)
        failures.append(checked_run(tls, tls.wait_ready,
                                    lambda: tls_checks(tls, (cert_path, key_path), certs), 60))
        tls.cleanup()

        for args, expected in [
            (["--tls-cert", certs[0][0], "--tls-key", certs[1][1]], r"--tls-key .*b\.key: not the key of the certificate"),
            (["--tls-cert", os.path.join(work, "none.pem"), "--tls-key", certs[0][1]], r"--tls-cert .*none\.pem: no such file"),
            (["--tls-cert", certs[0][0]], r"--tls-cert and --tls-key go together"),
        ]:
            try:
                refused_start(binary, web_dir, args, expected)
            except Failed as e:
                print(f"FAILED: {e}", file=sys.stderr)
                failures.append(str(e))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    failures = [f for f in failures if f]
    print("tls: " + ("ok" if not failures else f"{len(failures)} failure(s)"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
