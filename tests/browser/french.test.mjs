// The pages in French (a browser whose language is French, at a desktop and a phone width): every page and a
// room of every game, seen as its players see it (waiting for an opponent, a turn played and a draw offered,
// the game over). On each: no English left (a visible text, an aria-label, a title or a placeholder that is a
// text of the English catalog, or holds one of its phrases of three words or more, whose French differs), no
// text wider than its box, and text contrast of 4.5:1 at least. A screenshot of each, fr-PAGE-WIDTH, is left
// beside the English ones.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

import {
  assert, gameModule, gameNames, kDesktop, kPhone, kRepo, kWait, lowContrastText, register, twoPlayers, waitStatus,
  waitWelcomed,
} from './harness.mjs';

const kLocale = 'fr-FR';

// What a check finds on the page, in three lists: English left, text overflowing its box, low contrast.
export async function findings(page) {
  const [english, overflow] = await page.evaluate(async () => {
    // The catalogs, each game's words included (boards/CODE/GAME.js, for the games of the table).
    const table = await (await fetch('/api/games/table')).json();
    const names = (table.games || []).map((game) => game.name);
    const catalog = async (code) => Object.assign({}, (await import(`/i18n/${code}.js`)).default,
        ...await Promise.all(names.map(async (name) => (await import(`/boards/${code}/${name}.js`)).default)));
    const en = await catalog('en');
    const fr = await catalog('fr');
    // The English texts a French page must not show: whole texts (without parameters), and the phrases of
    // three words or more between a text's parameters. A text French writes the same is not English left.
    const whole = new Set();
    const phrases = new Set();
    const words = (text) => (text.match(/[A-Za-z]+(?:'[a-z]+)?/g) || []).length;
    for (const [key, text] of Object.entries(en)) {
      const forms = typeof text === 'object' ? Object.values(text) : [text];
      const french = fr[key];
      const frenchForms = typeof french === 'object' && french ? Object.values(french) : [french];
      for (const form of forms) {
        if (frenchForms.includes(form)) continue;
        if (!/\{[a-z_]+\}/.test(form) && /[A-Za-z]/.test(form)) whole.add(form.trim());
        for (const piece of form.split(/\{[a-z_]+\}/)) {
          const phrase = piece.trim().replace(/^[^A-Za-z]+|[^A-Za-z.?!]+$/g, '');
          if (words(phrase) >= 3) phrases.add(phrase);
        }
      }
    }
    const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const patterns =
        [...phrases].map((phrase) => [phrase, new RegExp(`(^|[^A-Za-z])${escape(phrase)}($|[^A-Za-z])`)]);
    // And single words: a word of four letters or more that the English texts use and no French text does
    // ("Attackers" left in "Attackers (A)").
    const letters = (text) => String(text).match(/[A-Za-zÀ-ÿ]+/g) || [];
    const all_forms = (catalog) => Object.values(catalog).flatMap((text) => (typeof text === 'object' ? Object.values(text) : [text]));
    // French words: the catalogs' and the French help pages' (help/fr/GAME.js).
    const help = await Promise.all(names.map(async (name) => JSON.stringify((await import(`/help/fr/${name}.js`)).default)));
    const french_words =
        new Set([...all_forms(fr), ...help].flatMap(letters).map((word) => word.toLowerCase()));
    const english_words = new Set(all_forms(en).flatMap((form) => letters(form.replace(/\{[a-z_]+\}/g, ' ')))
        .filter((word) => word.length >= 4 && !french_words.has(word.toLowerCase())));
    const english_in = (text) => {
      const trimmed = text.replace(/\s+/g, ' ').trim();
      if (!trimmed || !/[A-Za-z]/.test(trimmed)) return null;
      if (whole.has(trimmed)) return trimmed;
      for (const [phrase, pattern] of patterns) {
        if (pattern.test(trimmed)) return phrase;
      }
      // Addresses and option texts (key=value) are not words of a language.
      const prose = trimmed.replace(/\S+:\/\/\S+|\S+@\S+|\S+=\S+/g, ' ');
      return letters(prose).find((word) => english_words.has(word)) || null;
    };
    // Notation and what people wrote are nobody's translation: the record, code, the chat's lines, names.
    const kNotTexts = 'pre, code, textarea, .chat-text, .chat-name, #whoami, .player-name, .ml-turn, .moves-line';
    const shown = (node) => {
      if (node.closest('[hidden], noscript') || node.closest(kNotTexts)) return false;
      if (!node.getClientRects().length) return node.tagName === 'OPTION' && shown(node.parentElement);
      return getComputedStyle(node).visibility === 'visible';
    };
    const name = (node) => `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${
        typeof node.className === 'string' && node.className.trim() ? `.${node.className.trim().split(/\s+/)[0]}` :
                                                                      ''}`;
    const english = [];
    const left = english_in(document.title);
    if (left) english.push(`the tab's title "${document.title}" (${left})`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const parent = text.parentElement;
      if (!parent || !shown(parent)) continue;
      const found = english_in(text.textContent);
      if (found) english.push(`${name(parent)} "${text.textContent.trim().slice(0, 60)}" (${found})`);
    }
    for (const node of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (node.closest('[hidden], noscript') || node.closest(kNotTexts)) continue;
      for (const attribute of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = node.getAttribute(attribute);
        const word = value && english_in(value);
        if (word) english.push(`${name(node)} ${attribute}="${value.slice(0, 60)}" (${word})`);
      }
    }
    // Text wider than its box: an element that clips or spills its text (a deliberate ellipsis aside).
    const overflow = [];
    const kTextBoxes = 'button, label, h1, h2, h3, h4, h5, h6, th, td, a, summary, legend';
    for (const node of document.body.querySelectorAll(kTextBoxes)) {
      if (node.closest('[hidden], svg') || !node.getClientRects().length) continue;
      const style = getComputedStyle(node);
      if (!['visible', 'hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis') continue;
      if (node.scrollWidth > node.clientWidth + 1 && node.clientWidth > 0) {
        const text = node.textContent.trim().slice(0, 40);
        overflow.push(`${name(node)} "${text}" ${node.scrollWidth} > ${node.clientWidth} px`);
      }
    }
    return [english, overflow];
  });
  return {english, overflow, contrast: await lowContrastText(page)};
}

// Checks the page as it stands and leaves its picture, fr-WHERE-WIDTH; what is wrong goes into `failures`.
async function check(h, page, where, failures) {
  const width = page.viewportSize().width;
  const found = await findings(page);
  for (const [kind, list] of Object.entries(found)) {
    if (!list.length) continue;
    const shown = list.slice(0, 12).join('; ');
    const more = list.length > 12 ? `; and ${list.length - 12} more` : '';
    failures.push(`${where} (${width} px), ${kind}: ${shown}${more}`);
  }
  await h.screenshot(page, `fr-${where}-${width}`);
}

// The same at both widths: the page as it is (a desktop's), then narrowed to a phone's, then back. A room is
// set up once for both: its layout follows the viewport as it changes.
async function checkBoth(h, page, where, failures) {
  await check(h, page, where, failures);
  await page.setViewportSize(kPhone);
  await page.waitForTimeout(300);
  await check(h, page, where, failures);
  await page.setViewportSize(kDesktop);
  await page.waitForTimeout(100);
}

// Goes to `hash` and waits for the page drawn there (`selector`, or anything in #app), its data included.
async function visit(page, hash, selector = null) {
  await page.goto(`${page.url().replace(/#.*$/, '')}${hash}`);
  await page.waitForFunction(() => document.querySelector('#app')?.children.length > 0, null, {timeout: kWait});
  if (selector) await page.locator(selector).first().waitFor({timeout: kWait});
  await page.waitForTimeout(600);  // what the page fetches (lists, ratings) comes in
}

// A record to import: the first sample of the first game that has samples (tests/data/records/GAME/).
function sampleRecord() {
  const root = path.join(kRepo, 'tests', 'data', 'records');
  for (const game of gameNames()) {
    let files = [];
    try {
      files = readdirSync(path.join(root, game)).filter((name) => name.endsWith('.txt')).sort();
    } catch {
      continue;
    }
    if (files.length) return readFileSync(path.join(root, game, files[0]), 'utf8');
  }
  return null;
}

async function everyPage(h, viewport) {
  const failures = [];
  const {page} = await h.newPlayer('', {viewport, locale: kLocale});
  await waitWelcomed(page);
  await visit(page, '#/', '#quick-start');
  await check(h, page, 'lobby', failures);
  // A phone's header menu, open: every header link.
  if (await page.locator('#menu-button').isVisible()) {
    await page.locator('#menu-button').click();
    await page.locator('#site-nav a').first().waitFor({state: 'visible'});
    await check(h, page, 'menu', failures);
    await page.locator('#menu-button').click();
  }
  await visit(page, '#/help', '.help-games li');
  await check(h, page, 'help', failures);
  for (const game of gameNames()) {
    await visit(page, `#/help/${game}`, `.help-game[data-game="${game}"] h1`);
    await check(h, page, `help-${game}`, failures);
  }
  await visit(page, '#/import', '#import-text');
  await check(h, page, 'import', failures);
  const record = sampleRecord();
  if (record) {
    await page.locator('#import-text').fill(record);
    await page.locator('#import-submit').click();
    await page.locator('.import-viewer #board svg.board').waitFor();
    await check(h, page, 'import-replay', failures);
    // A record the server refuses at a line: "ligne N" around the server's reason.
    await page.locator('#import-text').fill(`${record.split('\n')[0]}\n1   Q/zz9 zz9/\n`);
    await page.locator('#import-submit').click();
    await page.locator('#import-error').waitFor();
    await check(h, page, 'import-refused', failures);
  }
  // A text that holds no game: the page says so before asking the server.
  await page.locator('#import-text').fill('bonjour');
  await page.locator('#import-submit').click();
  await page.locator('#import-error').waitFor();
  await check(h, page, 'import-no-game', failures);
  await visit(page, '#/account');
  await check(h, page, 'account', failures);
  await visit(page, '#/account/register', '#register-username');
  await check(h, page, 'register', failures);
  await visit(page, '#/leaderboard', 'h1');
  await check(h, page, 'leaderboard', failures);
  await visit(page, '#/archive', 'h1');
  await check(h, page, 'archive', failures);
  // An account's own pages: its player page and the account page logged in.
  const username = `fr${viewport.width}`;
  await register(page, username, 'mot-de-passe-1');
  await visit(page, `#/player/${username}`, 'h1');
  await check(h, page, 'player', failures);
  await visit(page, '#/account');
  await check(h, page, 'account-logged-in', failures);
  await visit(page, '#/', '#quick-start');
  await check(h, page, 'lobby-account', failures);
  // The form that creates a tournament (the tournaments' other pages: tournament.test.mjs).
  await visit(page, '#/tournaments/new', '#tournament-form');
  await check(h, page, 'tournament-new', failures);
  assert(failures.length === 0, `the pages in French:\n  ${failures.join('\n  ')}`);
}

// A room of each game, at both widths: waiting for an opponent, then two players, a turn played, a draw offered
// (both sides seen), then the game resigned.
async function everyRoom(h) {
  const failures = [];
  for (const name of gameNames()) {
    const game = await gameModule(name);
    const waiting = async (first, second, room) => {
      await first.page.waitForSelector('#room[data-status="open"]');
      await first.page.waitForTimeout(300);
      await checkBoth(h, first.page, `room-${name}-waiting`, failures);
      if (name === gameNames()[0]) {
        // The lobby's list with the room waiting in it.
        await visit(second.page, '#/', `#rooms [data-room="${room}"] .sit`);
        await checkBoth(h, second.page, 'lobby-rooms', failures);
      }
    };
    const {room, alice: first, bob: second, bySeat} = await twoPlayers(
        h, game.game || name, {options: game.options || '', viewport: kDesktop, locale: kLocale, waiting});
    const toMove = Number(await first.page.locator('#room').getAttribute('data-to-move'));
    const mover = bySeat[toMove];
    const other = bySeat[1 - toMove];
    await mover.waitForSelector(`#board svg.board.board-${name}`);
    await game.playFirstTurn(mover);
    await other.waitForSelector(`#room[data-to-move="${1 - toMove}"]`, {timeout: kWait});
    // The player to move now offers a draw: the log says it on both pages, the other may accept it.
    await other.locator('#draw').click();
    await mover.locator('#decline-draw').waitFor({state: 'visible'});
    await other.locator('#room-log li').first().waitFor();
    await checkBoth(h, mover, `room-${name}`, failures);
    await checkBoth(h, other, `room-${name}-opponent`, failures);
    // Resign takes two clicks; then the result, the rematch and playing on from the replay.
    await mover.locator('#resign').click();
    await mover.locator('#resign.armed').click();
    for (const page of bySeat) await waitStatus(page, 'finished');
    await mover.locator('#play-on').waitFor();
    await mover.waitForTimeout(300);
    await checkBoth(h, mover, `room-${name}-over`, failures);
    if (name === gameNames()[0]) {
      // My games: the game over, who won.
      await visit(mover, '#/', `#my-games [data-room="${room}"]`);
      await checkBoth(h, mover, 'lobby-my-games', failures);
    }
    for (const player of [first, second]) await player.context.close();
  }
  assert(failures.length === 0, `the rooms in French:\n  ${failures.join('\n  ')}`);
}

export const tests = {
  'french: every page at a desktop width (no English left, no overflow, contrast 4.5:1)': (h) => everyPage(h, kDesktop),
  'french: every page at a phone width (no English left, no overflow, contrast 4.5:1)': (h) => everyPage(h, kPhone),
  'french: a room of every game at both widths, waiting, under way and over': everyRoom,
};

// Five rooms with two players each take a while on a loaded machine.
export const timeouts =
    Object.fromEntries(Object.keys(tests).map((name) => [name, name.includes('room') ? 420000 : 240000]));
