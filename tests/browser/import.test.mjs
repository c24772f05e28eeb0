// The import page: a record pasted in is checked by the server and replayed step by step.
import {assert, kWait, readRecord} from './harness.mjs';

async function openImport(h) {
  const {page} = await h.newPlayer('');
  await page.goto(`${h.url}/#/import`);
  await page.locator('#import-text').waitFor({state: 'visible'});
  return page;
}

export const tests = {
  'the import page names the line of a bad record': async (h) => {
    const page = await openImport(h);
    const good = readRecord('tablut/sample-escape.txt');
    // Line 5 is turn 2; i6 j6 is off the board.
    const bad = good.replace('A/i6 g6/', 'A/i6 j6/');
    assert(bad !== good, 'the record was changed');
    await page.locator('#import-text').fill(bad);
    await page.locator('#import-submit').click();
    const error = page.locator('#import-error');
    await error.waitFor({state: 'visible'});
    await page.waitForFunction(
        () => /line \d+: \S/.test(document.querySelector('#import-error')?.innerText || ''));
    const text = await error.innerText();
    assert(/line 5: /.test(text), `#import-error names line 5: ${JSON.stringify(text)}`);
  },

  'the import page replays a good record and stepping forward changes the board': async (h) => {
    const page = await openImport(h);
    await page.locator('#import-text').fill(readRecord('tablut/sample-escape.txt'));
    await page.locator('#import-submit').click();
    await page.waitForSelector('#board svg.board.board-tablut', {timeout: kWait});
    assert(
        await page.locator('#import-error')
            .evaluate((e) => !e.innerText.trim() || e.hidden || !e.offsetParent),
        'no import error for a good record');
    // The summary names the sides in words beside their letters, and writes the result out.
    const summary = await page.locator('.import-summary').innerText();
    assert(
        summary.includes('Attackers (A): alice@example.org vs Defenders (D): bob@example.org'),
        `the players with their sides: ${JSON.stringify(summary)}`);
    assert(
        summary.includes('bob@example.org (Defenders) wins — the king escaped to a corner'),
        `the result in words: ${JSON.stringify(summary)}`);
    // The viewer may open on the start (its Start button then disabled) or on the end.
    if (await page.locator('#replay-start').isEnabled()) await page.locator('#replay-start').click();
    await page.waitForFunction(
        () => /^\s*0\s*\/\s*42\s*$/.test(document.querySelector('#replay-step')?.innerText || ''));
    const board = () => page.locator('#board svg').evaluate((svg) => svg.outerHTML);
    const start = await board();
    await page.locator('#replay-next').click();
    await page.waitForFunction(
        () => /^\s*1\s*\/\s*42\s*$/.test(document.querySelector('#replay-step')?.innerText || ''));
    await page.waitForFunction((before) => document.querySelector('#board svg')?.outerHTML !== before, start);
    await page.locator('#replay-end').click();
    await page.waitForFunction(
        () => /^\s*42\s*\/\s*42\s*$/.test(document.querySelector('#replay-step')?.innerText || ''));
    await h.screenshot(page, 'import-replay-end');
  },
};
