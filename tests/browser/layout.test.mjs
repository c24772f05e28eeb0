// Everything a turn needs on screen at once: for each game, at 1280x800 and 390x844, a
// person starts a game against the computer, gets to where the turn's controls show, and the board and each
// of those controls lie inside the window with the page not scrolled.
import {assert, kDesktop, kPhone, kWait, playComputer} from './harness.mjs';


// What each game's turn needs on screen, once the page is where its controls show.
const kSetups = {
  tablut: async (page) => {
    const piece = page.locator('#board [data-piece][data-movable="true"]').first();
    await piece.click();
    await page.locator('#board [data-square][data-legal="true"]').first().waitFor();
    return ['#board svg.board', '#board .turn-bar', '#board [data-square][data-legal="true"] >> nth=0'];
  },
  batik: async (page) => {
    await page.locator('#board [data-piece="TL"][data-legal="true"]').click();
    await page.locator('#board [data-ghost][visibility="visible"]').waitFor();
    return [
      '#board svg.board', '#board [data-ghost]', '#board [data-control="drop"]',
      '#board [data-control="rotate-left"]', '#board [data-control="flip"]'
    ];
  },
  baltek: async (page) => {
    const board = page.locator('#board svg.board-baltek');
    await board.locator('[data-piece="ball"].selectable').waitFor();
    await board.locator('[data-piece="ball"]').click();
    await board.locator('[data-square][data-legal="true"][data-action^="@"]').first().click();
    await page.locator('#board [data-control="undo"]').waitFor();
    return ['#board svg.board', '#board [data-control="undo"]', '#board [data-control="confirm"]'];
  },
  'kopf-oder-knopf': async (page) => {
    await page.locator('#board [data-movable="true"]').first().click();
    await page.locator('#board [data-legal="true"]').first().waitFor();
    return ['#board svg.board', '#board .turn-bar .turn-bar-prompt', '#board .kok-score'];
  },
  'bi-litaire': async (page) => {
    await page.locator('#board [data-square="d4"][data-legal="true"]').click();
    await page.locator('#board [data-control="confirm"]').waitFor();
    return [
      '#board svg.board', '#board .turn-bar .turn-bar-prompt', '#board [data-control="confirm"]',
      '#board [data-control="undo"]'
    ];
  },
};

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
  const selectors = await kSetups[game](page);
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

export const tests = Object.fromEntries(Object.keys(kSetups).flatMap(
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
