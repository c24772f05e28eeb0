// Seats and what a player sees of them: a correspondence seat held by an account is its owner's (its link
// asks for a log-in, anyone else watches), a guest's moves to another browser only when asked (the first
// browser is told), links labelled by the seat they name (room and My games) and laid out on one line each
// at both sizes, the time left to move counted down, the room's notes after a reload, current names after a
// rename, and playing on from a replayed position against the computer or a person.
import {assert, assertEqual, kDesktop, kPhone, kWait, mySeat, readRecord, register, setName, waitSeated, waitStatus, waitWelcomed} from './harness.mjs';

const kPassword = 'correct horse battery';

// A Tablut correspondence room (1 day a move) made through the lobby form, its creator in `seat`.
async function createCorrespondence(page, seat) {
  await page.goto(page.url().replace(/#.*$/, '') + '#/');
  await waitWelcomed(page);
  await page.locator('#create-game').selectOption('tablut');
  await page.locator('#create-clock').selectOption('1d');
  await page.locator('#create-seat').selectOption(String(seat));
  await page.locator('#create-submit').click();
  await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+/, {timeout: kWait});
  await waitSeated(page, await page.locator('#room').getAttribute('data-room'));
  const room = await page.locator('#room').getAttribute('data-room');
  const links = await page.evaluate(() => window.cinqApp.room.state.links);
  assert(Array.isArray(links) && links.length === 2, `the creator gets both links: ${JSON.stringify(links)}`);
  return {room, links};
}

// The seat links a block shows: [{seat, mine, who, url}].
async function shownLinks(block) {
  return block.locator('.seat-link').evaluateAll((items) => items.map((item) => ({
    seat: Number(item.dataset.seat),
    mine: item.dataset.mine === 'true',
    who: item.querySelector('.seat-link-who').textContent,
    url: item.querySelector('.seat-link-url').getAttribute('href'),
  })));
}

async function openLink(h, page, link) {
  await page.goto(`${h.url}${link}`);
  await page.waitForSelector('#room[data-version]:not([data-version=""])', {timeout: kWait});
}

export const timeouts = {
  'seats: an account\'s seat link asks to log in, a guest\'s asks before it moves, links named by their seat': 120000,
  'seats: play on from a replayed position against the computer and against a person': 90000,
};

export const tests = {
  'seats: an account\'s seat link asks to log in, a guest\'s asks before it moves, links named by their seat':
      async (h) => {
        // Ada, an account, plays the Attackers (seat 0); Ben opens the Defenders' link.
        const ada = await h.newPlayer('Ada');
        await register(ada.page, 'ada_seats', kPassword);
        const {room, links} = await createCorrespondence(ada.page, 0);
        const ben = await h.newPlayer('Ben');
        await openLink(h, ben.page, links[1]);
        await waitSeated(ben.page, room);
        await waitStatus(ada.page, 'live');

        // Ada's own link in a third browser: asked to log in, watching; Ada keeps the Attackers.
        const guest = await h.newPlayer('Gus');
        await openLink(h, guest.page, links[0]);
        const notice = guest.page.locator('#seat-notice');
        await notice.waitFor({state: 'visible', timeout: kWait});
        const said = await notice.innerText();
        assert(/belongs to the account ada_seats/.test(said) && /log in as ada_seats/.test(said), `the notice: ${said}`);
        assert(await guest.page.locator('#seat-notice-login').isVisible(), 'a Log in link');
        assertEqual(await mySeat(guest.page), null, 'the guest watches');
        await guest.page.waitForTimeout(500);
        const seat0 = await ada.page.locator('#players .player[data-seat="0"] .player-name').innerText();
        assert(/ada_seats/.test(seat0), `Ada still holds the Attackers: ${seat0}`);
        assertEqual(await mySeat(ada.page), 0, 'Ada\'s page still has her seat');
        // Ada's page names her own link apart from any other.
        const ada_links = await shownLinks(ada.page.locator('#room .seat-links'));
        assert(ada_links.some((l) => l.seat === 0 && l.mine && /^Your own link · Attackers/.test(l.who)),
               `Ada's own link: ${JSON.stringify(ada_links)}`);
        assert(!ada_links.some((l) => l.seat === 0 && /Opponent/.test(l.who)), 'never her own as the opponent\'s');

        // Ben's (a guest's) link in another browser: asked first; taken, Ben's browser is told.
        const cy = await h.newPlayer('Cy');
        await openLink(h, cy.page, links[1]);
        const ask = cy.page.locator('#seat-notice');
        await ask.waitFor({state: 'visible', timeout: kWait});
        const asked = await ask.innerText();
        assert(/held by Ben in another browser/.test(asked) && /Take it here/.test(asked), `the question: ${asked}`);
        assertEqual(await mySeat(cy.page), null, 'nothing moved before the answer');
        await h.screenshot(cy.page, 'seats-take-question-desktop');
        await cy.page.locator('#seat-notice-take').click();
        await waitSeated(cy.page, room);
        assertEqual(await mySeat(cy.page), 1, 'Cy holds the Defenders');
        const told = ben.page.locator('#seat-notice');
        await told.waitFor({state: 'visible', timeout: kWait});
        assert(/taken with its link in another browser/.test(await told.innerText()), 'Ben\'s browser is told');
        await ben.page.waitForFunction(() => document.querySelector('#room').dataset.mySeat === '', null, {timeout: kWait});
        const log = await ben.page.locator('#room-log').innerText();
        assert(/taken with its link/.test(log), `the room log says it: ${log}`);

        // Cy goes to the lobby and back: the link shown is Cy's own, the Defenders', everywhere.
        await cy.page.goto(`${h.url}/#/`);
        const entry = cy.page.locator(`#my-games [data-room="${room}"]`);
        await entry.locator('.seat-link').first().waitFor({timeout: kWait});
        const mine = await shownLinks(entry);
        assertEqual(mine.length, 1, `one link in My games: ${JSON.stringify(mine)}`);
        assertEqual(mine[0].seat, 1, 'labelled by its own seat');
        assert(/^Your own link · Defenders/.test(mine[0].who), `My games: ${mine[0].who}`);
        assert(!/Send this link to your opponent/.test(await entry.innerText()), 'nothing to send: both seats are taken');
        await cy.page.goto(`${h.url}/#/room/${room}`);
        await waitSeated(cy.page, room);
        await cy.page.locator('#room .seat-link').first().waitFor({timeout: kWait});
        const in_room = await shownLinks(cy.page.locator('#room .seat-links'));
        assertEqual(JSON.stringify(in_room.map((l) => [l.seat, l.mine])), JSON.stringify([[1, true]]), 'the room too');
        assert(/^Your own link · Defenders/.test(in_room[0].who), `room: ${in_room[0].who}`);

        // Ben, reloading, finds what happened in the room's notes.
        await ben.page.reload();
        await ben.page.waitForSelector(`#room[data-room="${room}"][data-version]`);
        await ben.page.waitForFunction(() => /taken with its link/.test(document.querySelector('#room-log').textContent),
                                       null, {timeout: kWait});
      },

  'seats: the seat links use the panel\'s width, one line each, at 1280x800 and 390x844': async (h) => {
    for (const [size, viewport] of [['desktop', kDesktop], ['phone', kPhone]]) {
      const ada = await h.newPlayer('Ada', {viewport});
      await createCorrespondence(ada.page, 0);
      const block = ada.page.locator('#room .seat-links');
      await block.locator('.seat-link').nth(1).waitFor({timeout: kWait});
      await block.scrollIntoViewIfNeeded();
      const sizes = await block.evaluate((node) => {
        const box = node.getBoundingClientRect();
        const head = node.parentElement.getBoundingClientRect();
        return {
          block: box.width,
          head: head.width,
          links: [...node.querySelectorAll('.seat-link')].map((item) => {
            const url = item.querySelector('.seat-link-url');
            const copy = item.querySelector('.copy-seat-link').getBoundingClientRect();
            const line = parseFloat(getComputedStyle(url).lineHeight) || 16;
            return {
              url_width: url.getBoundingClientRect().width,
              url_height: url.getBoundingClientRect().height,
              line,
              item_width: item.getBoundingClientRect().width,
              copy_inside: copy.right <= box.right + 1 && copy.width > 0,
            };
          }),
        };
      });
      await h.screenshot(ada.page, `seats-links-${size}`);
      assert(sizes.block >= sizes.head - 2, `${size}: the block takes the column (${sizes.block} of ${sizes.head})`);
      for (const link of sizes.links) {
        assert(link.url_height <= link.line * 1.5, `${size}: a link on one line (${link.url_height} px, line ${link.line})`);
        assert(link.url_width >= link.item_width - 2, `${size}: the link uses the width (${link.url_width} of ${link.item_width})`);
        assert(link.copy_inside, `${size}: its copy button inside the panel`);
      }
      const overflow = await ada.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert(overflow <= 1, `${size}: no sideways scrolling (${overflow} px)`);
    }
  },

  'seats: the time left to move is counted down on the mover\'s card and in My games': async (h) => {
    const ada = await h.newPlayer('Ada');
    const {room, links} = await createCorrespondence(ada.page, 0);
    const ben = await h.newPlayer('Ben');
    await openLink(h, ben.page, links[1]);
    await waitStatus(ada.page, 'live');
    const card = ada.page.locator('#players .player[data-seat="0"] .deadline-left');
    await card.waitFor({state: 'visible', timeout: kWait});
    const left = await card.innerText();
    assert(/^23 h 5\d min left$/.test(left), `Ada's card counts her day down: ${left}`);
    assert(await ada.page.locator('#players .player[data-seat="1"] .deadline-left').isHidden(), 'not on Ben\'s card');
    await h.screenshot(ada.page, 'seats-deadline-room');
    await ada.page.goto(`${h.url}/#/`);
    const deadline = ada.page.locator(`#my-games [data-room="${room}"] .room-deadline`);
    await deadline.waitFor({timeout: kWait});
    assert(/^you: 23 h 5\d min left to move$/.test(await deadline.innerText()), `My games: ${await deadline.innerText()}`);
    const other = ben.page;
    await other.goto(`${h.url}/#/`);
    const theirs = other.locator(`#my-games [data-room="${room}"] .room-deadline`);
    await theirs.waitFor({timeout: kWait});
    assert(/^they: 23 h 5\d min left to move$/.test(await theirs.innerText()), `Ben's My games: ${await theirs.innerText()}`);
  },

  'seats: a reload shows the room\'s notes again (a draw offered and declined)': async (h) => {
    const ada = await h.newPlayer('Ada');
    const {links} = await createCorrespondence(ada.page, 0);
    const ben = await h.newPlayer('Ben');
    await openLink(h, ben.page, links[1]);
    await waitStatus(ada.page, 'live');
    await ada.page.locator('#draw').click();
    await ben.page.locator('#decline-draw').waitFor({state: 'visible', timeout: kWait});
    await ben.page.locator('#decline-draw').click();
    await ada.page.waitForFunction(() => /declined the draw/.test(document.querySelector('#room-log').textContent),
                                   null, {timeout: kWait});
    for (const page of [ada.page, ben.page]) {
      await page.reload();
      await page.waitForSelector('#room[data-version]:not([data-version=""])');
      await page.waitForFunction(() => {
        const log = document.querySelector('#room-log').textContent;
        return /offered a draw/.test(log) && /declined the draw/.test(log);
      }, null, {timeout: kWait});
    }
    const lines = await ben.page.locator('#room-log .room-log-line').allInnerTexts();
    assert(/You offered a draw|Ada \(Attackers\) offered a draw/.test(lines.join('\n')), `Ben's log: ${lines.join(' | ')}`);
  },

  'seats: after a guest renames, the lobby, the room and the archive show the new name': async (h) => {
    const ada = await h.newPlayer('Ada');
    const ben = await h.newPlayer('Ben');
    // A finished game (Ben resigns), and an open room of Ada's waiting in the lobby.
    const {room, links} = await createCorrespondence(ada.page, 0);
    await openLink(h, ben.page, links[1]);
    await waitStatus(ben.page, 'live');
    await ben.page.locator('#resign').click();
    await ben.page.locator('#resign').click();
    await waitStatus(ada.page, 'finished');
    await ada.page.goto(`${h.url}/#/`);
    await waitWelcomed(ada.page);
    await ada.page.locator('#create-game').selectOption('tablut');
    await ada.page.locator('#create-submit').click();
    await ada.page.waitForURL(/#\/room\/[A-Za-z0-9_-]+/, {timeout: kWait});
    const open = await ada.page.locator('#room').getAttribute('data-room');
    await ada.page.goto(`${h.url}/#/`);
    await setName(ada.page, 'Adeline');
    // The lobby's list, as Ben sees it.
    await ben.page.goto(`${h.url}/#/`);
    const row = ben.page.locator(`#rooms [data-room="${open}"]`);
    await row.waitFor({timeout: kWait});
    await ben.page.waitForFunction((id) => /Adeline/.test(document.querySelector(`#rooms [data-room="${id}"]`).textContent),
                                   open, {timeout: kWait});
    // The finished room, and Ben's My games.
    await ben.page.goto(`${h.url}/#/room/${room}`);
    await ben.page.waitForFunction(() => /Adeline/.test((document.querySelector('#players .player[data-seat="0"] .player-name') || {}).textContent || ''),
                                   null, {timeout: kWait});
    await ben.page.waitForFunction(() => /A = /.test(document.querySelector('#moves').textContent), null, {timeout: kWait});
    const record = await ben.page.locator('#moves').innerText();
    assert(/A = Ada\b/.test(record), `the record keeps the name it was played under: ${record}`);
    // The finished room's replay offers to play on from its position: here the start, against the computer.
    await ben.page.locator('#play-on').waitFor({timeout: kWait});
    await ben.page.locator('#play-on-side').selectOption('1');
    await ben.page.locator('#play-on-level').selectOption('0');
    await ben.page.locator('#play-on-go').click();
    await ben.page.waitForURL((url) => !url.hash.includes(room) && /#\/room\/[A-Za-z0-9_-]+$/.test(url.hash), {timeout: kWait});
    const bot_room = await ben.page.locator('#room').getAttribute('data-room');
    await waitSeated(ben.page, bot_room);
    assertEqual(await mySeat(ben.page), 1, 'Ben plays the Defenders against the computer');
    // The computer (Attackers) moves first.
    await ben.page.waitForFunction(() => (window.cinqApp.room.state.position || {}).turn >= 1, null, {timeout: kWait});
    await ben.page.goto(`${h.url}/#/`);
    const mine = ben.page.locator(`#my-games [data-room="${room}"]`);
    await mine.waitFor({timeout: kWait});
    assert(/Adeline/.test(await mine.innerText()), `Ben's My games: ${await mine.innerText()}`);
    // The archive (finished public games).
    const archive = await h.fetchJson('/api/games?game=tablut');
    const game = archive.body.games.find((g) => g.id === room);
    assert(game, `the game is in the archive: ${JSON.stringify(archive.body)}`);
    assertEqual(game.seats[0].name, 'Adeline', 'the archive shows the name now');
    await ben.page.goto(`${h.url}/#/archive`);
    await ben.page.waitForFunction(() => /Adeline/.test(document.querySelector('#app').textContent), null, {timeout: kWait});
  },

  'seats: play on from a replayed position against the computer and against a person': async (h) => {
    const record = readRecord('tablut/sample-escape.txt');
    const {page} = await h.newPlayer('Ada');
    // The import page: the replay at turn 4, then against the computer (level 0) as the side to move.
    await page.goto(`${h.url}/#/import`);
    await page.locator('#import-text').fill(record);
    await page.locator('#import-submit').click();
    const form = page.locator('#play-on');
    await form.waitFor({timeout: kWait});
    await page.locator('#movelist .ml-turn[data-index="4"]').click();
    await page.waitForFunction(() => /after turn 4/.test(document.querySelector('.play-on-where').textContent), null,
                               {timeout: kWait});
    await page.locator('#play-on-side').selectOption('0');  // the Attackers move after 4 turns
    await page.locator('#play-on-opponent').selectOption('computer');
    await page.locator('#play-on-level').selectOption('0');
    await h.screenshot(page, 'seats-play-on-import');
    await page.locator('#play-on-go').click();
    await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
    const room = await page.locator('#room').getAttribute('data-room');
    await waitSeated(page, room);
    assertEqual(await mySeat(page), 0, 'Ada plays the Attackers');
    await waitStatus(page, 'live');
    const state = await page.evaluate(() => window.cinqApp.room.state);
    assert(/^bot:/.test(state.seats[1].id), `the computer holds the Defenders: ${JSON.stringify(state.seats)}`);
    assertEqual(state.position.turn, 4, 'four turns played, as the replay showed');
    assertEqual(state.position.to_move, 0, 'Ada to move');

    // Against a person, from the start position of the same record: Ada's link opens her seat, the other
    // one is offered to send.
    await page.goto(`${h.url}/#/import`);
    await page.locator('#import-text').fill(record);
    await page.locator('#import-submit').click();
    await page.locator('#play-on').waitFor({timeout: kWait});
    await page.locator('#movelist .ml-turn[data-index="2"]').click();
    await page.locator('#replay-start').click();
    await page.waitForFunction(() => /start position/.test(document.querySelector('.play-on-where').textContent), null,
                               {timeout: kWait});
    await page.locator('#play-on-side').selectOption('1');
    await page.locator('#play-on-opponent').selectOption('person');
    await page.locator('#play-on-go').click();
    await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+$/, {timeout: kWait});
    const second = await page.locator('#room').getAttribute('data-room');
    assert(second !== room, 'a new room');
    await waitSeated(page, second);
    assertEqual(await mySeat(page), 1, 'Ada plays the Defenders');
    const links = await shownLinks(page.locator('#room .seat-links'));
    assert(links.some((l) => l.seat === 0 && /^Opponent's link · Attackers/.test(l.who)), `the link to send: ${JSON.stringify(links)}`);
    const clock = await page.evaluate(() => window.cinqApp.room.state.clock);
    assertEqual(JSON.stringify(clock), JSON.stringify({days: 3}), 'by correspondence, 3 days a move');
  },
};
