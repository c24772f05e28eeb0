// "How to play": a page per game with its rules in short and diagrams drawn by the game's own
// board module; reachable from the header, from the lobby (each game) and from every room.
import {assert, assertEqual, createRoom, gameNames, kDesktop, kPhone, kWait} from './harness.mjs';

// Waits until every diagram of the help page on screen is drawn; returns [{step, nodes}] per figure (nodes:
// how many SVG shapes the board drew).
async function diagrams(page) {
  await page.locator('.help-game h1').waitFor();
  await page.waitForFunction(() => {
    const figures = [...document.querySelectorAll('.help-figure')];
    return figures.length > 0 && figures.every((figure) => figure.dataset.drawn === 'true');
  }, null, {timeout: kWait});
  return page.locator('.help-figure').evaluateAll((figures) => figures.map((figure) => ({
                                                  step: figure.dataset.step,
                                                  nodes: figure.querySelectorAll(
                                                      '.help-board svg :is(rect, circle, path, polygon, use, text, ellipse, line)')
                                                             .length,
                                                  legal: figure.querySelectorAll('[data-legal="true"]').length,
                                                })));
}

// The ways in are tried with different games of the server's table: the i-th (counted round).
const someGame = (i) => gameNames()[i % gameNames().length];

export const tests = {
  'help: each game\'s How to play page gives its rules and draws its diagrams with the board module': async (h) => {
    const {page} = await h.newPlayer(null);
    for (const game of gameNames()) {
      await page.goto(`${h.url}/#/help/${game}`);
      const figures = await diagrams(page);
      assert(figures.length >= 2, `${game}: at least two diagrams (${figures.length})`);
      // No empty box above a diagram: a turn bar with nothing to say is not shown.
      const empty = await page.locator('.help-figure .turn-bar').evaluateAll((bars) => bars.filter(
          (bar) => bar.getClientRects().length && !bar.innerText.trim()).length);
      assertEqual(empty, 0, `${game}: empty boxes above the diagrams`);
      for (const figure of figures) {
        assert(figure.nodes > 10, `${game}: the diagram of step ${figure.step} is drawn (${figure.nodes} shapes)`);
        assertEqual(figure.legal, 0, `${game}: a diagram offers nothing to play`);
      }
      const text = await page.locator('.help-game').innerText();
      for (const heading of ['The game', 'How']) {
        assert(text.includes(heading), `${game}: the page has "${heading}…"`);
      }
      assert(/\([A-Z]\)/.test(text), `${game}: the sides are named with their letters`);
      assert((await page.title()).startsWith('How to play '), `${game}: the tab says which page`);
    }
    // On a phone the page and its diagrams fit the width.
    await page.setViewportSize(kPhone);
    await page.goto(`${h.url}/#/help/${someGame(1)}`);
    await diagrams(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(overflow <= 1, `no sideways scrolling on a phone (${overflow} px too wide)`);
    assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
  },

  'help: the header, the lobby and a room lead to How to play': async (h) => {
    const {page} = await h.newPlayer('Ada');
    // The header: the index of the games.
    await page.locator('.site-nav a[href="#/help"]').click();
    await page.waitForURL(/#\/help$/);
    // The URL changes before the page routes (hashchange): wait for the index to be drawn.
    await page.locator('.help-games li').first().waitFor();
    assertEqual(await page.locator('.help-games li').count(), gameNames().length, 'the index lists every game');
    assertEqual(await page.locator('.site-nav a[href="#/help"]').getAttribute('aria-current'), 'page',
                'the header marks the section');
    await page.locator(`.help-games a[href="#/help/${someGame(3)}"]`).click();
    await page.waitForURL((url) => url.hash === `#/help/${someGame(3)}`);
    await diagrams(page);

    // The lobby: each game's line, with its link.
    await page.goto(`${h.url}/#/`);
    await page.locator('.lobby-game').first().waitFor();
    assertEqual(await page.locator('.lobby-game .help-link').count(), gameNames().length, 'a link per game');
    await page.locator(`.lobby-game[data-game="${someGame(2)}"] .help-link`).click();
    await page.waitForURL((url) => url.hash === `#/help/${someGame(2)}`);
    await diagrams(page);

    // A room: the link beside the game's title.
    const room = await createRoom(page, {game: someGame(4)});
    const link = page.locator('#room .room-head .help-link');
    await link.waitFor();
    await link.click();
    await page.waitForURL((url) => url.hash === `#/help/${someGame(4)}`);
    await diagrams(page);
    assert(room, 'the room was created');
    assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
  },

  'help: a French browser reads every game\'s page in French, with the English page\'s diagrams': async (h) => {
    const english = (await h.newPlayer(null)).page;
    const {page} = await h.newPlayer(null, {locale: 'fr-FR'});
    await page.goto(`${h.url}/#/help`);
    await page.locator('.help-games li').first().waitFor();
    assertEqual(await page.locator('.help-index h1').innerText(), 'Comment jouer', 'the index in French');
    for (const game of gameNames()) {
      await english.goto(`${h.url}/#/help/${game}`);
      const steps = (await diagrams(english)).map((figure) => figure.step);
      await page.goto(`${h.url}/#/help/${game}`);
      const figures = await diagrams(page);
      assertEqual(figures.map((figure) => figure.step).join(' '), steps.join(' '), `${game}: the same diagrams`);
      for (const figure of figures) assert(figure.nodes > 10, `${game}: the diagram of step ${figure.step} is drawn`);
      const text = await page.locator('.help-game').innerText();
      for (const heading of ['Comment jouer', 'Le jeu', 'Jouer ici', 'Les autres jeux']) {
        assert(text.includes(heading), `${game}: the page has "${heading}"`);
      }
      for (const heading of ['The game', 'Playing here', 'The other games']) {
        assert(!text.includes(heading), `${game}: no English "${heading}" left`);
      }
      assert((await page.title()).startsWith('Comment jouer '), `${game}: the tab in French`);
    }
    for (const viewport of [kPhone, kDesktop]) {
      await page.setViewportSize(viewport);
      for (const game of [someGame(0), someGame(2)]) {
        await page.goto(`${h.url}/#/help/${game}`);
        await diagrams(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(overflow <= 1, `${game} in French at ${viewport.width} px: ${overflow} px too wide`);
        await h.screenshot(page, `help-fr-${game}-${viewport.width}`);
      }
    }
    assertEqual(h.pageErrors.length, 0, `no page errors: ${h.pageErrors.join('; ')}`);
  },
};
