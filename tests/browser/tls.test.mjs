// The client over HTTPS and WSS (cinq serve --tls-cert/--tls-key, with a self-signed certificate the test
// makes with openssl; Chromium told to ignore that it is not trusted), and the Content-Security-Policy in
// force: an inline script a page would add is refused. Every other test also fails on anything the policy
// blocks (run.mjs).
import {execFileSync} from 'node:child_process';
import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';

import {
  assert, assertEqual, clickMove, createRoom, mySeat, sitFromLobby, startServer, waitStatus, waitVersion,
} from './harness.mjs';

function selfSigned() {
  const dir = mkdtempSync(path.join(tmpdir(), 'cinq-browser-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out',
    cert, '-days', '2', '-subj', '/CN=cinq-browser-test', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ], {stdio: 'ignore'});
  return {dir, cert, key};
}

export const tests = {
  'the client plays over https:// and wss://': async (h) => {
    const files = selfSigned();
    try {
      await h.server.stop();
      h.server = await startServer({args: ['--tls-cert', files.cert, '--tls-key', files.key]});
      assert(h.url.startsWith('https://'), `the server says it serves HTTPS: ${h.url}`);
      const alice = await h.newPlayer('Alice');
      const bob = await h.newPlayer('Bob');
      assertEqual(await alice.page.evaluate(() => location.protocol), 'https:', 'the page is on https');
      const room = await createRoom(alice.page, {game: 'tablut'});
      await sitFromLobby(bob.page, room);
      await waitStatus(alice.page, 'live');
      const aliceSeat = await mySeat(alice.page);
      const mover = aliceSeat === 0 ? alice : bob;
      const reached = await clickMove(mover.page, 'e8', 'i8');
      await waitVersion(aliceSeat === 0 ? bob.page : alice.page, reached);
      // The page made its WebSocket's URL from its own (net.js): wss:// from https://.
      for (const {page} of [alice, bob]) {
        const socket = await page.evaluate(() => window.cinqApp.conn.url_);
        assert(socket.startsWith('wss://127.0.0.1:'), `the page's WebSocket is wss://: ${socket}`);
      }
      assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
    } finally {
      rmSync(files.dir, {recursive: true, force: true});
    }
  },

  'the Content-Security-Policy refuses an inline script': async (h) => {
    const {page} = await h.newPlayer('');
    const ran = await page.evaluate(() => new Promise((resolve) => {
      const script = document.createElement('script');
      script.textContent = 'window.cinqInlineRan = true;';
      document.head.append(script);
      setTimeout(() => resolve(Boolean(window.cinqInlineRan)), 200);
    }));
    assertEqual(ran, false, 'an inline script did not run');
    await page.waitForTimeout(200);
    assert(h.cspViolations.some((text) => /script/i.test(text)), `the policy said it refused it: ${h.cspViolations}`);
    h.cspViolations.length = 0;  // refused on purpose: not a failure of this test
  },
};
