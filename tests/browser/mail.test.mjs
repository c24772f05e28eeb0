// Correspondence by e-mail in the browser (docs/mail.md, web-client/mail.js): the player who holds a
// correspondence seat's link sees a "Play by mail" panel beside the seat links, with the seat address that
// takes the seat's turns by mail and how to use it; the seat's own address, "every turn by mail" and the
// reminders are saved through it (a refusal shows the server's words), and the opponent's free seat can be
// given to an invited address. A server without mail (no --smtp) shows no panel.
// The server here runs with --smtp pointing at a port where nothing listens: its mails wait in the outbox,
// which these tests do not read (the server's own tests check the mails).
import net from 'node:net';

import {assert, assertEqual, kDesktop, kPhone, kWait, lowContrastText, register, startServer, waitSeated} from './harness.mjs';

// A port with nothing listening on it (taken from the system, then let go).
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const {port} = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Replaces the harness's server with one that sends mail (teardown stops it the same way).
async function serveWithMail(h) {
  const port = await freePort();
  await h.server.stop();
  h.server = await startServer({
    args: ['--smtp', `smtp://127.0.0.1:${port}`, '--mail-from', 'cinq@play.test', '--mail-domain', 'play.test'],
  });
}

// A correspondence game (3 days a turn) imported from a record without turns: its room and the two seat
// links, nobody seated.
async function importGame(h) {
  const response = await fetch(`${h.url}/api/games/import?days=3`, {
    method: 'POST',
    headers: {'Content-Type': 'text/plain; charset=utf-8'},
    body: '#! TABLUT\n',
  });
  const body = await response.json();
  assertEqual(response.status, 201, `import: ${JSON.stringify(body)}`);
  assert(body.room && Array.isArray(body.links) && body.links.length === 2,
         `import answer: ${JSON.stringify(body)}`);
  return body;
}

// The seat and token of a seat link (/#/room/ID?seat=S&token=T).
function linkParts(link) {
  const query = new URLSearchParams(link.slice(link.indexOf('?') + 1));
  return {seat: Number(query.get('seat')), token: query.get('token')};
}

// The seat's mail settings as the server has them (GET /api/games/ID/mail).
async function mailSettings(h, room, link) {
  const {seat, token} = linkParts(link);
  return h.fetchJson(`/api/games/${room}/mail?seat=${seat}&token=${encodeURIComponent(token)}`);
}

// A new player who opens seat 0's link of a fresh game on a server with mail, and waits for the panel.
async function seatWithMail(h, {viewport = kDesktop} = {}) {
  await serveWithMail(h);
  const game = await importGame(h);
  const {page} = await h.newPlayer('Ann', {viewport});
  await page.goto(`${h.url}${game.links[0]}`);
  await waitSeated(page, game.room);
  await page.locator('#mail-panel').waitFor({state: 'visible', timeout: kWait});
  return {page, ...game};
}

// Waits until `selector`'s text matches `pattern`; a clear message with the text it had otherwise.
async function waitText(page, selector, pattern, what) {
  await page
      .waitForFunction(
          ({selector, source}) => {
            const node = document.querySelector(selector);
            return Boolean(node && !node.hidden && new RegExp(source).test(node.innerText));
          },
          {selector, source: pattern.source}, {timeout: kWait})
      .catch(async () => {
        const text = await page.locator(selector).innerText().catch(() => '(none)');
        throw new Error(`${what}: ${selector} does not say ${pattern}: ${JSON.stringify(text)}`);
      });
}

// The page is no wider than its viewport (nothing of the panel sticks out on a phone).
async function assertNoSideScroll(page, where) {
  const widths = await page.evaluate(() => ({scroll: document.documentElement.scrollWidth, view: innerWidth}));
  assert(widths.scroll <= widths.view, `${where}: the page scrolls sideways: ${JSON.stringify(widths)}`);
}

export const tests = {
  'mail: a correspondence seat shows its seat address and how to play by mail': async (h) => {
    const {page, room, links} = await seatWithMail(h);
    const {status, body} = await mailSettings(h, room, links[0]);
    assertEqual(status, 200, `GET mail: ${JSON.stringify(body)}`);
    const address = (await page.locator('#mail-reply-address').innerText()).trim();
    assert(address.startsWith(`play+${room}.0.`) && address.endsWith('@play.test'),
           `the seat address: ${JSON.stringify(address)}`);
    assertEqual(address, body.reply_address, 'the page shows the server\'s seat address');
    const how = await page.locator('#mail-how').innerText();
    const sentence = /Reply to the game's mails with your turn on a line of its own, e\.g\. [A-Z]\/\S+ \S+\/, or send it to/;
    assert(sentence.test(how), `how to play by mail: ${JSON.stringify(how)}`);
    await waitText(page, '#mail-state', /No address of yours yet/, 'before any address');
    // Near the seat links, and both sides of the panel reachable by name.
    assert(await page.locator('#mail-panel').evaluate((n) => Boolean(n.closest('.room-head'))),
           'the panel is in the room\'s head, with the seat links');
    await page.getByRole('region', {name: 'Play by mail'}).waitFor();
    await page.getByRole('button', {name: 'Copy address'}).waitFor();
    // The settings and the invitation open; every label names its control.
    await page.locator('#mail-settings > summary').click();
    await page.locator('#mail-invite-box > summary').click();
    for (const label of ['Your e-mail address', 'Every turn by mail, at once', 'Reminders', 'Their e-mail address',
                         'Their name (optional)']) {
      await page.getByLabel(label, {exact: true}).waitFor({state: 'visible'});
    }
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({colorScheme});
      const low = await lowContrastText(page);
      assertEqual(low.length, 0, `${colorScheme}: text under 4.5:1 with the panel open: ${low.join('; ')}`);
    }
    await page.emulateMedia({colorScheme: 'light'});
    await h.screenshot(page, 'mail-desktop');
    await page.setViewportSize(kPhone);
    await page.locator('#mail-panel').scrollIntoViewIfNeeded();
    await assertNoSideScroll(page, 'at 390x844');
    await h.screenshot(page, 'mail-phone');
  },

  'mail: saving the seat\'s address, by mail and reminders; a wrong one shows the server\'s words': async (h) => {
    const {page, room, links} = await seatWithMail(h, {viewport: kPhone});
    await page.locator('#mail-settings > summary').click();
    // A wrong address: the server's message next to the form, nothing saved.
    const {token} = linkParts(links[0]);
    const refused = await h.fetchJson(`/api/games/${room}/mail?seat=0&token=${encodeURIComponent(token)}`, {
      method: 'POST',
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({address: 'not an address'}),
    });
    assertEqual(refused.status, 400, `POST a wrong address: ${JSON.stringify(refused.body)}`);
    assertEqual(refused.body.error && refused.body.error.code, 'bad_address', 'the refusal\'s code');
    await page.locator('#mail-address').fill('not an address');
    await page.locator('#mail-save').click();
    await page.locator('#mail-error').waitFor({state: 'visible'});
    assertEqual((await page.locator('#mail-error').innerText()).trim(), refused.body.error.message,
                'the form shows the server\'s message');
    assertEqual((await mailSettings(h, room, links[0])).body.address, '', 'nothing saved after the refusal');

    // A good one, every turn by mail: saved, and a confirmation is mailed.
    await page.locator('#mail-address').fill('ann@example.org');
    await page.locator('#mail-by-mail').check();
    await page.locator('#mail-save').click();
    await waitText(page, '#mail-state', /confirmation mailed: open the link in it, or reply to it/, 'after saving');
    assert(await page.locator('#mail-error').isHidden(), 'no error once saved');
    await waitText(page, '#mail-saved', /Saved/, 'after saving');
    let saved = (await mailSettings(h, room, links[0])).body;
    assertEqual(saved.address, 'ann@example.org', 'the address saved');
    assertEqual(saved.by_mail, true, 'every turn by mail, saved');
    assertEqual(saved.confirmed, false, 'the address waits for its confirmation');

    // Reminders: a list offered, then a list of one's own; a wrong list is refused in words.
    await page.locator('#mail-reminders').selectOption('24h,8h,1h');
    await page.locator('#mail-save').click();
    await page.waitForFunction(() => document.querySelector('#mail-saved')?.textContent === 'Saved.');
    saved = (await mailSettings(h, room, links[0])).body;
    assertEqual(saved.reminders, '24h,8h,1h', 'the reminders chosen');
    assertEqual(saved.address, 'ann@example.org', 'only the reminders were changed');
    await page.locator('#mail-reminders').selectOption('custom');
    await page.getByLabel('Reminder times', {exact: true}).fill('soon');
    await page.locator('#mail-save').click();
    await page.locator('#mail-error').waitFor({state: 'visible'});
    assert((await page.locator('#mail-error').innerText()).trim().length > 0, 'a wrong reminders list is explained');
    await page.locator('#mail-reminders-custom').fill('2d,12h');
    await page.locator('#mail-save').click();
    await page.waitForFunction(() => document.querySelector('#mail-saved')?.textContent === 'Saved.');
    assert(await page.locator('#mail-error').isHidden(), 'the error goes once saved');
    assertEqual((await mailSettings(h, room, links[0])).body.reminders, '2d,12h', 'the reminders of one\'s own');

    // A reload shows the settings as saved.
    await page.reload();
    await waitSeated(page, room);
    await page.locator('#mail-panel').waitFor({state: 'visible'});
    await waitText(page, '#mail-state', /ann@example\.org: confirmation mailed/, 'after a reload');
    await page.locator('#mail-settings > summary').click();
    assertEqual(await page.locator('#mail-address').inputValue(), 'ann@example.org', 'the address after a reload');
    assert(await page.locator('#mail-by-mail').isChecked(), 'by mail after a reload');
    assertEqual(await page.locator('#mail-reminders').inputValue(), 'custom', 'a custom list after a reload');
    assertEqual(await page.locator('#mail-reminders-custom').inputValue(), '2d,12h', 'its times after a reload');
    await assertNoSideScroll(page, 'the settings open at 390x844');
    await h.screenshot(page, 'mail-settings-phone');
  },

  'mail: the opponent is invited by e-mail while their seat is free': async (h) => {
    const {page, room, links} = await seatWithMail(h);
    const box = page.locator('#mail-invite-box');
    await box.waitFor({state: 'visible'});
    await box.locator('summary').click();
    // A wrong address is refused in the server's words.
    await page.locator('#mail-invite').fill('ben');
    await page.locator('#mail-invite-send').click();
    await page.locator('#mail-invite-error').waitFor({state: 'visible'});
    assert(/e-mail address/.test(await page.locator('#mail-invite-error').innerText()),
           `the refusal: ${await page.locator('#mail-invite-error').innerText()}`);
    await page.locator('#mail-invite').fill('ben@example.org');
    await page.locator('#mail-invite-name').fill('Ben');
    await page.locator('#mail-invite-send').click();
    await waitText(page, '#mail-invited', /invited at ben@example\.org/, 'after the invitation');
    // The seat is taken for them: the form goes, their name shows on the seat.
    await box.waitFor({state: 'hidden'});
    await page.waitForFunction(
        () => document.querySelector('#players .player[data-seat="1"] .player-name')?.innerText.trim() === 'Ben',
        null, {timeout: kWait});
    const {body} = await mailSettings(h, room, links[0]);
    assertEqual(body.invited, 'ben@example.org', 'the server has the invitation');
    await h.screenshot(page, 'mail-invited');
  },

  'mail: a server without mail shows no panel': async (h) => {
    // The harness's own server: no --smtp.
    const game = await importGame(h);
    const {page} = await h.newPlayer('Ann');
    const asked = page.waitForResponse((r) => r.url().includes(`/api/games/${game.room}/mail?`), {timeout: kWait});
    await page.goto(`${h.url}${game.links[0]}`);
    await waitSeated(page, game.room);
    const response = await asked;
    assertEqual(response.status(), 404, 'the mail settings of a server without mail');
    const body = await response.json();
    assertEqual(body.error && body.error.code, 'no_mail', 'the refusal\'s code');
    // The page took the answer (mail.js says so in data-state): no panel.
    await page.waitForSelector('#mail-panel[data-state="none"]', {state: 'attached', timeout: kWait});
    assertEqual(await page.locator('#mail-panel').isVisible(), false, 'no "Play by mail" panel');
    assertEqual(await page.getByRole('region', {name: 'Play by mail'}).count(), 0, 'no mail region for readers');
  },

  'mail: an account saves its address (pending until its link), the mails it wants and a digest hour': async (h) => {
    await serveWithMail(h);
    const {page} = await h.newPlayer('Carla', {viewport: kPhone});
    await page.goto(h.url);
    await register(page, 'carla_m', 'correct horse');
    await page.goto(`${h.url}/#/account`);
    await page.getByRole('region', {name: 'Mail'}).waitFor({timeout: kWait});
    await waitText(page, '#mail-status', /Give an address/, 'no address yet');
    for (const label of ['Address', 'Your turn: a mail after each of the opponent\'s turns', 'Reminders before a deadline',
                         'Results, with the record', 'Digest of the games where it is your turn']) {
      await page.getByLabel(label, {exact: true}).waitFor({state: 'visible'});
    }
    // A malformed address is caught in the page; the server is not asked.
    await page.locator('#mail-address').fill('carla at home');
    await page.locator('#mail-submit').click();
    await waitText(page, '#mail-error', /not an e-mail address/, 'a malformed address');
    // Saved: the address waits for its link; your-turn mails off, a digest at 07:00 UTC.
    await page.locator('#mail-address').fill('carla@players.test');
    await page.locator('#mail-turn').uncheck();
    await page.locator('#mail-digest').selectOption('7');
    await page.locator('#mail-submit').click();
    await waitText(page, '#mail-status', /A link was mailed to carla@players\.test/, 'after saving');
    assertEqual(await page.locator('#mail-error').isVisible(), false, 'no error');
    await assertNoSideScroll(page, 'the account page on a phone');
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({colorScheme});
      const low = await lowContrastText(page);
      assertEqual(low.length, 0, `${colorScheme}: text under 4.5:1 on the account page: ${low.join('; ')}`);
    }
    // The server kept it: a new page reads the same.
    await page.reload();
    await page.getByRole('region', {name: 'Mail'}).waitFor({timeout: kWait});
    await waitText(page, '#mail-status', /A link was mailed to carla@players\.test/, 'after a reload');
    assertEqual(await page.locator('#mail-address').inputValue(), 'carla@players.test', 'the address field');
    assertEqual(await page.locator('#mail-turn').isChecked(), false, 'your-turn mails off');
    assertEqual(await page.locator('#mail-reminder').isChecked(), true, 'reminders on');
    assertEqual(await page.locator('#mail-digest').inputValue(), '7', 'the digest hour');
    await h.screenshot(page, 'account-mail-phone');
    await page.setViewportSize(kDesktop);
    await h.screenshot(page, 'account-mail-desktop');
  },

  'mail: an account on a server without mail is told so on its account page': async (h) => {
    const {page} = await h.newPlayer('Dora');
    await page.goto(h.url);
    await register(page, 'dora_m', 'correct horse');
    await page.goto(`${h.url}/#/account`);
    await waitText(page, '#mail-status', /This server sends no mail/, 'without --smtp');
    assertEqual(await page.locator('#mail-form').isVisible(), false, 'no mail form');
  },
};

export const timeouts = {
  'mail: saving the seat\'s address, by mail and reminders; a wrong one shows the server\'s words': 90000,
};
