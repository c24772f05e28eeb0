// A finished game's analysis and hints against the computer, in the browser. The server analyses at depth 1
// (`--analysis-depth 1`: the machine is shared) and the hints come from a level-1 search.
import {assert, kWait, playComputer, readRecord, startServer, twoPlayers, waitStatus} from './harness.mjs';

async function serveShallow(h) {
  await h.server.stop();
  h.server = await startServer({args: ['--analysis-depth', '1', '--bot-answer-ms', '0']});
}

async function analyseFromImport(h) {
  await serveShallow(h);
  const {page} = await h.newPlayer('Ada');
  await page.goto(`${h.url}/#/import`);
  await page.locator('#import-text').fill(readRecord('tablut/sample-escape.txt'));
  await page.locator('#import-submit').click();
  await page.locator('#import-analyse').click();
  await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+/, {timeout: kWait});
  await waitStatus(page, 'finished');
  // Asked at once; the graph comes when the server has evaluated the 42 turns.
  await page.waitForSelector('#analysis[data-analysed="true"]', {timeout: 60000});
  const dots = await page.locator('#analysis-graph circle').count();
  assert(dots === 42, `a point per turn (${dots})`);
  assert(await page.locator('#analysis-graph svg').isVisible(), 'the graph is drawn');
  assert((await page.locator('#analysis-graph .analysis-blunder').count()) >= 1, 'the blunder is marked on the graph');
  const marked = page.locator('#movelist .ml-turn.ml-blunder');
  assert((await marked.count()) >= 1, 'the blunder is marked in the move list');
  assert((await page.locator('#analysis-status').innerText()).includes('blunders:'), 'the summary counts them');

  // The Attackers' 21st turn let the king out: selected, it says so and offers the best turn.
  await page.locator('#movelist .ml-turn[data-index="41"]').click();
  await page.waitForFunction(() => document.querySelector('#room')?.dataset.viewing === '41');
  const said = await page.locator('#analysis-turn').innerText();
  assert(said.includes('21. A/a4 a2/') && said.includes('A blunder.') && said.includes('Best: A/'),
         `the turn's analysis: ${JSON.stringify(said)}`);
  const before = await page.locator('#board svg').evaluate((svg) => svg.outerHTML);
  await page.locator('#analysis-show-best').click();
  await page.waitForFunction(
      () => /The best turn found: A\//.test(document.querySelector('#history-banner')?.innerText || ''));
  await page.waitForFunction((b) => document.querySelector('#board svg')?.outerHTML !== b, before);
  await h.screenshot(page, 'analysis-best-turn');

  // Kept with the game: a reload shows it without asking again.
  await page.reload();
  await page.waitForSelector('#analysis[data-analysed="true"]', {timeout: kWait});
  assert(await page.locator('#analyze').isHidden(), 'no button for an analysed game');
}

async function hintAgainstTheComputer(h) {
  await serveShallow(h);
  const page = await playComputer(h, 'tablut');
  const hint = page.locator('#hint');
  await hint.waitFor({state: 'visible'});
  await hint.click();
  const line = page.locator('#hint-line');
  await line.waitFor({state: 'visible', timeout: kWait});
  const text = await line.innerText();
  assert(/^Hint: the computer would play A\/\S+ \S+\/$/.test(text), `the hint: ${JSON.stringify(text)}`);
  await page.waitForFunction(() => /# hint 1 A\//.test(document.querySelector('#moves')?.innerText || ''));
  // Resign (two clicks): the result counts the hint.
  await page.locator('#resign').click();
  await page.locator('#resign').click();
  await waitStatus(page, 'finished');
  const result = await page.locator('#result').innerText();
  assert(result.includes('Ada: 1 hint'), `the result counts the hint: ${JSON.stringify(result)}`);
  await h.screenshot(page, 'hint-result');
}

async function noHintAgainstAPerson(h) {
  const {bySeat} = await twoPlayers(h, 'tablut');
  await bySeat[0].waitForSelector('#room[data-to-move="0"]');
  assert(await bySeat[0].locator('#hint').isHidden(), 'no Hint button against a person');
  // Asked anyway (as a modified page would): refused in words.
  const room = await bySeat[0].locator('#room').getAttribute('data-room');
  await bySeat[0].evaluate((id) => window.cinqApp.conn.send({type: 'hint', room: id}), room);
  await bySeat[0].waitForFunction(
      () => /only given against the computer/.test(document.body.innerText), null, {timeout: kWait});
}

export const timeouts = {'a finished game is analysed from the import page: graph, marks, best turn on the board': 120000};

export const tests = {
  'a finished game is analysed from the import page: graph, marks, best turn on the board': analyseFromImport,
  'the Hint button shows the computer\'s turn and the result counts it': hintAgainstTheComputer,
  'no hints against a person: no button, and a refusal in words': noHintAgainstAPerson,
};
