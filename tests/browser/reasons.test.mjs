// The rules' reasons in the reader's language: a record refused on the import page, and an action refused in
// a room, are said from the catalog's `rules.CODE` texts (web-client/errors.js), not in the server's English.
import {assert, kDesktop, readRecord, twoPlayers} from './harness.mjs';

const kFrench = 'fr-FR';

export const tests = {
  'reasons: the import page says a bad line\'s reason in French': async (h) => {
    const {page} = await h.newPlayer('', {viewport: kDesktop, locale: kFrench});
    await page.goto(`${h.url}/#/import`);
    await page.locator('#import-text').waitFor({state: 'visible'});
    // Line 5 is turn 2; j6 is off the board.
    const good = readRecord('tablut/sample-escape.txt');
    const bad = good.replace('A/i6 g6/', 'A/i6 j6/');
    assert(bad !== good, 'the record was changed');
    await page.locator('#import-text').fill(bad);
    await page.locator('#import-submit').click();
    await page.waitForFunction(() => /ligne \d+/.test(document.querySelector('#import-error')?.innerText || ''));
    const text = (await page.locator('#import-error').innerText()).replace(/\u00a0/g, ' ');
    assert(text === 'ligne 5 : « i6 j6 » : « j6 » n\'est pas une case (de a1 à i9, en minuscules)',
        `the reason in French: ${JSON.stringify(text)}`);
    // A turn by the wrong side: the sides in the game's words.
    await page.locator('#import-text').fill('#! TABLUT\n1 D/e3 c3/\n');
    await page.locator('#import-submit').click();
    await page.waitForFunction(() => /ligne 2/.test(document.querySelector('#import-error')?.innerText || ''));
    const sides = (await page.locator('#import-error').innerText()).replace(/\u00a0/g, ' ');
    assert(sides === 'ligne 2 : c\'est au tour du camp Attaquants, pas du camp Défenseurs',
        `the sides in words: ${JSON.stringify(sides)}`);
  },

  'reasons: a room says an illegal action\'s reason in French': async (h) => {
    const {bySeat} = await twoPlayers(h, 'tablut', {viewport: kDesktop, locale: kFrench});
    // Both send an action off the board: the player to move is told why in French (the other, that it is
    // not their turn).
    for (const page of bySeat) {
      await page.evaluate(() => {
        const room = location.hash.split('/').pop();
        window.cinqApp.conn.send({type: 'act', room, actions: ['z9 a1']});
      });
    }
    const wanted = 'Ce coup n\'est pas permis ici : « z9 a1 » : « z9 » n\'est pas une case (de a1 à i9, en minuscules)';
    const shown = await Promise.any(bySeat.map((page) => page.waitForFunction(
        (text) => [...document.querySelectorAll('#notice .notice-item')]
                      .some((e) => e.innerText.replace(/\u00a0/g, ' ') === text), wanted)));
    assert(shown, 'the notice says the reason in French');
  },
};
