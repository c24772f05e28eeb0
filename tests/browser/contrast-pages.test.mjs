// Text contrast of 4.5:1 (WCAG AA) on every page the lobby and accounts tests do not reach:
// each game's How to play page and the index, the import page with a replay and with a refusal, and each
// game's room (a game under way, an earlier position looked at, the game over), in the light and the dark
// colour scheme. The boards' own drawings are contrast-boards.test.mjs's; lowContrastText (harness.mjs)
// checks the HTML around them, the turn bar included.
import {
  assertEqual, gameNames, kDesktop, keepLobbyFormsOpen, kWait, lowContrastText, readRecord, waitStatus, waitWelcomed,
} from './harness.mjs';

const kSchemes = ['light', 'dark'];

async function pageIn(h, scheme) {
  const context = await h.browser.newContext({viewport: kDesktop, colorScheme: scheme});
  await keepLobbyFormsOpen(context);  // the forms are reached and checked too
  h.contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => h.pageErrors.push(`${scheme}: ${error.message}`));
  await page.goto(`${h.url}/#/`);
  await waitWelcomed(page);
  return page;
}

async function check(page, where, failures) {
  const low = await lowContrastText(page);
  if (low.length) failures.push(`${where}: ${low.join('; ')}`);
}

export const tests = {
  'contrast: the How to play pages and the import page keep 4.5:1, light and dark': async (h) => {
    const failures = [];
    for (const scheme of kSchemes) {
      const page = await pageIn(h, scheme);
      await page.goto(`${h.url}/#/help`);
      await page.locator('.help-games li').first().waitFor();
      await check(page, `${scheme} help index`, failures);
      for (const game of gameNames()) {
        await page.goto(`${h.url}/#/help/${game}`);
        await page.locator(`.help-game[data-game="${game}"] h1`).waitFor();
        await page.waitForFunction(
            () => [...document.querySelectorAll('.help-figure')].every((f) => f.dataset.drawn === 'true'), null,
            {timeout: kWait});
        await check(page, `${scheme} help ${game}`, failures);
      }
      await page.goto(`${h.url}/#/import`);
      await page.locator('#import-text').fill(readRecord('tablut/sample-escape.txt'));
      await page.locator('#import-submit').click();
      await page.locator('.import-viewer #board svg.board').waitFor();
      await check(page, `${scheme} import, a replay`, failures);
      await page.locator('#import-text').fill('#! TABLUT\n1   A/e8 z9/\n');
      await page.locator('#import-submit').click();
      await page.locator('#import-error').waitFor();
      await check(page, `${scheme} import, a refusal`, failures);
    }
    assertEqual(failures.length, 0, `text under 4.5:1:\n  ${failures.join('\n  ')}`);
  },

  'contrast: each game\'s room keeps 4.5:1 during the game, on an earlier position and after it, light and dark':
      async (h) => {
        const failures = [];
        for (const scheme of kSchemes) {
          const page = await pageIn(h, scheme);
          for (const game of gameNames()) {
            // A game against the computer (level 0), the person on the second seat: the computer opens.
            await page.goto(`${h.url}/#/`);
            await page.locator('#bot-game').selectOption(game);
            await page.locator('#bot-level').selectOption('0');
            await page.locator('#bot-seat').selectOption('1');
            await page.locator('#bot-clock').selectOption('5+3');
            await page.locator('#bot-submit').click();
            await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+/, {timeout: kWait});
            await waitStatus(page, 'live');
            await page.waitForSelector('#room[data-to-move="1"]');
            await page.locator(`#board svg.board.board-${game}`).waitFor();
            await page.locator('#first-move').waitFor();
            await check(page, `${scheme} ${game} room, my turn`, failures);
            await page.locator('#resign').click();
            await check(page, `${scheme} ${game} room, resign armed`, failures);
            await page.locator('#resign').click();
            await waitStatus(page, 'finished');
            await page.locator('#result').waitFor();
            await check(page, `${scheme} ${game} room, the game over`, failures);
            // The start position looked at, with its banner.
            await page.locator('#replay-start').click();
            await page.locator('#history-banner').waitFor();
            await check(page, `${scheme} ${game} room, an earlier position`, failures);
          }
        }
        assertEqual(failures.length, 0, `text under 4.5:1:\n  ${failures.join('\n  ')}`);
        assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
      },
};

export const timeouts = {
  'contrast: each game\'s room keeps 4.5:1 during the game, on an earlier position and after it, light and dark':
      120000,
};
