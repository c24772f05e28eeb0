// Tournaments in the browser (tournament.js), against the real server: an account creates a two-round live
// Swiss from the form (a wrong number of rounds is said in the form first), two more accounts join from their
// own browsers, the creator starts it; each paired player gets the notice on the page it is on and opens the
// game's room from it; the games end (a resignation, then a draw agreed), and a guest's page follows it all
// live: the standings, the rounds with the bye, the crosstable, round 2 paired, the end. The pages at a desktop
// and a phone width (tap targets of 44 px, no sideways scrolling, the crosstable scrolling in its box), text
// contrast of 4.5:1 in both colour schemes, the header's link (the phone's menu too), and the same pages in
// French with no English left.
import {findings} from './french.test.mjs';
import {
  assert, assertEqual, gameNames, identityOf, kDesktop, kPhone, kWait, lowContrastText, register, smallTapTargets, waitSeated,
  waitStatus, waitWelcomed,
} from './harness.mjs';

const kPassword = 'tournament-pass-1';
const kName = 'Sixteen';

// The tournament as the server has it (GET /api/tournaments/ID).
async function stored(h, id) {
  const {status, body} = await h.fetchJson(`/api/tournaments/${id}`);
  assertEqual(status, 200, `GET /api/tournaments/${id}`);
  return body;
}

// Waits until the server's tournament satisfies `test` (its rooms are made once stored: a moment after).
async function until(h, id, what, test) {
  const deadline = Date.now() + kWait;
  for (;;) {
    const tour = await stored(h, id);
    if (test(tour)) return tour;
    if (Date.now() > deadline) throw new Error(`waited for ${what}: ${JSON.stringify(tour).slice(0, 600)}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

// A tournament page showing `id`, drawn from a version at least `version`.
async function waitPage(page, id, {status = null, round = null} = {}) {
  await page.waitForFunction(({id, status, round}) => {
    const node = document.querySelector(`#tournament[data-tournament="${id}"][data-state="done"]`);
    return Boolean(node && (!status || node.dataset.status === status) && (round === null || Number(node.dataset.round) >= round));
  }, {id, status, round}, {timeout: kWait});
}

async function goto(page, hash) {
  await page.goto(`${page.url().replace(/#.*$/, '')}${hash}`);
}

// A player of round `round`'s game: the notice is on its page (whatever the page), it names the round, the
// tournament and the opponent; its Play link opens the room, seated, and the notice goes.
async function playFromNotice(page, round, opponent, room) {
  const notice = page.locator(`.tournament-notice[data-round="${round}"]`);
  await notice.waitFor({timeout: kWait});
  const text = await notice.locator('.tournament-notice-text').textContent();
  assert(text.includes(`Round ${round} of ${kName}`) && text.includes(opponent), `the notice says the round and whom: ${text}`);
  assertEqual(await notice.getAttribute('data-room'), room, 'the notice links the game\'s room');
  await notice.locator('.tournament-notice-play').click();
  await page.waitForURL(new RegExp(`#/room/${room}$`), {timeout: kWait});
  await waitSeated(page, room);
  await page.locator(`.tournament-notice[data-room="${room}"]`).waitFor({state: 'detached'});
  // The room leads back to its tournament.
  const back = page.locator('#room-tournament');
  assertEqual(await back.getAttribute('href'), `#/tournament/${room.split('-')[0]}`, 'the room links its tournament');
}

// What is wrong with the page at a phone's width: small tap targets, a page wider than the screen.
async function phoneFindings(page) {
  const small = [...await smallTapTargets(page, {scope: '#app'}), ...await smallTapTargets(page, {scope: '#tournament-notices'})]
      .filter((line) => !line.startsWith('no '));
  const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  return [...small.map((line) => `small: ${line}`), ...(wide > 1 ? [`the page scrolls sideways by ${wide} px`] : [])];
}

// Contrast in both schemes, pictures at both widths; what is wrong goes into `failures`.
async function checkPage(h, page, where, failures) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({colorScheme: scheme});
    const low = await lowContrastText(page);
    if (low.length) failures.push(`${where} ${scheme}: low contrast: ${low.join('; ')}`);
  }
  await page.emulateMedia({colorScheme: 'light'});
  await h.screenshot(page, `tournament-${where}-${kDesktop.width}`);
  await page.setViewportSize(kPhone);
  await page.waitForTimeout(200);
  for (const line of await phoneFindings(page)) failures.push(`${where} (phone): ${line}`);
  await h.screenshot(page, `tournament-${where}-${kPhone.width}`);
  await page.setViewportSize(kDesktop);
}

async function swiss(h) {
  const failures = [];
  const game = gameNames()[0];
  // The creator: the header's link, the list (empty), the form.
  const orga = await h.newPlayer('', {moreOptions: false});
  await register(orga.page, 'orga', kPassword);
  await orga.page.locator('.site-nav a[href="#/tournaments"]').click();
  await orga.page.locator('#tournaments[data-state="done"]').waitFor();
  await orga.page.locator('#tournaments-open').waitFor({state: 'attached'});
  await orga.page.locator('#tournament-new-link').click();
  await orga.page.locator('#tournament-form').waitFor();
  assertEqual(await orga.page.locator('#tour-game').inputValue(), game, 'the first game is chosen');
  await orga.page.locator('#tour-name').fill(kName);
  // A wrong number of rounds is said in the form, in words.
  await orga.page.locator('#tour-rounds').fill('0');
  await orga.page.locator('#tour-submit').click();
  await orga.page.locator('#tour-error:not([hidden])').waitFor();
  assert((await orga.page.locator('#tour-error').textContent()).includes('1 to 100'), 'the rounds\' error is said');
  await orga.page.locator('#tour-rounds').fill('2');
  await checkPage(h, orga.page, 'form', failures);
  await orga.page.locator('#tour-submit').click();
  await orga.page.waitForURL(/#\/tournament\/[A-Za-z0-9]+$/, {timeout: kWait});
  const id = /#\/tournament\/([A-Za-z0-9]+)$/.exec(orga.page.url())[1];
  await waitPage(orga.page, id, {status: 'open'});
  const spec = (await stored(h, id)).spec;
  assert(spec.format === 'swiss' && spec.rounds === 2 && spec.game === game && spec.pace.base_ms === 600000 &&
         spec.start_ms === null, `the tournament as asked: ${JSON.stringify(spec)}`);
  await orga.page.locator('#tournament-join').click();
  await orga.page.locator('#tournament-me[data-me="in"]').waitFor();
  // A refusal is said on the page, in words: one entrant is too few to start.
  await orga.page.locator('#tournament-start').click();
  await orga.page.locator('#tournament-error:not([hidden])').waitFor();
  const tooFew = await orga.page.evaluate(async () => (await import('/i18n/en.js')).default['error.too_few']);
  assertEqual(await orga.page.locator('#tournament-error').textContent(), tooFew, 'too_few in words');

  // A guest watches from the start: told to log in, no buttons; then ada and ben join from their browsers.
  const guest = await h.newPlayer('', {moreOptions: false});
  await goto(guest.page, `#/tournament/${id}`);
  await waitPage(guest.page, id);
  await guest.page.locator('#tournament-guest').waitFor();
  assertEqual(await guest.page.locator('#tournament-join, #tournament-start').count(), 0, 'a guest has no buttons');
  // Each player's page by player id (the seats and the notices say the players' names).
  const players = {[(await identityOf(orga.page)).id]: orga.page};
  for (const name of ['ada', 'ben']) {
    const {page} = await h.newPlayer('', {moreOptions: false});
    await register(page, name, kPassword);
    await goto(page, `#/tournament/${id}`);
    await waitPage(page, id);
    assertEqual(await page.locator('#tournament-start').count(), 0, `${name} has no Start button`);
    await page.locator('#tournament-join').click();
    await page.locator('#tournament-me[data-me="in"]').waitFor();
    players[(await identityOf(page)).id] = page;
  }
  await guest.page.locator('#tournament-entrants li').nth(2).waitFor();
  await checkPage(h, guest.page, 'open', failures);

  // Started: round 1 pairs two of them, the third has the bye.
  await orga.page.locator('#tournament-start').click();
  await waitPage(guest.page, id, {status: 'running', round: 1});
  for (let round = 1; round <= 2; ++round) {
    const tour = await until(h, id, `round ${round}'s room`, (t) => t.rounds.length >= round && t.rounds[round - 1].games.every((g) => g.room));
    const {games, rests} = tour.rounds[round - 1];
    assertEqual(games.length, 1, `round ${round} has one game`);
    assertEqual(rests.length, 1, `round ${round} has a bye`);
    const [first, second] = games[0].seats.map((s) => s.name);
    const [first_page, second_page] = games[0].seats.map((s) => players[s.id]);
    const room = games[0].room;
    await guest.page.locator(`#tournament-rounds .tournament-round[data-round="${round}"] .tournament-rest[data-kind="bye"]`).waitFor();
    if (round === 2) await checkPage(h, first_page, 'notice', failures);
    await playFromNotice(first_page, round, second, room);
    await playFromNotice(second_page, round, first, room);
    if (round === 1) {
      // The second seat resigns (two clicks).
      await second_page.locator('#resign').click();
      await second_page.locator('#resign.armed').click();
    } else {
      // A draw agreed: offered, then accepted with the same button.
      await first_page.locator('#draw').click();
      await second_page.locator('#decline-draw').waitFor({state: 'visible'});
      await second_page.locator('#draw').click();
    }
    for (const page of [first_page, second_page]) await waitStatus(page, 'finished');
    const result = round === 1 ? '1-0' : '1/2-1/2';
    // The guest's page follows: the game's result, the standings, the crosstable.
    await guest.page.locator(`.tournament-game[data-game="${games[0].id}"][data-result="${result}"]`).waitFor();
    const winner_row = guest.page.locator(`#tournament-standings tr[data-player="${first}"] td[data-points]`);
    await guest.page.waitForFunction((r) => {
      const cells = [...document.querySelectorAll('#tournament-crosstable .cross-cell code')].map((c) => c.textContent);
      return cells.some((text) => text.startsWith(r));
    }, round === 1 ? '+' : '=');
    if (round === 1) {
      assertEqual(await winner_row.getAttribute('data-points'), '1', `${first} won round 1`);
      await waitPage(guest.page, id, {round: 2});
      await checkPage(h, guest.page, 'running', failures);
    }
  }
  await waitPage(guest.page, id, {status: 'finished'});
  const standings = await guest.page.locator('#tournament-standings tbody tr').count();
  assertEqual(standings, 3, 'three players in the standings');
  const cells = await guest.page.locator('#tournament-crosstable .cross-cell code').allTextContents();
  assert(cells.includes('bye') && cells.some((c) => c.startsWith('+')) && cells.some((c) => c.startsWith('=')),
         `the crosstable has the bye, the win and the draw: ${cells.join(' ')}`);
  await checkPage(h, guest.page, 'finished', failures);

  // The list: the tournament among the finished ones, its line in words; a click opens it.
  await goto(guest.page, '#/tournaments');
  const row = guest.page.locator(`#tournaments-finished .tournament-row[data-tournament="${id}"]`);
  await row.waitFor();
  const line = (await row.textContent()).replace(/\s+/g, ' ');
  for (const words of [kName, 'Swiss', '3 entrants', 'round 2 of 2', 'unrated', '10+5']) {
    assert(line.includes(words), `the list's line says "${words}": ${line}`);
  }
  await checkPage(h, guest.page, 'list', failures);
  // The phone's header menu has the link.
  await guest.page.setViewportSize(kPhone);
  await guest.page.locator('#menu-button').click();
  await guest.page.locator('.site-nav a[href="#/tournaments"]').waitFor({state: 'visible'});
  await guest.page.locator('#menu-button').click();
  await guest.page.setViewportSize(kDesktop);
  await row.locator('a').click();
  await waitPage(guest.page, id, {status: 'finished'});
  // A guest's form: told to log in.
  await goto(guest.page, '#/tournaments/new');
  await guest.page.locator('#tournament-log-in').waitFor();

  // A double round robin by correspondence that starts by itself tomorrow: upcoming, its start said. An arena
  // is live only: the form offers it no correspondence pace.
  await goto(orga.page, '#/tournaments/new');
  await orga.page.locator('#tour-format').selectOption('arena');
  assert(await orga.page.locator('#tour-pace option[value="3d"]').isDisabled(), 'an arena has no correspondence pace');
  await orga.page.locator('#tour-format').selectOption('roundrobin');
  await orga.page.locator('#tour-double').check();
  await orga.page.locator('#tour-pace').selectOption('3d');
  await orga.page.locator('#tour-name').fill('Slow');
  await orga.page.locator('#tour-start-at').check();
  const tomorrow = new Date(Date.now() + 86400000);
  const pad = (n) => String(n).padStart(2, '0');
  await orga.page.locator('#tour-start-time').fill(
      `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T${pad(tomorrow.getHours())}:${pad(tomorrow.getMinutes())}`);
  await orga.page.locator('#tour-submit').click();
  await orga.page.waitForURL((url) => /#\/tournament\/[A-Za-z0-9]+$/.test(url.hash) && !url.hash.endsWith(id), {timeout: kWait});
  const slow = /#\/tournament\/([A-Za-z0-9]+)$/.exec(orga.page.url())[1];
  await waitPage(orga.page, slow, {status: 'open'});
  const slow_spec = (await stored(h, slow)).spec;
  assert(slow_spec.format === 'roundrobin' && slow_spec.double_round_robin && slow_spec.pace.days === 3 &&
         Math.abs(slow_spec.start_ms - tomorrow.getTime()) < 120000, `the round robin as asked: ${JSON.stringify(slow_spec)}`);
  await goto(guest.page, '#/tournaments');
  const upcoming = guest.page.locator(`#tournaments-open .tournament-row[data-tournament="${slow}"]`);
  await upcoming.waitFor();
  const slow_line = (await upcoming.textContent()).replace(/\s+/g, ' ');
  for (const words of ['Slow', 'Round robin', '3 days per move', 'starts ']) {
    assert(slow_line.includes(words), `the upcoming line says "${words}": ${slow_line}`);
  }

  // In French: the list, the finished tournament, a guest's form; no English left at either width.
  const french = await h.newPlayer('', {locale: 'fr-FR', moreOptions: false});
  await waitWelcomed(french.page);
  for (const [hash, selector, where] of [['#/tournaments', '#tournaments[data-state="done"]', 'list'],
                                         [`#/tournament/${id}`, '#tournament-crosstable', 'page'],
                                         ['#/tournaments/new', '#tournament-log-in', 'form-guest']]) {
    await goto(french.page, hash);
    await french.page.locator(selector).waitFor();
    for (const viewport of [kDesktop, kPhone]) {
      await french.page.setViewportSize(viewport);
      await french.page.waitForTimeout(150);
      const found = await findings(french.page);
      for (const [kind, list] of Object.entries(found)) {
        if (list.length) failures.push(`fr ${where} (${viewport.width} px), ${kind}: ${list.slice(0, 10).join('; ')}`);
      }
      await h.screenshot(french.page, `fr-tournament-${where}-${viewport.width}`);
    }
  }
  assert(failures.length === 0, `the tournament pages:\n  ${failures.join('\n  ')}`);
}

export const tests = {
  'tournament: a Swiss created, joined, started, played through its notices and followed live, at both widths and in French': swiss,
};

export const timeouts = {
  'tournament: a Swiss created, joined, started, played through its notices and followed live, at both widths and in French': 150000,
};
