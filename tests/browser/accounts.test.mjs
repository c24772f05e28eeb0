// Accounts, players' pages and the archive (web-client/account.js, player.js, archive.js,
// leaderboard.js, rating-chart.js): a guest registers and keeps its games; the account logs in from another
// browser (a fresh context: empty localStorage) and finds its games and rating on #/player/NAME; a wrong
// password is refused and leaves the page a guest; the archive finds finished games by player and game, 20 a
// page; "log out everywhere" turns every browser of the account into a guest.
import {assert, assertEqual, clickMove, createRoom, identityOf, kDesktop, kWait, login, lowContrastText, mySeat, register, sitFromLobby, waitGuest, waitStatus, waitWelcomed,} from './harness.mjs';

const kPassword = 'correct horse 19';

// Ada creates a rated room of `game` (the lobby's Rated box) with `clock`, Ben takes the other seat from
// the lobby: {room, pages by seat}.
async function ratedPair(ada, ben, {game = 'tablut', clock = '5+3'} = {}) {
  await ada.page.goto(`${ada.page.url().replace(/#.*$/, '')}#/`);
  await waitWelcomed(ada.page);
  const rated = ada.page.locator('#create-rated');
  await rated.waitFor();
  assert(await rated.isEnabled(), 'an account may ask for a rated room');
  await ada.page.locator('#create-game').selectOption(game);
  await ada.page.locator('#create-clock').selectOption(clock);
  await rated.check();
  await ada.page.locator('#create-submit').click();
  await ada.page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
  await ada.page.waitForSelector('#room[data-room][data-rated="true"]', {timeout: kWait});
  const room = await ada.page.locator('#room').getAttribute('data-room');
  assert((await ada.page.locator('.room-subtitle').innerText()).includes('rated'), 'the room says it is rated');
  // The lobby lists it as rated, its player with her (provisional) rating.
  await ben.page.goto(`${ben.page.url().replace(/#.*$/, '')}#/`);
  const row = ben.page.locator(`#rooms [data-room="${room}"]`);
  await row.locator('.room-rated').waitFor({timeout: kWait});
  assertEqual(await row.locator('.rating-badge').first().innerText(), '1500?', 'a new account\'s rating: provisional');
  await sitFromLobby(ben.page, room);
  // In the room, each name links to the player's page, the rating beside it.
  for (const [page, other] of [[ada.page, 'ben_2'], [ben.page, 'ada_1']]) {
    const link = page.locator('#players .player-link', {hasText: other});
    await link.waitFor({timeout: kWait});
    assertEqual(await link.getAttribute('href'), `#/player/${other}`, 'the room links the opponent to their page');
    assertEqual(await page.locator('#players .rating-badge').first().innerText(), '1500?', 'the rating beside');
  }
  await waitStatus(ada.page, 'live');
  await waitStatus(ben.page, 'live');
  const pages = [];
  pages[await mySeat(ada.page)] = ada.page;
  pages[await mySeat(ben.page)] = ben.page;
  assert(pages[0] && pages[1], 'Ada and Ben hold the two seats');
  return {room, pages};
}

// Sends `message` on the page's connection and resolves with the first message that is what `want` says
// ({types: [type...], room?, kind?}), or throws on an error answering it. The pages pace their commands (the
// server allows 20 a second per connection).
function command(page, message, want) {
  return page.evaluate(async ({message, want}) => {
    const conn = window.cinqApp.conn;
    const wanted = (m) => want.types.includes(m.type) && (!want.room || m.room === want.room) &&
        (!want.kind || m.kind === want.kind);
    const last = window.__lastCommandAt || 0;
    const pause = Math.max(0, last + 120 - performance.now());
    if (pause) await new Promise((done) => setTimeout(done, pause));
    window.__lastCommandAt = performance.now();
    return new Promise((resolve, reject) => {
      let ref = null;
      const off = conn.on('*', (m) => {
        if (m.type === 'error' && m.ref === ref) {
          off();
          reject(new Error(`${message.type}: ${m.code} ${m.message || ''}`));
        } else if (wanted(m)) {
          off();
          resolve(m);
        }
      });
      ref = conn.send(message);
      if (ref === null) {
        off();
        reject(new Error('not connected'));
      }
    });
  }, {message, want});
}

// A finished game between the two pages' players, made over their connections: `creator` creates a room of
// `game` holding seat 0, `other` sits on seat 1, then `loser` (a page) resigns. Resolves with the room id.
async function finishedGame(creator, other, game, loser) {
  const state = await command(creator, {type: 'create', game, clock: null, seat: 0}, {types: ['state']});
  const room = state.room;
  await command(other, {type: 'sit', room, seat: 1}, {types: ['state', 'event'], room});
  await command(loser, {type: 'resign', room}, {types: ['event'], room, kind: 'finished'});
  return room;
}

export const timeouts = {
  'accounts: a registered player logs in from a second browser and finds the games and the rating': 120000,
  'accounts: the archive finds finished games by player and game, 20 a page': 120000,
};

export const tests = {
  'accounts: a registered player logs in from a second browser and finds the games and the rating': async (h) => {
    const ada = await h.newPlayer('Ada');
    const ben = await h.newPlayer('Ben');
    // A guest game first: Ada wins it (Ben resigns), then registers; the game stays hers.
    const guest_room = await createRoom(ada.page, {game: 'tablut'});
    await sitFromLobby(ben.page, guest_room);
    await waitStatus(ada.page, 'live');
    await ben.page.evaluate((id) => window.cinqApp.conn.send({type: 'resign', room: id}), guest_room);
    await waitStatus(ada.page, 'finished');
    const guest = await identityOf(ada.page);
    await register(ada.page, 'ada_1', kPassword);
    const registered = await identityOf(ada.page);
    assertEqual(registered.id, guest.id, 'registering keeps the guest\'s id');
    assertEqual(registered.token, guest.token, 'and its token');
    assertEqual(registered.name, 'ada_1', 'the name becomes the user name');
    assertEqual(await ada.page.locator('#whoami-user').innerText(), 'ada_1', 'the header shows the user name');
    assert((await ada.page.locator('#account-status').innerText()).includes('Registered'), 'the page says it');
    await register(ben.page, 'ben_2', kPassword);

    // A rated game with a live clock: a move each, then Ben resigns from the room's button.
    const {room, pages} = await ratedPair(ada, ben);
    await pages[0].waitForSelector('#room[data-to-move="0"]');
    await clickMove(pages[0], 'e8', 'i8');
    await pages[1].waitForSelector('#room[data-to-move="1"]');
    await clickMove(pages[1], 'e3', 'a3');
    await ben.page.locator('#resign').click();
    await ben.page.locator('#resign', {hasText: 'Confirm resign'}).click();
    for (const page of [ada.page, ben.page]) {
      await waitStatus(page, 'finished');
      // The rating change, from the `ratings` message: "Ratings: ada_1 1500 → 1662? (+162) · ben_2 …".
      const change = page.locator('#rating-change');
      await change.waitFor({state: 'visible', timeout: kWait});
      const text = await change.innerText();
      assert(/ada_1 \d+ → \d+\??\s\(\+\d+\)/.test(text), `Ada's rating went up: ${text}`);
      assert(/ben_2 \d+ → \d+\??\s\(\u2212\d+\)/.test(text), `Ben's went down: ${text}`);
      assert(await page.locator('.player-rating-change').first().isVisible(), 'the players\' rows say it too');
      // The badges beside the names show the new ratings, not the 1500? they started from.
      const ada_after = /ada_1 \d+ → (\d+\??)/.exec(text)[1];
      const ben_after = /ben_2 \d+ → (\d+\??)/.exec(text)[1];
      for (const [name, after] of [['ada_1', ada_after], ['ben_2', ben_after]]) {
        const badge = page.locator('#players .player', {hasText: name}).locator('.rating-badge');
        assertEqual(await badge.innerText(), after, `${name}'s badge after the game`);
      }
    }

    // A second browser: nothing in its localStorage; logging in gives it the account's id.
    const carol = await h.newPlayer(null);
    await waitGuest(carol.page);
    await login(carol.page, 'ada_1', kPassword);
    const logged = await identityOf(carol.page);
    assertEqual(logged.id, guest.id, 'the account\'s id');
    assert(logged.token, 'a token for this browser');
    assert((await carol.page.locator('#account-status').innerText()).includes('ada_1: you are logged in'),
           'the page says it');

    // Her page, from the header's name.
    await carol.page.locator('#whoami-user').click();
    await carol.page.waitForSelector('#player[data-state="done"]', {timeout: kWait});
    assertEqual(await carol.page.locator('#player-title').innerText(), 'ada_1', 'the player\'s page');
    const line = carol.page.locator('#ratings tr[data-game="tablut"][data-pool="live"]');
    await line.waitFor();
    const cells = await line.locator('td').allInnerTexts();
    assert(/^\d+\?/.test(cells[1]), `the rating, provisional ("?"): ${cells}`);
    assertEqual(cells.slice(2).join(' '), '1 1 0 0', 'one game, won, none lost or drawn');
    // The chart: a point for the rated game.
    const figure = carol.page.locator('.rating-figure[data-game="tablut"]');
    assertEqual(await figure.locator('svg.rating-chart .chart-point').count(), 1, 'one point on the chart');
    // The line starts from the 1500 the player began with.
    assertEqual(await figure.locator('svg.rating-chart .chart-start title').textContent(), 'Live: started at 1500',
                'the line starts at the starting rating');
    assertEqual(await figure.locator('svg.rating-chart .chart-line').count(), 1, 'a line, not a lone dot');
    // Both games, the guest's one included, each opening its room.
    for (const id of [room, guest_room]) {
      const entry = carol.page.locator(`#player-games [data-id="${id}"]`);
      await entry.waitFor();
      assertEqual(await entry.getAttribute('data-outcome'), 'win', `game ${id} was won`);
      assertEqual(await entry.locator('.open-game').getAttribute('href'), `#/room/${id}`, 'its link');
    }
    assert((await carol.page.locator(`#player-games [data-id="${room}"]`).innerText()).includes('rated'),
           'the rated game says so');
    // The export: every game as one text file.
    const file = await carol.page.locator('#export-games').getAttribute('href');
    assertEqual(file, '/api/players/ada_1/games.txt', 'the export link');
    const response = await fetch(`${h.url}${file}`);
    assertEqual(response.status, 200, 'the export answers');
    const text = await response.text();
    assert((text.match(/#! TABLUT/g) || []).length >= 2, `the two games' records: ${text.slice(0, 200)}`);
    // The rated game opens from the list.
    await carol.page.locator(`#player-games [data-id="${room}"] .open-game`).click();
    await carol.page.waitForSelector(`#room[data-room="${room}"][data-status="finished"]`, {timeout: kWait});

    // The leaderboard, from the lobby: a provisional rating is not ranked.
    await carol.page.goto(`${h.url}/#/`);
    await carol.page.locator('.lobby-game[data-game="tablut"] .leaderboard-link').click();
    await carol.page.waitForSelector('#leaderboard[data-game="tablut"][data-state="done"]', {timeout: kWait});
    assertEqual(await carol.page.locator('#leaderboard-table tr[data-username="ada_1"]').count(), 0,
                'a provisional rating is not ranked');
    assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
  },

  'accounts: a wrong password is refused and leaves the browser a guest; errors are said': async (h) => {
    const ada = await h.newPlayer(null);
    await register(ada.page, 'ada_1', kPassword);
    const account = await identityOf(ada.page);

    const other = await h.newPlayer(null);
    await waitGuest(other.page);
    const guest = await identityOf(other.page);
    await other.page.goto(`${h.url}/#/account`);
    await other.page.locator('#login-username').fill('ada_1');
    await other.page.locator('#login-password').fill('not the password');
    await other.page.locator('#login-submit').click();
    const error = other.page.locator('#login-error');
    await error.waitFor({state: 'visible', timeout: kWait});
    assertEqual(await error.innerText(), 'Unknown user name or wrong password.', 'the error in words');
    const after = await identityOf(other.page);
    assertEqual(after.id, guest.id, 'still the same guest');
    assert(!after.username && after.id !== account.id, 'not logged in');
    assert(await other.page.locator('#login-link').isVisible(), 'the header still offers Log in');
    assertEqual(await other.page.locator('#notice .notice-item').count(), 0, 'the form says it, not a notice');

    // Registering a taken name, and a short password (refused before it is sent).
    await other.page.goto(`${h.url}/#/account/register`);
    await other.page.locator('#register-username').fill('ada_1');
    await other.page.locator('#register-password').fill('short');
    await other.page.locator('#register-password2').fill('short');
    await other.page.locator('#register-submit').click();
    const register_error = other.page.locator('#register-error');
    await register_error.waitFor({state: 'visible'});
    assert((await register_error.innerText()).includes('8 to 128'), `a short password: ${await register_error.innerText()}`);
    await other.page.locator('#register-password').fill(kPassword);
    await other.page.locator('#register-password2').fill(kPassword);
    await other.page.locator('#register-submit').click();
    await other.page.locator('#register-error', {hasText: 'That user name is taken'}).waitFor({timeout: kWait});
    assert(!(await identityOf(other.page)).username, 'still a guest');

    // The right password logs in.
    await login(other.page, 'ada_1', kPassword);
    assertEqual((await identityOf(other.page)).id, account.id, 'the account');
  },

  'accounts: changing the password: the old one no longer logs in, the new one does': async (h) => {
    const ada = await h.newPlayer(null);
    await register(ada.page, 'ada_1', kPassword);
    await ada.page.goto(`${h.url}/#/account`);
    await ada.page.locator('#password-old').fill('wrong password');
    await ada.page.locator('#password-new').fill('a new password');
    await ada.page.locator('#password-new2').fill('a new password');
    await ada.page.locator('#password-submit').click();
    await ada.page.locator('#password-error', {hasText: 'The current password is wrong.'}).waitFor({timeout: kWait});
    await ada.page.locator('#password-old').fill(kPassword);
    await ada.page.locator('#password-submit').click();
    await ada.page.locator('#account-status', {hasText: 'The password is changed.'}).waitFor({timeout: kWait});

    const other = await h.newPlayer(null);
    await waitGuest(other.page);
    await other.page.goto(`${h.url}/#/account`);
    await other.page.locator('#login-username').fill('ada_1');
    await other.page.locator('#login-password').fill(kPassword);
    await other.page.locator('#login-submit').click();
    await other.page.locator('#login-error', {hasText: 'Unknown user name or wrong password.'}).waitFor({timeout: kWait});
    await login(other.page, 'ada_1', 'a new password');
  },

  'accounts: the archive finds finished games by player and game, 20 a page': async (h) => {
    const ada = await h.newPlayer(null);
    const ben = await h.newPlayer(null);
    await register(ada.page, 'ada_1', kPassword);
    await register(ben.page, 'ben_2', kPassword);
    // Quiet pages (no lobby refreshing every 3 s) while the games are made over the connections.
    for (const page of [ada.page, ben.page]) await page.goto(`${h.url}/#/help`);
    const tablut = [];
    for (let i = 0; i < 21; ++i) tablut.push(await finishedGame(ada.page, ben.page, 'tablut', ada.page));
    const baltek = await finishedGame(ada.page, ben.page, 'baltek', ben.page);

    // The form, from the header's link: player and game.
    const page = ada.page;
    await page.locator('.site-nav a[href="#/archive"]').click();
    await page.waitForSelector('#archive[data-state="done"]', {timeout: kWait});
    await page.locator('#archive-player').fill('ada_1');
    await page.locator('#archive-game').selectOption('tablut');
    await page.locator('#archive-submit').click();
    await page.waitForURL(/#\/archive\?player=ada_1&game=tablut$/, {timeout: kWait});
    await page.waitForSelector('#archive[data-query="player=ada_1&game=tablut&page=1"][data-state="done"]', {timeout: kWait});
    assertEqual(await page.locator('#archive').getAttribute('data-total'), '21', 'the 21 Tablut games');
    assertEqual(await page.locator('#archive-results > li').count(), 20, '20 on the first page');
    assert((await page.locator('#archive-page').innerText()).includes('Page 1 of 2'), 'page 1 of 2');
    assert(await page.locator('#archive-prev').isDisabled(), 'no page before the first');
    // Newest first: the last game made heads the list.
    assertEqual(await page.locator('#archive-results > li').first().getAttribute('data-id'), tablut[20], 'newest first');
    assertEqual(await page.locator('#archive-results > li').first().getAttribute('data-outcome'), 'loss',
                'Ada lost them (she resigned)');
    await page.locator('#archive-next').click();
    await page.waitForSelector('#archive[data-query="player=ada_1&game=tablut&page=2"][data-state="done"]', {timeout: kWait});
    assertEqual(await page.locator('#archive-results > li').count(), 1, 'one on the second');
    assertEqual(await page.locator('#archive-results > li').first().getAttribute('data-id'), tablut[0], 'the oldest');
    assert(await page.locator('#archive-next').isDisabled(), 'no page after the last');
    assertEqual(await page.locator('#archive-player').inputValue(), 'ada_1', 'the form keeps the search');
    await page.locator('#archive-prev').click();
    await page.waitForSelector('#archive[data-query="player=ada_1&game=tablut&page=1"][data-state="done"]', {timeout: kWait});
    assertEqual(await page.locator('#archive-results > li').count(), 20, 'back on the first page');

    // The Baltek game: its room (the replay) and its record.
    await page.locator('#archive-game').selectOption('baltek');
    await page.locator('#archive-submit').click();
    await page.waitForSelector('#archive[data-query="player=ada_1&game=baltek&page=1"][data-state="done"]', {timeout: kWait});
    assertEqual(await page.locator('#archive').getAttribute('data-total'), '1', 'the one Baltek game');
    const entry = page.locator(`#archive-results [data-id="${baltek}"]`);
    assertEqual(await entry.getAttribute('data-outcome'), 'win', 'Ada won it');
    assert((await entry.innerText()).includes('ben_2'), 'the opponent is named');
    const record = await entry.locator('.record-link').getAttribute('href');
    assertEqual(record, `/api/games/${baltek}/record`, 'the record link');
    const response = await fetch(`${h.url}${record}`);
    assertEqual(response.status, 200, 'the record downloads');
    assert((await response.text()).includes('#! BALTEK'), 'a Baltek record');
    // A player's result narrows the search: Ada won none of the Tablut games.
    await page.goto(`${h.url}/#/archive?player=ada_1&game=tablut&result=win`);
    await page.waitForSelector('#archive[data-query="player=ada_1&game=tablut&result=win&page=1"][data-state="done"]',
                               {timeout: kWait});
    assertEqual(await page.locator('#archive').getAttribute('data-total'), '0', 'no Tablut game won');
    assert((await page.locator('#archive-count').innerText()).includes('No finished game'), 'the page says so');
    await page.goto(`${h.url}/#/archive?player=ada_1&game=baltek`);
    await page.waitForSelector('#archive[data-query="player=ada_1&game=baltek&page=1"][data-state="done"]', {timeout: kWait});
    await page.locator(`#archive-results [data-id="${baltek}"] .open-game`).click();
    await page.waitForSelector(`#room[data-room="${baltek}"][data-status="finished"]`, {timeout: kWait});
    assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
  },

  'accounts: the account, player, archive and leaderboard pages keep 4.5:1 text contrast, light and dark':
      async (h) => {
        const ada = await h.newPlayer(null);
        const ben = await h.newPlayer(null);
        await register(ada.page, 'ada_1', kPassword);
        await register(ben.page, 'ben_2', kPassword);
        for (const page of [ada.page, ben.page]) await page.goto(`${h.url}/#/help`);
        await finishedGame(ada.page, ben.page, 'tablut', ada.page);
        await finishedGame(ada.page, ben.page, 'baltek', ben.page);
        for (const scheme of ['light', 'dark']) {
          const context = await h.browser.newContext({viewport: kDesktop, colorScheme: scheme});
          h.contexts.push(context);
          const page = await context.newPage();
          await page.goto(`${h.url}/#/account`);
          await waitWelcomed(page);
          const guest = await lowContrastText(page);
          assertEqual(guest.length, 0, `account (guest), ${scheme}: ${guest.join('; ')}`);
          await login(page, 'ada_1', kPassword);
          const pages = [
            ['#/account', '#account-status'],
            ['#/player/ada_1', '#player[data-state="done"]'],
            ['#/archive?player=ada_1', '#archive[data-state="done"]'],
            ['#/leaderboard/tablut', '#leaderboard[data-state="done"]'],
            ['#/', '#account-nav'],
          ];
          for (const [hash, ready] of pages) {
            await page.goto(`${h.url}/${hash}`);
            await page.locator(ready).waitFor();
            const low = await lowContrastText(page);
            assertEqual(low.length, 0, `${hash}, ${scheme}: ${low.join('; ')}`);
          }
        }
      },

  'accounts: another tab of the same browser follows a login and a logout': async (h) => {
    const ada = await h.newPlayer(null);
    await register(ada.page, 'ada_1', kPassword);
    await ada.page.goto(`${h.url}/#/account`);
    await ada.page.locator('#logout').click();
    await waitGuest(ada.page);
    // A second tab of the same browser (the same localStorage), on the lobby.
    const tab = await ada.context.newPage();
    tab.on('pageerror', (error) => h.pageErrors.push(`tab: ${error.message}`));
    await tab.goto(`${h.url}/#/`);
    await waitGuest(tab);
    await login(ada.page, 'ada_1', kPassword);
    await tab.locator('#whoami-user', {hasText: 'ada_1'}).waitFor({timeout: kWait});
    await tab.locator('#create-rated:enabled').waitFor({timeout: kWait});
    assertEqual(await tab.evaluate(() => window.cinqApp.conn.username), 'ada_1', 'the tab is the account');
    // A logout in the tab: the first page follows, and neither writes the account back.
    await tab.goto(`${h.url}/#/account`);
    await tab.locator('#logout').click();
    await waitGuest(tab);
    await waitGuest(ada.page);
    assert(!(await identityOf(tab)).username, 'the stored identity is a guest\'s');
    assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
  },

  'accounts: a rated seek with a rating range pairs two accounts in a rated room; a guest cannot take it':
      async (h) => {
        const ada = await h.newPlayer(null);
        const ben = await h.newPlayer(null);
        const carol = await h.newPlayer('Carol');
        await register(ada.page, 'ada_1', kPassword);
        await register(ben.page, 'ben_2', kPassword);
        // A guest's Rated boxes are off, with a word on how to get them.
        assert(await carol.page.locator('#seek-rated').isDisabled(), 'a guest cannot seek a rated game');
        assert(await carol.page.locator('#create-rated').isDisabled(), 'nor create one');
        assert(await carol.page.locator('#seek-rated-hint').isVisible(), 'the hint says why');
        await ada.page.goto(`${h.url}/#/`);
        assert(await ada.page.locator('#seek-range').isHidden(), 'the range is a rated seek\'s');
        await ada.page.locator('#seek-rated').check();
        await ada.page.locator('#seek-range-min').fill('1400');
        await ada.page.locator('#seek-range-max').fill('1600');
        await ada.page.locator('#seek-game').selectOption('tablut');
        await ada.page.locator('#seek-clock').selectOption('none');
        await ada.page.locator('#seek-submit').click();
        await ada.page.locator('#seek-status', {hasText: 'rated, 1400–1600'}).waitFor({timeout: kWait});
        // The guest sees the seek, rated, with no button; the account plays it with one click.
        const guest_row = carol.page.locator('#seeks .seek-row[data-rated="true"]');
        await guest_row.waitFor({timeout: kWait});
        assertEqual(await guest_row.locator('.seek-accept').count(), 0, 'no Play button for a guest');
        assert((await guest_row.innerText()).includes('log in'), `the row says why: ${await guest_row.innerText()}`);
        await ben.page.goto(`${h.url}/#/`);
        const row = ben.page.locator('#seeks .seek-row[data-rated="true"]');
        await row.waitFor({timeout: kWait});
        assertEqual(await row.locator('.rating-badge').innerText(), '1500?', 'the seeker\'s rating beside the name');
        await row.locator('.seek-accept').click();
        for (const page of [ada.page, ben.page]) {
          await page.waitForSelector('#room[data-rated="true"][data-status="live"]', {timeout: kWait});
        }
        assertEqual(await ada.page.locator('#room').getAttribute('data-room'),
                    await ben.page.locator('#room').getAttribute('data-room'), 'the same room');
      },

  'accounts: log out everywhere makes every browser of the account a guest': async (h) => {
    const ada = await h.newPlayer(null);
    await register(ada.page, 'ada_1', kPassword);
    const account = await identityOf(ada.page);
    const other = await h.newPlayer(null);
    await login(other.page, 'ada_1', kPassword);
    await other.page.goto(`${h.url}/#/`);
    await other.page.locator('#create-rated:enabled').waitFor({timeout: kWait});

    // Log out here only: the other browser stays logged in.
    await ada.page.goto(`${h.url}/#/account`);
    await ada.page.locator('#logout').click();
    await waitGuest(ada.page);
    assert((await identityOf(ada.page)).id !== account.id, 'a new guest');
    assert((await ada.page.locator('#account-status').innerText()).includes('Logged out'), 'the page says it');
    assertEqual((await identityOf(other.page)).username, 'ada_1', 'the other browser is still logged in');

    // Log out everywhere, from a browser logged in again.
    await login(ada.page, 'ada_1', kPassword);
    await ada.page.locator('#logout-all').click();
    await waitGuest(ada.page);
    await waitGuest(other.page);
    for (const page of [ada.page, other.page]) {
      const identity = await identityOf(page);
      assert(identity.id !== account.id && !identity.username, `a new guest: ${JSON.stringify(identity)}`);
    }
    await other.page.locator('#notice', {hasText: 'You were logged out'}).waitFor({timeout: kWait});
    await other.page.locator('#create-rated:disabled').waitFor({timeout: kWait});
    // Reloaded, the other browser is still a guest (its old token is gone for good).
    await other.page.reload();
    await waitGuest(other.page);
    assert(!(await identityOf(other.page)).username, 'still a guest after a reload');
  },
};
