// Playing as a person meets it: after a game, the way to the next one (Rematch, New opponent, Play the
// computer again); the move list in words with a legend of the notation's symbols; and on a phone the
// header's menu with every link, and every tap target of the lobby, a room of each game and the import page
// at least 44 x 44 CSS px.
import {assert, assertEqual, gameNames, kPhone, kWait, playComputer, readRecord, smallTapTargets, waitStatus} from './harness.mjs';

// A board's grid squares share its width (nine of them in 366 px cannot be 44 px each), and so do the
// pieces standing on them (a piece named by its square) and Baltek's ball, whose equivalent is the bar's
// "Ball" button: they are left out of the 44 px rule.
const kGridTargets = '#board svg [data-square], #board svg [data-square] *, #board svg [data-piece]:not([data-state]), #board svg [data-piece="ball"]';

async function resign(page) {
  await page.locator('#resign').click();
  await page.locator('#resign', {hasText: 'Confirm resign'}).click();
  await waitStatus(page, 'finished');
}

export const tests = {
  'after a game against the computer: Play the computer again and New opponent': async (h) => {
    const game = gameNames()[0];
    const page = await playComputer(h, game);
    const first = page.url();
    await resign(page);
    for (const id of ['#rematch', '#new-opponent', '#play-computer-again']) {
      await page.locator(id).waitFor({state: 'visible'});
    }
    const level = await page.evaluate(() => window.cinqApp.room.state.seats.map((s) => s && s.id).find((id) => /^bot:/.test(id || '')));
    await page.locator('#play-computer-again').click();
    await page.waitForFunction((url) => location.href !== url && /#\/room\//.test(location.hash), first, {timeout: kWait});
    await waitStatus(page, 'live');
    const again = await page.evaluate(() => ({
      game: window.cinqApp.room.state.game,
      bot: window.cinqApp.room.state.seats.map((s) => s && s.id).find((id) => /^bot:/.test(id || '')),
    }));
    assertEqual(again.game, game, 'the same game');
    assertEqual(again.bot, level, 'the same level');
    // New opponent: a seek for the same game, shown waiting in the lobby.
    await resign(page);
    await page.locator('#new-opponent').click();
    await page.waitForFunction(() => location.hash === '#/' || location.hash === '');
    await page.locator('#quick-seek-status').filter({hasText: 'Looking for an opponent'}).waitFor();
    assertEqual(await page.evaluate(() => window.cinqApp.seek && window.cinqApp.seek.game), game, 'the seek\'s game');
  },

  'the move list shows the turns in words, with a legend of the notation\'s symbols': async (h) => {
    const {page} = await h.newPlayer('');
    // Every game's board module says its actions in words and its symbols.
    for (const name of gameNames()) {
      const words = await page.evaluate(async (game) => {
        const module = await import(`/boards/${game}.js`);
        return {legend: (module.notationLegend || []).length, words: typeof module.actionWords === 'function'};
      }, name);
      assert(words.legend > 0 && words.words, `${name}: the board module has notationLegend and actionWords`);
    }
    await page.goto(`${h.url}/#/import`);
    await page.locator('#import-text').fill(readRecord('baltek/sample-won-2-1.txt'));
    await page.locator('#import-submit').click();
    const first = page.locator('#movelist .ml-turn[data-index="1"]');
    await first.waitFor();
    assertEqual((await first.innerText()).trim(), 'B/@ h3/f5 f4/d1* f2/', 'notation first');
    await page.locator('#movelist-words').click();
    await page.waitForFunction(() => /^Blue: /.test(document.querySelector('#movelist .ml-turn[data-index="1"]')?.innerText || ''));
    assertEqual((await first.innerText()).trim(), 'Blue: kicks to h3; runs f5 → f4; sprints d1 → f2', 'the turn in words');
    assertEqual(await page.locator('#movelist-words').getAttribute('aria-pressed'), 'true', 'the switch says it');
    await page.locator('#movelist-legend > summary').click();
    const legend = await page.locator('#movelist-legend').innerText();
    for (const symbol of ['@', '*', '+', '!', '#']) {
      assert(new RegExp(`(^|\\s)\\${symbol}\\s`).test(legend), `the legend explains ${symbol}: ${legend}`);
    }
    await h.screenshot(page, 'movelist-words');
    // The choice is kept: the next record shows in words at once.
    await page.reload();
    await page.locator('#import-text').fill(readRecord('baltek/sample-won-2-1.txt'));
    await page.locator('#import-submit').click();
    await page.waitForFunction(() => /^Blue: /.test(document.querySelector('#movelist .ml-turn[data-index="1"]')?.innerText || ''));
  },

  'phone: the header menu lists every link, and every tap target is at least 44 px (lobby, rooms, import)':
      async (h) => {
        const {page} = await h.newPlayer('', {viewport: kPhone, moreOptions: false});
        await page.locator('#quick-start').waitFor();
        // The menu: closed, then every header link, Register and the archive included.
        assert(!(await page.locator('#site-nav').isVisible()), 'the links are folded behind the menu');
        await page.locator('#menu-button').click();
        for (const href of ['#/', '#/import', '#/help', '#/leaderboard', '#/archive', '#/account', '#/account/register']) {
          assert(await page.locator(`#site-nav a[href="${href}"]`).first().isVisible(), `the menu has ${href}`);
        }
        await h.screenshot(page, 'phone-header-menu');
        let small = await smallTapTargets(page, {scope: '.site-header'});
        assertEqual(small.length, 0, `header: ${small.join(', ')}`);
        await page.locator('#site-nav a[href="#/archive"]').click();
        await page.waitForFunction(() => location.hash.startsWith('#/archive'));
        assert(!(await page.locator('#site-nav').isVisible()), 'a link followed closes the menu');
        await page.goto(`${h.url}/#/`);
        await page.locator('#quick-start').waitFor();
        small = await smallTapTargets(page, {scope: 'body'});
        assertEqual(small.length, 0, `lobby: ${small.join(', ')}`);
        await page.locator('#more-options-summary').click();
        await page.locator('#create-form').waitFor();
        small = await smallTapTargets(page, {scope: '#app'});
        assertEqual(small.length, 0, `lobby's forms: ${small.join(', ')}`);
        // A room of each game (against the computer, the person to move), and the import page.
        for (const name of gameNames()) {
          const room = await playComputer(h, name, kPhone);
          small = await smallTapTargets(room, {scope: '#app', except: kGridTargets});
          assertEqual(small.length, 0, `${name}'s room: ${small.join(', ')}`);
          await h.screenshot(room, `phone-room-${name}`);
        }
        await page.goto(`${h.url}/#/import`);
        await page.locator('#import-text').fill(readRecord('tablut/sample-escape.txt'));
        await page.locator('#import-submit').click();
        await page.locator('#movelist .ml-turn').first().waitFor();
        small = await smallTapTargets(page, {scope: '#app', except: kGridTargets});
        assertEqual(small.length, 0, `import: ${small.join(', ')}`);
      },
};

export const timeouts = {
  'phone: the header menu lists every link, and every tap target is at least 44 px (lobby, rooms, import)': 120000,
};
