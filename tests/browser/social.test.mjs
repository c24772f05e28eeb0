// Sounds, the hidden tab's alert and the chat (web-client/sound.js, attention.js,
// chat.js, social.js).
//
// Sounds are not listened to: the module records each sound it plays (window.cinqSound.played, oldest
// first; nothing while muted) and the tests read that list.
// A hidden tab: playwright cannot hide a page, so an init script (emulateHiddenTab) redefines
// document.visibilityState and document.hidden on the page's document and dispatches `visibilitychange`
// when the test says so; attention.js reads document.visibilityState each time, so it sees the emulated one.
// The same script replaces window.Notification with a recorder whose permission starts at 'default' and
// becomes 'granted' when asked (the header's button asks), so notifications are counted, not shown.
import {assert, assertEqual, createRoom, kWait, mySeat, openRoom, readRecord, recordMoves, sitFromLobby, version, waitStatus, waitVersion,} from './harness.mjs';

// Installs the hidden-tab emulation and the Notification recorder in the player's context, and reloads its
// page so that they apply. window.__setVisibility('hidden' | 'visible') switches; window.__notifications
// lists what was shown ({title, body, tag}).
async function emulateHiddenTab(player) {
  await player.context.addInitScript(() => {
    let visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => visibility});
    Object.defineProperty(document, 'hidden', {configurable: true, get: () => visibility === 'hidden'});
    window.__setVisibility = (next) => {
      visibility = next;
      document.dispatchEvent(new Event('visibilitychange'));
    };
    const shown = [];
    window.__notifications = shown;
    class RecordedNotification {
      static permission = 'default';
      static requestPermission() {
        RecordedNotification.permission = 'granted';
        return Promise.resolve('granted');
      }
      constructor(title, options = {}) {
        shown.push({title, body: options.body || '', tag: options.tag || ''});
      }
      close() {}
    }
    window.Notification = RecordedNotification;
  });
  await player.page.reload();
  await player.page.waitForFunction(() => Boolean(window.cinqApp && window.cinqApp.conn.ready));
}

// The two players' pages by seat, once the game is live.
async function bySeat(pages) {
  const seats = [];
  for (const page of pages) {
    await waitStatus(page, 'live');
    seats[await mySeat(page)] = page;
  }
  assert(seats[0] && seats[1], 'the two players hold the two seats');
  return seats;
}

const played = (page) => page.evaluate(() => window.cinqSound.played.join(','));
const clearPlayed = (page) => page.evaluate(() => {
  window.cinqSound.played.length = 0;
});

// Waits until the page played exactly `expected` (a comma-separated list) since it was last cleared.
async function waitPlayed(page, expected, what) {
  try {
    await page.waitForFunction((want) => window.cinqSound.played.join(',') === want, expected, {timeout: kWait});
  } catch {
    throw new Error(`${what}: expected the sounds "${expected}", the page played "${await played(page)}"`);
  }
}

// Plays a one-action turn by clicking (Tablut: the piece, then the square).
async function clickMove(page, move) {
  const before = await version(page);
  await page.locator(`#board [data-piece="${move.from}"]`).first().click();
  await page.locator(`#board [data-square="${move.to}"][data-legal="true"]`).first().click();
  return waitVersion(page, before + 1);
}

// Lets the page run the timers already set (a sound is played from a zero-delay timer after its event).
const settle = (page) => page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));

const chatTexts = (page) => page.locator('#chat-log .chat-message .chat-text').allTextContents();

async function waitChat(page, text, what) {
  try {
    await page.locator('#chat-log .chat-message .chat-text', {hasText: text}).first().waitFor({timeout: kWait});
  } catch {
    throw new Error(`${what}: "${text}" never showed; the chat shows ${JSON.stringify(await chatTexts(page))}`);
  }
}

async function send(page, text) {
  await page.locator('#chat-input').fill(text);
  await page.locator('#chat-send').click();
}

export const tests = {
  'social: the sound switch stays muted across a reload': async (h) => {
    const {page} = await h.newPlayer('Ada');
    const toggle = page.locator('#sound-switch');
    await toggle.waitFor();
    assertEqual(await toggle.getAttribute('data-muted'), 'false', 'sounds are on at first');
    assertEqual((await toggle.textContent()).trim(), 'Sound on', 'the switch says so');
    await toggle.click();
    assertEqual(await toggle.getAttribute('data-muted'), 'true', 'a click mutes');
    assertEqual((await toggle.textContent()).trim(), 'Sound off', 'the switch says so');
    await page.reload();
    await page.locator('#sound-switch[data-muted="true"]').waitFor();
    assertEqual(await page.evaluate(() => localStorage.getItem('cinq.sound.muted')), '1', 'kept in localStorage');
    // On a phone the switch is in the header too, on screen.
    await page.setViewportSize({width: 390, height: 844});
    const box = await page.locator('#sound-switch').boundingBox();
    assert(box && box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, 'the switch is on screen at 390x844');
    await page.locator('#sound-switch').click();
    await page.locator('#sound-switch[data-muted="false"]').waitFor();
    // Turning sounds on plays a sample.
    await waitPlayed(page, 'move', 'unmuting');
  },

  'social: sounds for your turn, a move and a capture, none while muted': async (h) => {
    const alice = await h.newPlayer('Alice');
    const bob = await h.newPlayer('Bob');
    const room = await createRoom(alice.page, {game: 'tablut'});
    await sitFromLobby(bob.page, room);
    const seats = await bySeat([alice.page, bob.page]);
    // The game starts with seat 0 to move: its page chimes.
    await waitPlayed(seats[0], 'turn', 'seat 0 at the start');
    for (const page of seats) await clearPlayed(page);

    // sample-escape.txt: four plain moves, then A (seat 0) takes c5.
    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    for (const [index, move] of moves.slice(0, 5).entries()) {
      const seat = move.side === 'A' ? 0 : 1;
      const capture = index === 4;  // A/d1 d5 x c5/
      const reached = await clickMove(seats[seat], move);
      await waitVersion(seats[1 - seat], reached);
      // The mover hears its move; the opponent, whose turn it now is, the chime alone (after a capture, the
      // capture first).
      await waitPlayed(seats[seat], capture ? 'capture' : 'move', `${move.text}: the mover`);
      await waitPlayed(seats[1 - seat], capture ? 'capture,turn' : 'turn', `${move.text}: the opponent`);
      for (const page of seats) await clearPlayed(page);
    }

    // Muted, a page plays nothing.
    await seats[0].locator('#sound-switch').click();
    await seats[0].locator('#sound-switch[data-muted="true"]').waitFor();
    await clearPlayed(seats[0]);
    const reached = await clickMove(seats[1], moves[5]);
    await waitVersion(seats[0], reached);
    await waitPlayed(seats[1], 'capture', 'the unmuted mover');
    await settle(seats[0]);
    assertEqual(await played(seats[0]), '', 'the muted page played nothing');
  },

  'social: low time ticks once for the side to move (the first-move countdown under 10 s)': async (h) => {
    const alice = await h.newPlayer('Alice');
    const bob = await h.newPlayer('Bob');
    const room = await createRoom(alice.page, {game: 'tablut', clock: '3+2'});
    await sitFromLobby(bob.page, room);
    const seats = await bySeat([alice.page, bob.page]);
    // Seat 0 has 30 s to make its first move (position.clocks.first_move_ms): under 10 s its page ticks.
    await seats[0].waitForFunction(() => window.cinqSound.played.includes('low'), null, {timeout: 30000});
    assertEqual((await played(seats[0])).split(',').filter((s) => s === 'low').length, 1, 'one tick for the turn');
    assert(!(await played(seats[1])).includes('low'), 'the other seat does not tick');
    // Moving in time ends the countdown; the game goes on.
    await clickMove(seats[0], recordMoves(readRecord('tablut/sample-escape.txt'))[0]);
    await waitStatus(seats[0], 'live');
  },

  'social: a hidden tab is told it is your turn (title, notification), in a room and from the lobby': async (h) => {
    const alice = await h.newPlayer('Alice');
    const bob = await h.newPlayer('Bob');
    await emulateHiddenTab(alice);
    await emulateHiddenTab(bob);
    // The header's button asks for permission (never asked on load), then goes.
    for (const {page} of [alice, bob]) {
      const notify = page.locator('#notify-switch');
      await notify.waitFor();
      await notify.click();
      await notify.waitFor({state: 'hidden'});
    }

    // In a room: the waiting seat's tab is hidden when the other seat moves.
    const room = await createRoom(alice.page, {game: 'tablut'});
    await sitFromLobby(bob.page, room);
    const seats = await bySeat([alice.page, bob.page]);
    const moves = recordMoves(readRecord('tablut/sample-escape.txt'));
    const waiting = seats[1];
    await waiting.evaluate(() => window.__setVisibility('hidden'));
    await clickMove(seats[0], moves[0]);
    await waiting.waitForFunction(() => document.title === '(\u2022) Your turn \u2014 Cinq');
    const shown = await waiting.evaluate(() => window.__notifications);
    assertEqual(shown.length, 1, 'one notification');
    assert(/Tablut/.test(shown[0].body), `the notification names the game: ${JSON.stringify(shown[0])}`);
    // The room redraws its title at each event (here a draw offer): the alert's stays while hidden.
    const offered = await version(seats[0]);
    await seats[0].locator('#draw').click();
    await waitVersion(waiting, offered + 1);
    assertEqual(await waiting.title(), '(\u2022) Your turn \u2014 Cinq', 'still hidden, still the alert');
    await waiting.evaluate(() => window.__setVisibility('visible'));
    await waiting.waitForFunction(() => document.title !== '(\u2022) Your turn \u2014 Cinq');
    assert(/Tablut/.test(await waiting.title()), `the room's title is back: ${await waiting.title()}`);
    // A visible tab is not alerted.
    await clickMove(waiting, moves[1]);
    await clickMove(seats[0], moves[2]);
    await waitVersion(waiting, await version(seats[0]));
    assert(!/Your turn/.test(await waiting.title()), 'no alert in a visible tab');

    // From the lobby: a correspondence game that becomes the player's turn (my_games).
    const mail = await createRoom(alice.page, {game: 'tablut', clock: '3d'});
    await sitFromLobby(bob.page, mail);
    const mailSeats = await bySeat([alice.page, bob.page]);
    const watcher = mailSeats[1];
    await watcher.goto(watcher.url().replace(/#.*$/, '') + '#/');
    await watcher.locator(`#my-games [data-room="${mail}"][data-my-turn="false"]`).waitFor();
    const before = (await watcher.evaluate(() => window.__notifications)).length;
    await watcher.evaluate(() => window.__setVisibility('hidden'));
    await clickMove(mailSeats[0], moves[0]);
    await watcher.waitForFunction(() => document.title === '(\u2022) Your turn \u2014 Cinq');
    const after = await watcher.evaluate(() => window.__notifications);
    assertEqual(after.length, before + 1, 'one more notification');
    assertEqual(after[after.length - 1].tag, `cinq-${mail}`, 'about the correspondence game');
    await watcher.evaluate(() => window.__setVisibility('visible'));
    await watcher.waitForFunction(() => !/Your turn/.test(document.title));
  },

  'social: chat between two players and a spectator: channels, limits, mute': async (h) => {
    const alice = await h.newPlayer('Alice');
    const bob = await h.newPlayer('Bob');
    const carol = await h.newPlayer('Carol');
    const room = await createRoom(alice.page, {game: 'tablut'});
    await sitFromLobby(bob.page, room);
    await bySeat([alice.page, bob.page]);
    await openRoom(carol.page, room);

    // A player writes: everyone reads it in the players' chat.
    await send(alice.page, 'Hello Bob, good luck');
    for (const page of [alice.page, bob.page]) await waitChat(page, 'Hello Bob', 'the players read Alice');
    // The spectator sees two tabs, her own (the spectators') first.
    await carol.page.locator('#chat-tab-spectators[aria-selected="true"]').waitFor();
    await carol.page.locator('#chat-tab-players').click();
    await waitChat(carol.page, 'Hello Bob', 'the spectator reads the players');
    // The players' tab is for reading: the spectator writes in hers.
    assert(await carol.page.locator('#chat-form').isHidden(), 'no input on the players\' tab for a spectator');
    await carol.page.locator('#chat-tab-spectators').click();
    await send(carol.page, 'Bob will lose this');
    await waitChat(carol.page, 'Bob will lose this', 'the spectator reads herself');
    // The players see one chat, without the spectators' line, during the game.
    for (const page of [alice.page, bob.page]) {
      assert(await page.locator('.chat-tabs').isHidden(), 'a player has no tabs during the game');
      await send(page, `ping from ${page === alice.page ? 'Alice' : 'Bob'}`);
    }
    for (const page of [alice.page, bob.page]) {
      await waitChat(page, 'ping from Bob', 'the players');
      assert(!(await chatTexts(page)).some((t) => /will lose/.test(t)), 'a player does not read the spectators');
    }

    // Limits: 300 characters in the input; a control or direction character is refused inline (bad_chat)
    // and the text comes back; a sixth line within 10 s is refused inline (chat_limit).
    assertEqual(await bob.page.locator('#chat-input').getAttribute('maxlength'), '300', 'the input holds 300');
    await send(bob.page, 'abc \u202e reversed');
    await bob.page.locator('#chat-error').waitFor();
    assert(/Not sent/.test(await bob.page.locator('#chat-error').textContent()), 'bad_chat said inline');
    assertEqual(await bob.page.locator('#chat-input').inputValue(), 'abc \u202e reversed', 'the refused text is back');
    await bob.page.locator('#chat-input').fill('');
    for (let i = 1; i <= 6; ++i) await send(bob.page, `flood ${i}`);
    await bob.page.locator('#chat-error', {hasText: 'Too many messages'}).waitFor();
    await waitChat(bob.page, 'flood 4', 'Bob\'s lines within the limit');

    // Mute: Alice hides Bob; Carol still reads him; the choice holds across a reload.
    await alice.page.locator('#chat-mute').check();
    assert(!(await chatTexts(alice.page)).some((t) => /ping from Bob/.test(t)), 'muted: Bob\'s lines hidden');
    await alice.page.locator('.chat-muted').waitFor();
    await alice.page.reload();
    await alice.page.locator('#chat-mute:checked').waitFor();
    await waitChat(alice.page, 'Hello Bob', 'Alice\'s own line after a reload');
    assert(!(await chatTexts(alice.page)).some((t) => /ping from Bob|flood/.test(t)), 'still muted after a reload');
    await carol.page.locator('#chat-tab-players').click();
    await waitChat(carol.page, 'ping from Bob', 'the spectator reads Bob');
    await alice.page.locator('#chat-mute').uncheck();
    await waitChat(alice.page, 'ping from Bob', 'unmuted');

    // Once the game is over the players may read the spectators too.
    const before = await version(alice.page);
    await alice.page.locator('#abort').click();
    await waitVersion(alice.page, before + 1);
    await waitStatus(alice.page, 'finished');
    await alice.page.locator('#chat-tab-spectators').click();
    await waitChat(alice.page, 'Bob will lose this', 'the spectators\' line after the game');
  },
};

export const timeouts = {
  'social: low time ticks once for the side to move (the first-move countdown under 10 s)': 90000,
  'social: a hidden tab is told it is your turn (title, notification), in a room and from the lobby': 120000,
  'social: chat between two players and a spectator: channels, limits, mute': 120000,
};
