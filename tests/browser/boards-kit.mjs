// What the boards' tests share (boards.test.mjs, and each game's board tests in tests/browser/games/NAME.mjs):
// rooms made from records, the plays a page has heard, the turn bar and its buttons.
import {assertEqual, kWait, readRecord, waitSeated, waitStatus} from './harness.mjs';

// The `play` events a page has applied since it loaded (room.js counts them in #room[data-plays]): unlike the
// room's version, presence and spectator events do not move it, so "heard nothing" is exact.
export async function plays(page) { return Number((await page.locator('#room').getAttribute('data-plays')) ?? 0); }
export async function waitPlays(page, wanted) {
  await page.waitForFunction((n) => Number(document.querySelector('#room')?.dataset.plays || 0) >= n, wanted,
                             {timeout: kWait});
}

// POST /api/games/import of `record`: the answer's body (its room, and the free seats' links).
export async function importRecord(h, record) {
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
export async function importAndSit(h, record) {
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
export async function importAndWatch(h, record) {
  const body = await importRecord(h, record);
  const {page} = await h.newPlayer('');
  await page.goto(`${h.url}/#/room/${body.room}`);
  await page.waitForSelector(`#room[data-room="${body.room}"][data-version]`);
  return page;
}

// The record's lines up to and including the first that starts with `prefix`, and the #! and players lines.
export function upTo(relative, prefix) {
  const lines = readRecord(relative).split('\n');
  return lines.slice(0, lines.findIndex((line) => line.startsWith(prefix)) + 1).join('\n') + '\n';
}

export const bar = (page) => page.locator('#board .turn-bar');
export const confirmButton = (page) => page.locator('#board .turn-bar [data-control="confirm"]');

// The buttons on screen that end or send a turn: the room's End turn, the board's own.
export async function endButtons(page) {
  return page
      .locator('#end-turn:visible, #board [data-control="confirm"]:visible, #board [data-action="end"]')
      .count();
}

// The texts a page shows (the board's bar and the room's turn line), for the words a player reads.
export async function shownText(page) {
  return page.evaluate(
      () => [document.querySelector('#board .turn-bar')?.innerText || '',
             document.querySelector('#turn-info')?.innerText || '',
             document.querySelector('#board svg')?.textContent || '',
  ].join('\n'));
}

// Waits until a composed step is in (the bar lists `count` steps and is not waiting for the server).
export async function waitComposed(page, count) {
  await page.waitForFunction((n) => {
    const b = document.querySelector('#board .turn-bar');
    const steps = (b?.querySelector('.turn-bar-steps')?.textContent || '').split(' · ').filter(Boolean);
    return b && steps.length >= n && !/Trying/.test(b.innerText);
  }, count, {timeout: kWait});
}
