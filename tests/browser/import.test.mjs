// The import page: a record pasted in is checked by the server and replayed step by step.
import path from 'node:path';

import {assert, assertEqual, kDesktop, kPhone, kRepo, kWait, lowContrastText, readRecord, smallTapTargets} from './harness.mjs';

async function openImport(h, viewport = kDesktop) {
  const {page} = await h.newPlayer('', {viewport});
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

  // A file only fills the box; "Show the replay" asks the server once. The board then takes the screen's
  // height as a room's does (not the boards' 240 px floor), and the record shows its lines whole.
  'the import page loads a chosen file into the box, replays it once, on a board as big as a room\'s': async (h) => {
    for (const [viewport, name, least] of [[kDesktop, 'desktop', 600], [kPhone, 'phone', 260]]) {
      const page = await openImport(h, viewport);
      const asked = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/replay')) asked.push(request.url());
      });
      const file = path.join(kRepo, 'tests', 'data', 'records', 'baltek', 'sample-won-2-1.txt');
      await page.locator('#import-file').setInputFiles(file);
      await page.waitForFunction(() => /#! BALTEK/.test(document.querySelector('#import-text')?.value || ''));
      assertEqual(asked.length, 0, `${name}: choosing a file sends nothing`);
      await page.locator('#import-submit').click();
      await page.waitForSelector('#board svg.board.board-baltek', {timeout: kWait});
      await page.waitForFunction(() => document.querySelector('#replay-step'));
      assertEqual(asked.length, 1, `${name}: one request for one click`);
      // As big as the space allows, as in a room: the host's whole width, or the screen's height under the
      // board's top (a phone's tall Baltek pitch).
      const fills = () => page.locator('#board svg.board').evaluate((svg) => {
        const box = svg.getBoundingClientRect();
        const host = svg.parentElement.getBoundingClientRect();
        const top = box.top + scrollY;
        return {ok: box.width >= host.width * 0.95 || box.height >= innerHeight - top - 24,
                width: Math.round(box.width), host: Math.round(host.width), height: Math.round(box.height),
                top: Math.round(top)};
      });
      await page.waitForFunction(() => {
        const svg = document.querySelector('#board svg.board');
        const box = svg.getBoundingClientRect();
        return box.width >= svg.parentElement.getBoundingClientRect().width * 0.95 ||
            box.height >= innerHeight - box.top - scrollY - 24;
      }, null, {timeout: 5000}).catch(() => {});
      const fit = await fills();
      assert(fit.ok && fit.width >= least, `${name}: the board uses the space: ${JSON.stringify(fit)}`);
      const cut = await page.locator('#moves').evaluate((pre) => {
        const wide = [...pre.querySelectorAll('.moves-line')].filter((line) => line.scrollWidth > line.clientWidth + 1);
        return {box: pre.scrollWidth > pre.clientWidth + 1, lines: wide.map((line) => line.textContent)};
      });
      assert(!cut.box && cut.lines.length === 0, `${name}: the record's lines are whole: ${JSON.stringify(cut)}`);
      assertEqual(await page.locator('#moves .moves-line').first().innerText(), '#! BALTEK goals=2', `${name}: the record`);
      const low = await lowContrastText(page);
      assert(low.length === 0, `${name}: low contrast: ${low.join(', ')}`);
      if (viewport === kPhone) {
        const small = await smallTapTargets(page, {scope: '#app', except: '#board svg [data-square], #board svg [data-square] *'});
        assert(small.length === 0, `phone: tap targets under 44 px: ${small.join(', ')}`);
      }
      await h.screenshot(page, `import-baltek-${name}`);
      assertEqual(asked.length, 1, `${name}: still one request`);
    }
  },
};
