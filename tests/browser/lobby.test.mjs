// The lobby and its words: an h1 and a line per game, the free seat named by its side, sides in
// words in the room, results written out (and "My games" saying who won), a seek taken with one click, the
// room list first on a phone, correspondence seat links kept, and text contrast of at least 4.5:1 in both
// colour schemes.
import {assert, assertEqual, createRoom, gameTable, kDesktop, keepLobbyFormsOpen, kPhone, kWait, lowContrastText, mySeat, openRoom, setOptions, sitFromLobby, smallTapTargets, waitStatus, waitWelcomed} from './harness.mjs';

const kTablutSides = ['Attackers (A)', 'Defenders (D)'];

// Ada creates a Tablut room, Ben takes the free seat from the lobby: {room, pages by seat, names by seat}.
async function tablutPair(h, {check_free_seat = null} = {}) {
  const ada = await h.newPlayer('Ada');
  const ben = await h.newPlayer('Ben');
  const room = await createRoom(ada.page, {game: 'tablut'});
  const ada_seat = await mySeat(ada.page);
  if (check_free_seat) await check_free_seat(ben.page, room, 1 - ada_seat);
  await sitFromLobby(ben.page, room);
  await waitStatus(ada.page, 'live');
  await waitStatus(ben.page, 'live');
  const pages = [];
  pages[ada_seat] = ada.page;
  pages[1 - ada_seat] = ben.page;
  const names = [];
  names[ada_seat] = 'Ada';
  names[1 - ada_seat] = 'Ben';
  return {room, pages, names, ada, ben};
}


export const tests = {
  'lobby: an h1, a line per game, the free seat named by its side; the room names the sides in words':
      async (h) => {
        const {pages, names} = await tablutPair(h, {
          check_free_seat: async (page, room, free) => {
            await page.goto(page.url().replace(/#.*$/, '') + '#/');
            const h1 = page.locator('h1');
            assertEqual(await h1.count(), 1, 'the lobby has one h1');
            assert((await h1.innerText()).trim().length > 0, 'the h1 says something');
            const lines = await page.locator('.lobby-game').allInnerTexts();
            assertEqual(lines.length, 5, 'a line per game');
            for (const line of lines) assert(/How to play/.test(line) && line.length > 40, `a game's line: ${line}`);
            const row = page.locator(`#rooms [data-room="${room}"]`);
            await row.waitFor();
            const free_text = await row.locator('.room-free').innerText();
            assert(free_text.includes(kTablutSides[free]), `the free seat is named: ${free_text}`);
            assert((await row.locator('.sit').innerText()).includes(kTablutSides[free]), 'Sit says as what');
            // The forms' "Play as" name the seats by their sides, for the game chosen.
            for (const form of ['create', 'bot']) {
              await page.locator(`#${form}-game`).selectOption('tablut');
              const choices = await page.locator(`#${form}-seat option`).allInnerTexts();
              assertEqual(JSON.stringify(choices), JSON.stringify(['Random', ...kTablutSides]), `${form}: Play as`);
              await page.locator(`#${form}-game`).selectOption('batik');
              assert((await page.locator(`#${form}-seat option`).allInnerTexts()).includes('Dark (F)'), `${form}: Batik`);
            }
          },
        });
        for (const [seat, page] of pages.entries()) {
          for (const s of [0, 1]) {
            const side = await page.locator(`#players .player[data-seat="${s}"] .player-side`).innerText();
            assert(side.includes(kTablutSides[s]), `seat ${s}'s side in words on seat ${seat}'s page: ${side}`);
          }
        }
        // Tablut: the Attackers (seat 0) move first.
        await pages[0].waitForFunction(
            () => /^Your turn — Attackers \(A\)/.test(document.querySelector('#turn-info')?.innerText || ''));
        await pages[1].waitForFunction(
            (name) => (document.querySelector('#turn-info')?.innerText || '').startsWith(`${name} to move — Attackers (A)`),
            names[0]);
        assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
      },

  'lobby: a result is written out in the room, and My games says who won': async (h) => {
    const {room, pages, names} = await tablutPair(h);
    // The Defenders (seat 1) resign: the Attackers win.
    await pages[1].evaluate((id) => window.cinqApp.conn.send({type: 'resign', room: id}), room);
    const expected = `${names[0]} (Attackers) wins — ${names[1]} resigned`;
    for (const page of pages) {
      await waitStatus(page, 'finished');
      await page.waitForFunction(
          (text) => (document.querySelector('#result')?.innerText || '').includes(text), expected, {timeout: kWait});
    }
    for (const [seat, page] of pages.entries()) {
      await page.goto(page.url().replace(/#.*$/, '') + '#/');
      const row = page.locator(`#my-games [data-room="${room}"]`);
      await row.waitFor();
      await page.waitForFunction(
          (id) => document.querySelector(`#my-games [data-room="${id}"]`)?.dataset.outcome, room, {timeout: kWait});
      assertEqual(await row.getAttribute('data-outcome'), seat === 0 ? 'won' : 'lost', `seat ${seat}`);
      const text = await row.innerText();
      assert(text.includes(seat === 0 ? 'You won' : 'You lost'), `My games says it: ${text}`);
      assert(text.includes(expected), `My games writes the result out: ${text}`);
    }
  },

  'lobby: a seek in the list is played with one click, and pairs the two pages': async (h) => {
    const ada = await h.newPlayer('Ada');
    const ben = await h.newPlayer('Ben');
    await ada.page.locator('#seek-game').selectOption('baltek');
    await ada.page.locator('#seek-clock').selectOption('none');
    await ada.page.locator('#seek-submit').click();
    await ada.page.locator('#seek-status').filter({hasText: 'Looking for an opponent'}).waitFor();
    // Ada sees her own seek without a button; Ben sees it with one.
    await ada.page.locator('#seeks .seek-row .seek-mine').waitFor();
    assertEqual(await ada.page.locator('#seeks .seek-accept').count(), 0, 'no button on my own seek');
    const accept = ben.page.locator('#seeks .seek-row', {hasText: 'Ada seeks Baltek'}).locator('.seek-accept');
    await accept.waitFor();
    await accept.click();
    await ada.page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
    await ben.page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
    assertEqual(ada.page.url().split('#')[1], ben.page.url().split('#')[1], 'the two pages are in the same room');
    await waitStatus(ada.page, 'live');
    assertEqual(await ada.page.locator('.room-title').innerText(), 'Baltek', 'the seek\'s game');
  },

  'lobby: on a phone the room list comes first, above the forms, and nothing is wider than the screen':
      async (h) => {
        const {page} = await h.newPlayer('Ada', {viewport: kPhone});
        await page.locator('.lobby-rooms').waitFor();
        const top = (selector) => page.locator(selector).evaluate((node) => node.getBoundingClientRect().top);
        const rooms = await top('.lobby-rooms');
        // The one-click tiles first, then the lists, then the forms.
        assert(await top('#quick-start') < rooms, 'the one-click tiles come before the rooms');
        for (const form of ['#name-form', '#seek-form', '#bot-form', '#create-form', '.lobby-games']) {
          const other = await top(form);
          assert(rooms < other, `the rooms (${rooms}) come before ${form} (${other})`);
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 1, `no sideways scrolling (${overflow} px)`);
      },

  'lobby: text contrast is at least 4.5:1 in the lobby and a room, light and dark': async (h) => {
    // A live room, so that the lobby lists a live status (the orange text of old).
    const {room} = await tablutPair(h);
    for (const scheme of ['light', 'dark']) {
      const context = await h.browser.newContext({viewport: kDesktop, colorScheme: scheme});
      await keepLobbyFormsOpen(context);  // the forms are checked too
      h.contexts.push(context);
      const page = await context.newPage();
      await page.goto(`${h.url}/#/`);
      await waitWelcomed(page);
      await page.locator(`#rooms [data-room="${room}"] .status-live`).waitFor();
      const lobby = await lowContrastText(page);
      assertEqual(lobby.length, 0, `lobby, ${scheme}: ${lobby.join('; ')}`);
      await openRoom(page, room);
      await page.locator('#players .player-side').first().waitFor();
      const inside = await lowContrastText(page);
      assertEqual(inside.length, 0, `room, ${scheme}: ${inside.join('; ')}`);
      await page.goto(`${h.url}/#/help/tablut`);
      await page.locator('.help-figure[data-drawn="true"]').first().waitFor();
      const help = await lowContrastText(page);
      assertEqual(help.length, 0, `help, ${scheme}: ${help.join('; ')}`);
    }
  },

  'lobby: a correspondence room\'s seat links are offered to send, after a reload and in My games': async (h) => {
    const {page} = await h.newPlayer('Ada');
    const room = await createRoom(page, {game: 'tablut', clock: '1d'});
    const block = page.locator('#room .seat-links');
    const check = async (where) => {
      await block.locator('.seat-link').first().waitFor({timeout: kWait});
      const text = await block.innerText();
      assert(/Send this link to your opponent/.test(text), `${where}: the words say what to do: ${text}`);
      assert((await block.locator('.copy-seat-link').count()) >= 1, `${where}: a copy button`);
      assert(/#\/room\/[A-Za-z0-9_-]+\?seat=[01]&token=/.test(text), `${where}: the link itself`);
    };
    await check('after create');
    await page.reload();
    await page.waitForSelector(`#room[data-room="${room}"][data-version]`);
    await check('after a reload');
    await page.goto(page.url().replace(/#.*$/, '') + '#/');
    const entry = page.locator(`#my-games [data-room="${room}"]`);
    await entry.locator('.seat-link').first().waitFor({timeout: kWait});
    const text = await entry.innerText();
    assert(/Send this link to your opponent/.test(text), `My games says what to do: ${text}`);
    assert((await entry.locator('.copy-seat-link').count()) >= 1, 'My games: a copy button');
  },

  // One click per game: against the computer at the level last chosen (kept in the browser), or quick
  // pairing; the tiles above the fold on a desktop and a phone, the full forms a click away.
  'lobby: one-click tiles start a game against the computer or pair two strangers, above the fold': async (h) => {
    const games = gameTable();
    for (const viewport of [kDesktop, kPhone]) {
      const {page} = await h.newPlayer('Ada', {viewport, moreOptions: false});
      await page.locator('#quick-start').waitFor();
      assertEqual(await page.locator('#quick-start .quick-row').count(), games.length, 'a tile per game');
      const low = await page.evaluate(() => Math.max(...[...document.querySelectorAll('#quick-start button')].map(
          (b) => b.getBoundingClientRect().bottom)));
      assert(low <= viewport.height, `${viewport.width} px: every tile's buttons above the fold (${Math.round(low)})`);
      assert(!(await page.locator('#create-form').isVisible()), 'the full forms are folded away');
      assert(!(await page.locator('#bot-form').isVisible()), 'the computer\'s form too');
      await page.locator('#more-options-summary').click();
      await page.locator('#create-form').waitFor();
      await page.locator('#more-options-summary').click();
      await page.locator('#create-form').waitFor({state: 'hidden'});
      const lowText = await lowContrastText(page);
      assertEqual(lowText.length, 0, `contrast: ${lowText.join('; ')}`);
      await h.screenshot(page, `lobby-quick-${viewport.width}`);
    }
    // The computer: level 3 chosen once, then a tile starts a game at once against bot level 3.
    const {page} = await h.newPlayer('Ben', {moreOptions: false});
    await page.locator('#quick-level').selectOption('3');
    const game = games[games.length - 1].name;
    await page.locator(`#quick-start [data-quick="bot"][data-game="${game}"]`).click();
    await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
    await waitStatus(page, 'live');
    const bot = await page.evaluate(() => window.cinqApp.room.state.seats.map((s) => s && s.id).find((id) => /^bot:/.test(id || '')));
    assertEqual(bot, 'bot:3', 'the level chosen');
    await page.goto(`${h.url}/#/`);
    assertEqual(await page.locator('#quick-level').inputValue(), '3', 'the level is remembered');
    // Quick pairing: two strangers click the same tile and meet in one room.
    const carol = await h.newPlayer('Carol', {moreOptions: false});
    const first = games[0].name;
    await page.locator(`#quick-start [data-quick="seek"][data-game="${first}"]`).click();
    await page.locator('#quick-seek-status').filter({hasText: 'Looking for an opponent'}).waitFor();
    await carol.page.locator(`#quick-start [data-quick="seek"][data-game="${first}"]`).click();
    await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
    await carol.page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
    assertEqual(page.url().split('#')[1], carol.page.url().split('#')[1], 'the two are paired in one room');
  },

  // A refusal of a create (the limit of games against the computer) is said in the form that sent it, not
  // in a notice over the forms' buttons.
  'lobby: a refused game against the computer is said beside the form, covering nothing': async (h) => {
    const {page} = await h.newPlayer('Ada');
    const game = gameTable()[0].name;
    for (let i = 0; i < 3; i++) {
      await page.goto(`${h.url}/#/`);
      await page.locator(`#quick-start [data-quick="bot"][data-game="${game}"]`).click();
      await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
      await waitStatus(page, 'live');
    }
    await page.goto(`${h.url}/#/`);
    await page.locator('#bot-submit').click();
    await page.locator('#bot-error').waitFor({state: 'visible'});
    assert((await page.locator('#bot-error').innerText()).trim().length > 0, 'the refusal is said');
    assertEqual(await page.locator('#notice .notice-item').count(), 0, 'no notice over the page');
    const cvc = page.locator('#cvc-submit');
    await cvc.scrollIntoViewIfNeeded();
    const hit = await cvc.evaluate((button) => {
      const box = button.getBoundingClientRect();
      return document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2) === button;
    });
    assert(hit, 'the "Watch computer vs computer" button is not covered');
  },

  // Options are menus built from the game table and the board modules' words: the default chosen and said,
  // a line on each option, and the room made with the options chosen, written as the server writes them.
  'lobby: a game\'s options are menus with their defaults and words, and make the room\'s options': async (h) => {
    const {page} = await h.newPlayer('Ada');
    for (const game of gameTable()) {
      await page.goto(`${h.url}/#/`);
      await page.locator('#create-game').selectOption(game.name);
      const specs = game.options || [];
      if (!specs.length) {
        await page.locator('#create-options .options-none').waitFor();
        continue;
      }
      const pairs = [];
      for (const spec of specs) {
        const control = page.locator(`#create-opt-${spec.key}`);
        await control.waitFor();
        const about = await page.locator(`#create-opt-${spec.key}-about`).innerText();
        assert(/\w+ \w+/.test(about.replace(/Default:.*$/, '')), `${game.name} ${spec.key}: a line on what it does: ${about}`);
        assert(/Default: /.test(about), `${game.name} ${spec.key}: the default is said: ${about}`);
        assert(!(await page.locator(`#create-opt-${spec.key}-about`).innerText()).includes('='), 'no key=value text');
        if (Array.isArray(spec.choices)) {
          assertEqual(await control.inputValue(), spec.default, `${game.name} ${spec.key}: the default chosen`);
          const other = spec.choices.find((c) => c !== spec.default);
          pairs.push(`${spec.key}=${other}`);
        } else if (spec.none !== undefined && String(spec.default) === String(spec.none)) {
          assert(await page.locator(`#create-opt-${spec.key}-none`).isChecked(), `${game.name} ${spec.key}: unset by default`);
          pairs.push(`${spec.key}=${spec.min + 3}`);
        } else {
          assertEqual(await control.inputValue(), String(spec.default), `${game.name} ${spec.key}: the default shown`);
          pairs.push(`${spec.key}=${Number(spec.default) === spec.min ? spec.min + 1 : spec.min}`);
        }
      }
      const wanted = pairs.join(' ');
      await setOptions(page, 'create', wanted);
      await page.locator('#create-submit').click();
      await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
      await page.waitForSelector('#room[data-room]');
      await page.waitForFunction(() => window.cinqApp.room?.state);
      assertEqual(await page.evaluate(() => window.cinqApp.room.state.options), wanted, `${game.name}: the room's options`);
      await page.locator('#leave').click().catch(() => {});
    }
    await page.goto(`${h.url}/#/`);
    await page.locator('#create-game').selectOption(gameTable()[0].name);
    await h.screenshot(page, 'lobby-options-menus');
  },

  'lobby: the rooms come 50 a page, with newer and older pages': async (h) => {
    const {page} = await h.newPlayer('Ada');
    // Fifty-five public rooms of six guests (ten open rooms each at most), made over WebSockets the page keeps
    // open (a room whose creator left would go).
    await page.evaluate(async (base) => {
      window.hosts = [];
      for (let p = 0; p < 6; ++p) {
        const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws`);
        window.hosts.push(ws);
        await new Promise((ok) => ws.addEventListener('open', ok));
        const answers = [];
        ws.addEventListener('message', (e) => answers.push(JSON.parse(e.data)));
        ws.send(JSON.stringify({type: 'hello', name: `Host${p}`}));
        const rooms = p < 5 ? 10 : 5;
        for (let i = 0; i < rooms; ++i) ws.send(JSON.stringify({type: 'create', game: 'batik', seat: 0}));
        while (answers.filter((m) => m.type === 'state' || m.type === 'error').length < rooms) {
          await new Promise((wake) => setTimeout(wake, 50));
        }
        const refused = answers.filter((m) => m.type === 'error');
        if (refused.length) throw new Error(`create refused: ${JSON.stringify(refused[0])}`);
      }
    }, h.url);
    const where = page.locator('#rooms-page');
    await where.waitFor({state: 'visible', timeout: kWait});
    await page.waitForFunction(() => document.querySelector('#rooms-page').textContent === 'Page 1 of 2');
    assertEqual(await page.locator('#rooms > *').count(), 50, 'the first page holds 50 rooms');
    assert(await page.locator('#rooms-newer').isDisabled(), 'no newer page than the first');
    await page.locator('#rooms-older').click();
    await page.waitForFunction(() => document.querySelector('#rooms-page').textContent === 'Page 2 of 2');
    await page.waitForFunction(() => document.querySelectorAll('#rooms > *').length === 5);
    assert(await page.locator('#rooms-older').isDisabled(), 'no older page than the last');
    await h.screenshot(page, 'lobby-rooms-page-2');
    await page.locator('#rooms-newer').click();
    await page.waitForFunction(() => document.querySelector('#rooms-page').textContent === 'Page 1 of 2');
    const api = await h.fetchJson('/api/rooms?page=2');
    assertEqual(api.status, 200, '/api/rooms answers');
    assertEqual(api.body.rooms.length, 5, '/api/rooms?page=2 holds the last 5');
    assertEqual(api.body.total, 55, 'total');
  },
};
