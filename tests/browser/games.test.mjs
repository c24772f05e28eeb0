// Every game's board through the whole stack: a room is created, a second player sits, the player to move
// plays a first turn with the board's own clicks (tests/browser/games/G.mjs, written with each board), the
// opponent sees it. Screenshots of each board at a desktop and a phone width are left as artifacts.
import {
  assert, createRoom, gameModule, gameTable, kDesktop, kPhone, kWait, mySeat, sitFromLobby, version, waitStatus,
  waitVersion,
} from './harness.mjs';

async function loadGame(name) {
  const module = await gameModule(name);
  assert(typeof module.playFirstTurn === 'function', `games/${name}.mjs exports no playFirstTurn(page)`);
  return module;
}

async function firstTurn(h, name) {
  const game = await loadGame(name);
  const first = await h.newPlayer('Ada');
  const second = await h.newPlayer('Ben');
  const room = await createRoom(first.page, {game: game.game || name, options: game.options || ''});
  await sitFromLobby(second.page, room);
  for (const player of [first, second]) await waitStatus(player.page, 'live');
  const bySeat = [];
  bySeat[await mySeat(first.page)] = first.page;
  bySeat[await mySeat(second.page)] = second.page;
  const toMove = Number(await first.page.locator('#room').getAttribute('data-to-move'));
  const mover = bySeat[toMove];
  const watcher = bySeat[1 - toMove];
  await mover.waitForSelector(`#board svg.board.board-${name}`);
  await h.screenshot(mover, `${name}-start-desktop`);

  const before = await version(watcher);
  await game.playFirstTurn(mover);
  await waitVersion(watcher, before + 1);
  // The turn is over once the other seat is to move (a Baltek turn is several events).
  await watcher.waitForSelector(`#room[data-to-move="${1 - toMove}"]`, {timeout: kWait});
  await watcher.waitForFunction(
      () => /^\s*1\s+\S+\/\S/m.test(document.querySelector('#moves')?.innerText || ''),
      null,
      {timeout: kWait},
  );

  await h.screenshot(mover, `${name}-desktop`);
  await watcher.waitForSelector(`#board svg.board.board-${name}`);
  await h.screenshot(watcher, `${name}-opponent-desktop`);
  await mover.setViewportSize(kPhone);
  // A board may redraw itself for a narrow screen (Baltek turns its field upright): wait for the new layout.
  const fits = await mover
                   .waitForFunction(
                       (limit) => {
                         const svg = document.querySelector('#board svg.board');
                         const width = svg ? svg.getBoundingClientRect().width : 0;
                         return width > 0 && width <= limit;
                       },
                       kPhone.width,
                       {timeout: kWait},
                       )
                   .then(() => true)
                   .catch(() => false);
  await h.screenshot(mover, `${name}-phone`);
  const width = await mover.locator('#board svg.board').evaluate((svg) => svg.getBoundingClientRect().width);
  assert(fits, `the ${name} board fits a phone's width (${width}px for ${kPhone.width}px)`);
  await mover.setViewportSize(kDesktop);
}

// A test for every game of the server's table.
export const tests = Object.fromEntries(gameTable().map(({name, title}) => [
  `a ${title} room fills, the player to move plays a first turn through the board, and the opponent sees it`,
  (h) => firstTurn(h, name),
]));
