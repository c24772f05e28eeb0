// The boards' turn handling: a turn composed with `try` and sent whole on confirmation (Baltek,
// Bi-litaire, a Kopf oder Knopf penalty), premoves (Tablut), the last turn marked, and the two board bugs a
// new player hit: an "end your turn" offered after a Kopf oder Knopf penalty, where none exists, and
// Bi-litaire's two end buttons and its call for an announcement when none is possible.
import {assert, assertEqual, createRoom, kWait, lowContrastText, mySeat, readRecord, sitFromLobby, turnMark, twoPlayers, version, waitSeated, waitStatus, waitTurnPast, waitVersion,} from './harness.mjs';

// The `play` events a page has applied since it loaded (room.js counts them in #room[data-plays]): unlike the
// room's version, presence and spectator events do not move it, so "heard nothing" is exact.
async function plays(page) { return Number((await page.locator('#room').getAttribute('data-plays')) ?? 0); }
async function waitPlays(page, wanted) {
  await page.waitForFunction((n) => Number(document.querySelector('#room')?.dataset.plays || 0) >= n, wanted,
                             {timeout: kWait});
}


// POST /api/games/import of `record`: the answer's body (its room, and the free seats' links).
async function importRecord(h, record) {
  const response = await fetch(`${h.url}/api/games/import`, {
    method: 'POST',
    headers: {'Content-Type': 'text/plain; charset=utf-8'},
    body: record,
  });
  const body = await response.json();
  assertEqual(response.status, 201, `import: ${JSON.stringify(body)}`);
  return body;
}

// Imports an unfinished record (a correspondence room with two seat links) and seats a player on each link.
async function importAndSit(h, record) {
  const body = await importRecord(h, record);
  const bySeat = [];
  for (const [seat, name] of [[0, 'Ada'], [1, 'Ben']]) {
    const {page} = await h.newPlayer(name);
    await page.goto(`${h.url}${body.links[seat]}`);
    await waitSeated(page, body.room);
    bySeat[seat] = page;
  }
  // A page that took its seat by link after joining holds no legal actions until the next event (the
  // `seated` event carries none): a reload joins again as the seated player.
  for (const p of bySeat) {
    await p.reload();
    await waitSeated(p, body.room);
    await waitStatus(p, 'live');
  }
  return {room: body.room, bySeat};
}

// Imports a record as a finished-or-not room nobody sits in and opens it as a spectator would: the page
// knows of the last turn only what the record says (as after a reload).
async function importAndWatch(h, record) {
  const body = await importRecord(h, record);
  const {page} = await h.newPlayer('');
  await page.goto(`${h.url}/#/room/${body.room}`);
  await page.waitForSelector(`#room[data-room="${body.room}"][data-version]`);
  return page;
}

// The record's lines up to and including the first that starts with `prefix`, and the #! and players lines.
function upTo(relative, prefix) {
  const lines = readRecord(relative).split('\n');
  return lines.slice(0, lines.findIndex((line) => line.startsWith(prefix)) + 1).join('\n') + '\n';
}

const bar = (page) => page.locator('#board .turn-bar');
const confirmButton = (page) => page.locator('#board .turn-bar [data-control="confirm"]');

// The buttons on screen that end or send a turn: the room's End turn, the board's own.
async function endButtons(page) {
  return page
      .locator('#end-turn:visible, #board [data-control="confirm"]:visible, #board [data-action="end"]')
      .count();
}

// The texts a page shows (the board's bar and the room's turn line), for the words a player reads.
async function shownText(page) {
  return page.evaluate(
      () => [document.querySelector('#board .turn-bar')?.innerText || '',
             document.querySelector('#turn-info')?.innerText || '',
             document.querySelector('#board svg')?.textContent || '',
  ].join('\n'));
}

// Waits until a composed step is in (the bar lists `count` steps and is not waiting for the server).
async function waitComposed(page, count) {
  await page.waitForFunction((n) => {
    const b = document.querySelector('#board .turn-bar');
    const steps = (b?.querySelector('.turn-bar-steps')?.textContent || '').split(' · ').filter(Boolean);
    return b && steps.length >= n && !/Trying/.test(b.innerText);
  }, count, {timeout: kWait});
}

export const tests = {
  'kopf-oder-knopf: after a penalty the page offers no end of turn (none exists), and the turn goes whole':
      async (h) => {
        // Turn 4: Red may take Blue's g9 as a penalty (the sample game does).
        const record = readRecord('kopf-oder-knopf/sample-finished.txt');
        const lines = record.split('\n');
        const upTo = lines.findIndex((line) => /^4\s/.test(line));
        const {bySeat} = await importAndSit(h, lines.slice(0, upTo).join('\n') + '\n');
        const [red, blue] = bySeat;
        await red.waitForSelector('#room[data-to-move="0"]');
        const bluePlays = await plays(blue);

        const penalty = red.locator('#board [data-square="g9"][data-penalty="true"]');
        await penalty.waitFor();
        await penalty.click();
        await bar(red).filter({hasText: 'Now move a button'}).waitFor();
        const text = await shownText(red);
        assert(
            !/end (your|the) turn/i.test(text),
            `no "end your turn" after a penalty: ${JSON.stringify(text)}`);
        assertEqual(await red.locator('#end-turn').isVisible(), false, 'the room shows no End turn button');
        assertEqual(await confirmButton(red).count(), 0, 'nothing to confirm before the move');
        await red.locator('#board [data-control="undo"]').waitFor();
        await h.screenshot(red, 'boards-kok-penalty-tried');
        // Nothing has reached Blue: the penalty is only tried.
        assertEqual(await plays(blue), bluePlays, 'Blue has heard nothing of the penalty yet');

        // The move completes the turn; Play sends the penalty and the move in one turn.
        await red.locator('#board [data-movable="true"]').first().click();
        await red.locator('#board [data-legal="true"]:not([data-penalty])').first().click();
        await confirmButton(red).filter({hasText: 'Play turn'}).waitFor();
        assertEqual(await plays(blue), bluePlays, 'Blue has heard nothing before the confirmation');
        const mark = await turnMark(red);
        await confirmButton(red).click();
        await waitTurnPast(red, mark);
        await waitPlays(blue, bluePlays + 1);
        await blue.waitForFunction(
            () => /^4\s+R\/- g9\//m.test(document.querySelector('#moves')?.innerText || ''), null,
            {timeout: kWait});
        assertEqual(await plays(blue), bluePlays + 1, 'the whole turn came to Blue as one event');
        // The penalty's button stays marked where it was, for both players, also after a reload.
        for (const page of [red, blue]) await page.locator('#board [data-removed="g9"]').waitFor();
        await blue.reload();
        await blue.locator('#board [data-removed="g9"]').waitFor();
        await h.screenshot(blue, 'boards-kok-last-turn-reloaded');
      },

  'bi-litaire: with no chain of two possible, one end button and no call for an announcement': async (h) => {
    const {bySeat} = await twoPlayers(h, 'bi-litaire');
    const [marbles, trays] = bySeat;
    // Round 1 opens with the marble player's removal: composed, then confirmed.
    await marbles.locator('#board [data-square="d4"][data-legal="true"]').click();
    await confirmButton(marbles).waitFor();
    assertEqual(await endButtons(marbles), 1, 'one button sends the removal');
    const mark = await turnMark(marbles);
    const before = await plays(trays);
    const beforeMarbles = await plays(marbles);
    await confirmButton(marbles).click();
    await waitTurnPast(marbles, mark);
    await waitPlays(trays, before + 1);
    await marbles.locator('#board [data-removed="d4"]').waitFor();

    // The tray player pushes a tray: after the first removal no chain of two jumps exists.
    const board = '#board svg.board-bi-litaire';
    await trays.click(`${board} .bl-tray[data-legal="true"]`);
    await trays.locator(`${board} .bl-slot[data-legal="true"]`).first().click();
    await trays.waitForSelector(`${board}[data-phase="tray_done"]`);
    await trays.waitForFunction(
        () => !/Trying/.test(document.querySelector('#board .turn-bar')?.innerText || ''));
    await h.screenshot(trays, 'boards-bi-litaire-tray-done');
    assertEqual(await endButtons(trays), 1, 'exactly one button ends the turn');
    assertEqual(await trays.locator('#board [data-action^="!"]').count(), 0, 'no announcement is offered');
    const text = await shownText(trays);
    assert(!/announce/i.test(text.replace(/no announcement/i, '')), `no call for an announcement: ${text}`);
    assertEqual(await plays(marbles), beforeMarbles + 1, 'the marble player has heard nothing of the push yet');
    const trayMark = await turnMark(trays);
    await confirmButton(trays).click();
    await waitTurnPast(trays, trayMark);
    await waitPlays(marbles, beforeMarbles + 2);
  },

  'baltek: a turn is composed with undo and reaches the opponent whole on confirmation': async (h) => {
    const {bySeat} = await twoPlayers(h, 'baltek');
    const [blue, red] = bySeat;
    const board = blue.locator('#board svg.board-baltek');
    const redPlays = await plays(red);
    assertEqual(
        await blue.locator('#end-turn').isVisible(), false, 'the room\'s End turn gives way to the bar');

    await board.locator('[data-piece="ball"].selectable').waitFor();
    await board.locator('[data-piece="ball"]').click();
    await board.locator('[data-square][data-legal="true"][data-action^="@"]').first().click();
    await waitComposed(blue, 1);
    await board.locator('[data-square][data-selectable="true"]').first().click();
    await board.locator('[data-square][data-legal="true"]:not([data-action*="*"])').first().click();
    await waitComposed(blue, 2);
    assert(await board.locator('[data-arrow]').count() >= 2, 'the composed steps are drawn as arrows');

    // Undo takes the run back: one step is left, and the points come back.
    await blue.locator('#board [data-control="undo"]').click();
    await blue.waitForFunction(
        () =>
            (document.querySelector('#board .turn-bar-steps')?.textContent || '').split(' · ').length === 1 &&
            !/Trying/.test(document.querySelector('#board .turn-bar')?.innerText || ''));
    assertEqual(await plays(red), redPlays, 'Red has heard nothing while Blue composes');

    const played = (await blue.locator('#board .turn-bar-steps').innerText()).trim();
    const mark = await turnMark(blue);
    await confirmButton(blue).click();
    await waitTurnPast(blue, mark);
    await waitPlays(red, redPlays + 1);
    assertEqual(await plays(red), redPlays + 1, 'the turn came to Red as one event');
    await red.waitForFunction(
        (kick) => (document.querySelector('#moves')?.innerText || '').includes(`B/${kick}/`), played,
        {timeout: kWait});
    // Red sees Blue's last turn marked: the kick's arrow.
    await red.locator('#board svg.board-baltek [data-arrow]').first().waitFor();
    await h.screenshot(red, 'boards-baltek-last-turn');
  },

  'baltek: ending a turn without playing takes a second click': async (h) => {
    const {bySeat} = await twoPlayers(h, 'baltek');
    const [blue, red] = bySeat;
    const redPlays = await plays(red);
    const end = confirmButton(blue);
    await end.filter({hasText: /^End turn$/}).waitFor();
    await end.click();
    // One click gave nothing away: the button asks, and Red has heard nothing.
    await end.filter({hasText: 'Confirm: end without playing'}).waitFor();
    assertEqual(await plays(red), redPlays, 'one click sent nothing');
    assertEqual(await blue.locator('#room').getAttribute('data-to-move'), '0', 'Blue is still to move');
    for (const scheme of ['light', 'dark']) {
      await blue.emulateMedia({colorScheme: scheme});
      const low = (await lowContrastText(blue)).filter((t) => /Confirm: end/.test(t));
      assertEqual(low.length, 0, `the armed button's contrast, ${scheme}: ${low.join('; ')}`);
    }
    // Left alone, it stands down.
    await end.filter({hasText: /^End turn$/}).waitFor({timeout: kWait});
    const mark = await turnMark(blue);
    await end.click();
    await end.click();
    await waitTurnPast(blue, mark);
    await waitPlays(red, redPlays + 1);
    await red.waitForSelector('#room[data-to-move="1"]');
  },

  'tablut: a premove picked during the opponent\'s turn is played when the turn comes; Escape cancels one':
      async (h) => {
        const {bySeat} = await twoPlayers(h, 'tablut');
        const [attackers, defenders] = bySeat;
        const board = (page) => page.locator('#board svg.board-tablut');
        await board(defenders).locator('[data-piece="e3"][data-premovable="true"]').waitFor();

        // A premove cancelled with Escape.
        await board(defenders).locator('[data-piece="e3"]').click();
        await board(defenders).locator('[data-square="a3"][data-premove-target="true"]').click();
        await bar(defenders).filter({hasText: 'Premove'}).waitFor();
        await defenders.keyboard.press('Escape');
        await bar(defenders).filter({hasText: 'Premove: e3'}).waitFor({state: 'detached'});

        // The sample game's first two moves: e8 i8, then the defenders' premove e3 a3.
        await board(defenders).locator('[data-piece="e3"]').click();
        await board(defenders).locator('[data-square="a3"][data-premove-target="true"]').click();
        await bar(defenders).filter({hasText: 'Premove: e3 a3'}).waitFor();
        const before = await version(attackers);
        await board(attackers).locator('[data-piece="e8"]').click();
        await board(attackers).locator('[data-square="i8"][data-legal="true"]').click();
        // The premove goes as soon as the defenders' turn comes: two turns, no click in between.
        await waitVersion(attackers, before + 2);
        await attackers.waitForFunction(
            () => /^1\s+A\/e8 i8\/\s+D\/e3 a3\//m.test(document.querySelector('#moves')?.innerText || ''),
            null, {timeout: kWait});
        // The attackers see the defenders' move marked, also after a reload.
        await board(attackers).locator('[data-square="a3"].last').waitFor();
        await attackers.reload();
        await board(attackers).locator('[data-square="a3"].last').waitFor();
        await board(attackers).locator('[data-square="e3"].last').waitFor();
        await h.screenshot(attackers, 'boards-tablut-last-move-reloaded');
      },

  'batik: a drop composed during the opponent\'s turn is dropped when the turn comes': async (h) => {
    const {bySeat} = await twoPlayers(h, 'batik');
    const [light, dark] = bySeat;
    // Dark picks a square piece while Light is to drop: the controls work, the drop waits.
    await dark.locator('#board [data-piece="SQ"][data-premove="true"]').click();
    const premove = dark.locator('#board .batik-controls [data-control="drop"]');
    await premove.filter({hasText: 'Premove'}).waitFor();
    const text = await premove.getAttribute('data-drop');
    await premove.click();
    await bar(dark).filter({hasText: `Premove: ${text}`}).waitFor();
    const game = await import('./games/batik.mjs');
    await game.playFirstTurn(light);
    // Dark's drop follows Light's without a click: two pieces in the well, Dark's the last one.
    await light.locator('#board svg.board-batik[data-pieces="2"]').waitFor();
    await light.locator('#board svg.board-batik [data-last="true"][data-well-piece="F/SQ"]').waitFor();
    await light.waitForFunction(
        (drop) => (document.querySelector('#moves')?.innerText || '').includes(`F/${drop}/`), text,
        {timeout: kWait});
  },

  'kopf-oder-knopf: a premove is played when the turn comes, or dropped with a word': async (h) => {
    const {bySeat} = await twoPlayers(h, 'kopf-oder-knopf');
    const [red, blue] = bySeat;
    await blue.locator('#board [data-premovable="true"]').first().click();
    const target = blue.locator('#board [data-premove-target="true"]').first();
    await target.waitFor();
    await target.click();
    await bar(blue).filter({hasText: 'Premove:'}).waitFor();
    const planned = /Premove: (\S+ \S+),/.exec(await bar(blue).innerText())[1];
    const before = await version(blue);
    const game = await import('./games/kopf-oder-knopf.mjs');
    await game.playFirstTurn(red);
    await waitVersion(blue, before + 1);
    // Legal then: Blue's move follows at once; else the page says it was dropped and Blue is to move.
    await blue.waitForFunction((move) => {
      const record = document.querySelector('#moves')?.innerText || '';
      const notice = document.querySelector('#notice')?.innerText || '';
      return record.includes(`B/${move}/`) || notice.includes('dropped');
    }, planned, {timeout: kWait});
    await bar(blue).filter({hasText: 'Premove:'}).waitFor({state: 'detached'});
  },

  'the last turn and what it took are marked from the record alone, in every game (as after a reload)':
      async (h) => {
        // Tablut: the Defenders' e7 i7 took i8: the move marked, the captured piece crossed out where it stood.
        const tablut = await importAndWatch(h, upTo('tablut/sample-escape.txt', '3 '));
        await tablut.locator('#board [data-captured="i8"]').waitFor();
        for (const sq of ['e7', 'i7']) await tablut.locator(`#board [data-square="${sq}"].last`).waitFor();
        await h.screenshot(tablut, 'marks-tablut');
        // Baltek: Red's last turn of line 1 drawn as arrows (a sprint, a kick, a run).
        const baltek = await importAndWatch(h, upTo('baltek/sample-won-2-1.txt', '1 '));
        // (an arrow straight up or across is a line of no width or height: attached, not "visible")
        await baltek.locator('#board svg.board-baltek [data-arrow="g1 f3"]').waitFor({state: 'attached'});
        await baltek.locator('#board svg.board-baltek [data-arrow="i3 i4"]').waitFor({state: 'attached'});
        await baltek.locator('#board svg.board-baltek [data-mark="last"]').first().waitFor();
        // Kopf oder Knopf: Blue's strike removed h8 (line 2), and the move that followed.
        const kok = await importAndWatch(h, upTo('kopf-oder-knopf/sample-finished.txt', '2 '));
        await kok.locator('#board [data-removed="h8"]').waitFor();
        // Bi-litaire: the round's first removal, then a jump: the jumped marble is crossed out.
        const bilitaire = await importAndWatch(h, '#! BI-LITAIRE\n1   M/x d4/   T/B4 <1/\n2   M/d2 d4/\n');
        await bilitaire.locator('#board [data-removed="d3"]').waitFor();
        // Batik: the last drop.
        const batik = await importAndWatch(h, '#! BATIK\n1   C/TL 0 0/   F/SQ 0 5/\n');
        await batik.locator('#board svg.board-batik [data-last="true"][data-well-piece^="F/SQ"]').waitFor();
      },

  'batik: the last drop stays marked in the well, also after a reload': async (h) => {
    const {bySeat} = await twoPlayers(h, 'batik');
    const [light, dark] = bySeat;
    const game = await import('./games/batik.mjs');
    await game.playFirstTurn(light);
    for (const page of [light, dark]) {
      await page.locator('#board svg.board-batik [data-last="true"][data-well-piece^="C/TL"]').waitFor();
    }
    await dark.reload();
    await dark.locator('#board svg.board-batik [data-last="true"][data-well-piece^="C/TL"]').waitFor();
  },
};
