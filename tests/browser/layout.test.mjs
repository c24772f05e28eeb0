// Everything a turn needs on screen at once: for each game, at 1280x800 and 390x844, a
// person starts a game against the computer, gets to where the turn's controls show, and the board and each
// of those controls lie inside the window with the page not scrolled.
import {assert, gameModule, gameNames, kDesktop, kPhone, kWait, playComputer} from './harness.mjs';

// The boxes of `selectors` as the page lays them out, with the window's size and scroll.
function boxes(page, selectors) {
  return page.evaluate((list) => {
    const pick = (selector) => {
      const [css, nth] = selector.split(' >> nth=');
      const all = document.querySelectorAll(css);
      return all[Number(nth || 0)] || null;
    };
    return {
      width: window.innerWidth,
      height: window.innerHeight,
      scroll: window.scrollY,
      items: list.map((selector) => {
        const node = pick(selector);
        if (!node) return {selector, missing: true};
        const r = node.getBoundingClientRect();
        return {selector, top: r.top, left: r.left, bottom: r.bottom, right: r.right, width: r.width};
      }),
    };
  }, selectors);
}

function outside(layout) {
  const slack = 0.5;  // sub-pixel rounding
  return layout.items.filter(
      (b) => b.missing || b.width <= 0 || b.top < -slack || b.left < -slack ||
          b.bottom > layout.height + slack || b.right > layout.width + slack);
}

async function checkInView(h, game, size, viewport) {
  const page = await playComputer(h, game, viewport);
  const selectors = await (await gameModule(game)).showTurnControls(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  // The board fits itself to the window after layout: wait for it (a condition, not a sleep).
  const inView = await page
                     .waitForFunction(
                         (list) => {
                           if (window.scrollY !== 0) return false;
                           return list.every((selector) => {
                             const [css, nth] = selector.split(' >> nth=');
                             const node = document.querySelectorAll(css)[Number(nth || 0)];
                             if (!node) return false;
                             const r = node.getBoundingClientRect();
                             return r.width > 0 && r.top >= -0.5 && r.left >= -0.5 &&
                                 r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5;
                           });
                         },
                         selectors, {timeout: 8000})
                     .then(() => true)
                     .catch(() => false);
  await h.screenshot(page, `layout-${game}-${size}`);
  if (!inView) {
    const layout = await boxes(page, selectors);
    throw new Error(`${game} at ${size} (${viewport.width}x${viewport.height}, scrollY ${
        layout.scroll}): not in view: ${JSON.stringify(outside(layout))}`);
  }
}

// Each game of the server's table; what its turn needs on screen is its test module's (games/NAME.mjs).
export const tests = Object.fromEntries(gameNames().flatMap(
    (game) => [
        [
          `${game}: at 1280x800 the board and the turn's controls are on screen together`,
          (h) => checkInView(h, game, 'desktop', kDesktop)
        ],
        [
          `${game}: at 390x844 the board and the turn's controls are on screen together`,
          (h) => checkInView(h, game, 'phone', kPhone)
        ],
]));
