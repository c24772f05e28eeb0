// The browser tests' harness: a real `cinq serve` on a free port with a fresh data directory, Debian's
// chromium driven by playwright-core (no browser download), and the few helpers every test needs.
// Waits are always on conditions (a version reached, an element shown), never fixed sleeps, so the tests
// hold on a loaded 2-core machine.
import {execFileSync, spawn} from 'node:child_process';
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import net from 'node:net';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';
import {chromium} from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const kRepo = path.resolve(here, '..', '..');
export const kWebDir = path.join(kRepo, 'web-client');
export const kArtifacts = process.env.CINQ_ARTIFACTS || path.join(here, 'artifacts');
export const kChromium = process.env.CINQ_CHROMIUM || '/usr/bin/chromium';
// Generous on purpose: a loaded 2-core machine runs the server, chromium and three pages at once.
export const kWait = 20000;

export const kDesktop = {
  width: 1280,
  height: 800
};
export const kPhone = {
  width: 390,
  height: 844
};

export function binaryPath() {
  const positional = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  return process.env.CINQ_BINARY || positional || '/work/main/build/server/cinq';
}

// The games as the server describes them (`cinq games --json` prints the table GET /api/games/table serves),
// in the registry's order: what the tests loop over, so that they keep no list of the games. Read once.
let gameTableRead = null;
export function gameTable() {
  if (!gameTableRead) {
    gameTableRead = JSON.parse(execFileSync(binaryPath(), ['games', '--json'], {encoding: 'utf8'})).games;
  }
  return gameTableRead;
}

// The games' names (`tablut`, `kopf-oder-knopf`), in the registry's order.
export function gameNames() { return gameTable().map((game) => game.name); }

// A game's test module, tests/browser/games/NAME.mjs, written with its board: what the tests need of that game
// (its first turn by clicks, how its turn's controls show, samples), found by the game's name.
export async function gameModule(name) {
  const file = path.join(here, 'games', `${name}.mjs`);
  assert(existsSync(file), `tests/browser/games/${name}.mjs is missing (the ${name} board's test module)`);
  return import(pathToFileURL(file).href);
}

// The sample records shipped with the repository (tests/data/records).
export function readRecord(relative) {
  return readFileSync(path.join(kRepo, 'tests', 'data', 'records', relative), 'utf8');
}

// The turns of a one-action-per-turn record: [{side, from, to, text}] ("d1 d5 x c5": from d1 to d5).
export function recordMoves(record) {
  const moves = [];
  for (const line of record.split('\n')) {
    if (!/^\d+\s/.test(line)) continue;
    for (const match of line.matchAll(/([A-Z])\/([^/]+)\//g)) {
      const [from, to] = match[2].trim().split(/\s+/);
      moves.push({side: match[1], from, to, text: `${from} ${to}`});
    }
  }
  return moves;
}

// Starts `cinq serve --port 0` and resolves once it printed the port it listens on.
// `args`: more `cinq serve` arguments (a test that needs a short bot pace, say).
export function startServer({binary = binaryPath(), web = kWebDir, args = []} = {}) {
  const data = mkdtempSync(path.join(tmpdir(), 'cinq-browser-'));
  const child = spawn(binary, ['serve', '--port', '0', '--data', data, '--web', web, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const server = {
    child,
    data,
    port: 0,
    url: '',
    log: () => log,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(data, {recursive: true, force: true});
    },
  };
  liveServers.add(server);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cinq serve did not start in time:\n${log}`)), kWait);
    const onOutput = (chunk) => {
      log += chunk.toString();
      const match = /listening on (https?):\/\/[^:]+:(\d+)/.exec(log);
      if (match && !server.port) {
        server.port = Number(match[2]);
        server.url = `${match[1]}://127.0.0.1:${server.port}`;
        clearTimeout(timer);
        resolve(server);
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${binary}: ${error.message}`));
    });
    child.once('exit', (code, signal) => {
      liveServers.delete(server);
      if (!server.port) {
        clearTimeout(timer);
        reject(new Error(`cinq serve exited (${code ?? signal}) before listening:\n${log}`));
      }
    });
  });
}

// Whatever happens to the runner, no server outlives it.
const liveServers = new Set();
process.on('exit', () => {
  for (const server of liveServers) server.child.kill('SIGKILL');
});

// A TCP relay in front of the server whose link can be cut and restored: a real connection drop for the
// page (chromium's offline emulation leaves WebSockets open). While down, new connections are refused at
// once, before any WebSocket handshake, so the page never sees a short-lived "open".
export function startRelay(targetPort) {
  const pairs = new Set();
  let down = false;
  const listener = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    const pair = {client, upstream};
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve) => {
    listener.listen(0, '127.0.0.1', () => {
      const relay = {
        url: `http://127.0.0.1:${listener.address().port}`,
        cut() {
          down = true;
          for (const pair of [...pairs]) {
            pair.client.destroy();
            pair.upstream.destroy();
          }
          pairs.clear();
        },
        restore() { down = false; },
        close() {
          relay.cut();
          return new Promise((done) => listener.close(() => done()));
        },
      };
      resolve(relay);
    });
  });
}

// Playwright's waitForFunction compiles its predicate in the page with `new Function`, which the server's
// Content-Security-Policy forbids (no 'unsafe-eval'), as it should. So that the tests run under the policy the
// server sends, not around it (no bypassCSP), waits poll with evaluateHandle instead: DevTools' own
// evaluation, which a page's policy does not govern. Same arguments and result (the truthy value's handle).
const kPoll = 20;  // ms between two looks
function pollingWaitForFunction() {
  return async function waitForFunction(pageFunction, arg, options = {}) {
    const timeout = options.timeout ?? kWait;
    const every = typeof options.polling === 'number' ? options.polling : kPoll;
    const deadline = Date.now() + timeout;
    // A navigation between two looks, or during one: look again in the new document.
    const navigated = (error) =>
        /Execution context was destroyed|navigat|Cannot find context|has been disposed/i.test(
            String(error && error.message));
    for (;;) {
      try {
        const handle = await this.evaluateHandle(pageFunction, arg);
        if (await handle.evaluate((value) => Boolean(value))) return handle;
        await handle.dispose();
      } catch (error) {
        if (!navigated(error)) throw error;
      }
      if (Date.now() > deadline) {
        throw new Error(`waitForFunction: timeout ${timeout} ms exceeded (${String(pageFunction).slice(0, 200)})`);
      }
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  };
}

let waitsPatched = false;
async function patchWaits(browser) {
  if (waitsPatched) return;
  const context = await browser.newContext();
  const page = await context.newPage();
  const frame = Object.getPrototypeOf(page.mainFrame());
  frame.waitForFunction = pollingWaitForFunction();
  await context.close();
  waitsPatched = true;
}

export async function launchBrowser() {
  const browser = await launchChromium();
  await patchWaits(browser);
  return browser;
}

function launchChromium() {
  return chromium.launch({
    executablePath: kChromium,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

// One test's world: its own server and its own browser contexts (fresh localStorage each).
export class Harness {
  constructor(browser, testName) {
    this.browser = browser;
    this.testName = testName;
    this.server = null;
    this.contexts = [];
    this.pageErrors = [];
    this.cspViolations = [];  // what the server's Content-Security-Policy blocked: fails any test (run.mjs)
    this.relays = [];
  }

  // Records on `page` whatever the Content-Security-Policy blocks (Chromium says so on the console).
  watchPolicy(page, label) {
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) this.cspViolations.push(`${label}: ${message.text()}`);
    });
  }

  async start() {
    this.server = await startServer();
    return this;
  }

  get url() { return this.server.url; }

  // A relay to this test's server whose connection the test can cut (startRelay).
  async newRelay() {
    const relay = await startRelay(this.server.port);
    this.relays.push(relay);
    return relay;
  }

  // A new person: a fresh browser context on the lobby, named `name` through the lobby's name form.
  // `base` is where the page goes (the server, or a relay to it); `locale`, the browser's language.
  // `moreOptions`: the lobby's full forms ("More options") start open, as for a person who opened them once
  // (the lobby remembers it), so that the tests reach the forms directly; false leaves the lobby as a
  // newcomer sees it.
  async newPlayer(name, {viewport = kDesktop, base = this.url, locale = 'en-US', moreOptions = true} = {}) {
    const context = await this.browser.newContext({viewport, locale, ignoreHTTPSErrors: base.startsWith('https:')});
    context.setDefaultTimeout(kWait);
    this.contexts.push(context);
    if (moreOptions) await keepLobbyFormsOpen(context);
    const page = await context.newPage();
    const label = name || `page${this.contexts.length}`;
    page.on('pageerror', (error) => this.pageErrors.push(`${label}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') this.pageErrors.push(`${label} console: ${message.text()}`);
    });
    this.watchPolicy(page, label);
    await page.goto(`${base}/#/`);
    if (name) await setName(page, name);
    return {context, page};
  }

  async screenshot(page, name) {
    mkdirSync(kArtifacts, {recursive: true});
    const file = path.join(kArtifacts, `${name}.png`);
    await page.screenshot({path: file, fullPage: true});
    return file;
  }

  async fetchJson(urlPath, init) {
    const response = await fetch(`${this.url}${urlPath}`, init);
    return {status: response.status, body: await response.json()};
  }

  async teardown() {
    for (const context of this.contexts) await context.close().catch(() => {});
    this.contexts = [];
    for (const relay of this.relays) await relay.close();
    this.relays = [];
    if (this.server) await this.server.stop();
    this.server = null;
  }
}

// The lobby's full forms ("More options") open in every page of `context`, as for a person who opened them
// once (the lobby remembers it): the tests reach the forms directly.
export async function keepLobbyFormsOpen(context) {
  await context.addInitScript(() => {
    if (localStorage.getItem('cinq.lobbyMore') === null) localStorage.setItem('cinq.lobbyMore', 'open');
  });
}

// Resolves once the page's connection got its welcome (the identity with its token is stored).
export async function waitWelcomed(page) {
  await page.waitForFunction(
      () => {
        try {
          const identity = JSON.parse(localStorage.getItem('cinq.identity') || 'null');
          return Boolean(identity && identity.id && identity.token);
        } catch {
          return false;
        }
      },
      null,
      {timeout: kWait},
  );
}

// Names the player through the lobby form and waits until the server confirmed it (localStorage identity).
export async function setName(page, name) {
  // The shell sends nothing while its connection is down (it says "Not connected"): name once welcomed.
  await waitWelcomed(page);
  await page.locator('#name-input').fill(name);
  await page.locator('#name-save').click();
  await page.waitForFunction(
      (wanted) => {
        try {
          const identity = JSON.parse(localStorage.getItem('cinq.identity') || 'null');
          return identity && identity.token && identity.name === wanted;
        } catch {
          return false;
        }
      },
      name,
      {timeout: kWait},
  );
}

const kClockChoice = {
  null: 'none',
  undefined: 'none'
};

// Creates a room through the lobby form; resolves to the room id once the room page shows it.
export async function createRoom(page, {game, options = '', clock = null, privateRoom = false}) {
  await page.goto(page.url().replace(/#.*$/, '') + '#/');
  await waitWelcomed(page);
  await page.locator('#create-game').selectOption(game);
  await setOptions(page, 'create', options);
  const clockChoice = kClockChoice[clock] ?? clock;
  await page.locator('#create-clock').selectOption(clockChoice).catch(async () => {
    // A select whose values differ from their labels: choose by label.
    await page.locator('#create-clock').selectOption({label: clockChoice});
  });
  if (privateRoom) await page.locator('#create-private').check();
  await page.locator('#create-submit').click();
  await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+/, {timeout: kWait});
  await page.waitForSelector('#room[data-room]', {timeout: kWait});
  const room = await page.locator('#room').getAttribute('data-room');
  if (!room) throw new Error('the room page has no data-room');
  return room;
}

// Sets the option menus of a lobby form (`prefix`: create, seek, bot) from a `key=value ...` text; the
// others stay at their defaults.
export async function setOptions(page, prefix, options) {
  await page.locator(`#${prefix}-options`).waitFor({state: 'attached'});
  for (const pair of String(options || '').trim().split(/\s+/).filter(Boolean)) {
    const [key, value] = pair.split('=');
    const control = page.locator(`#${prefix}-opt-${key}`);
    await control.waitFor();
    const none = page.locator(`#${prefix}-opt-${key}-none`);
    if (await control.evaluate((node) => node.tagName === 'SELECT')) {
      await control.selectOption(value);
    } else if (await none.count() && !/^\d+$/.test(value)) {
      await none.check();
    } else {
      if (await none.count()) await none.uncheck();
      await control.fill(value);
    }
  }
}

// Opens a room by its invitation link (#/room/ID).
export async function openRoom(page, room) {
  await page.goto(`${page.url().replace(/#.*$/, '')}#/room/${room}`);
  await page.waitForSelector(`#room[data-room="${room}"][data-version]`, {timeout: kWait});
}

// Takes the free seat of `room` from the lobby's room list.
export async function sitFromLobby(page, room) {
  await page.goto(`${page.url().replace(/#.*$/, '')}#/`);
  const sit = page.locator(`#rooms [data-room="${room}"] .sit`);
  await sit.waitFor({state: 'visible', timeout: kWait});
  await sit.click();
  await waitSeated(page, room);
}

// Takes the free seat from the room page (#sit).
export async function sitInRoom(page, room) {
  await openRoom(page, room);
  await page.locator('#sit').click();
  await waitSeated(page, room);
}

export async function waitSeated(page, room) {
  await page.waitForSelector(`#room[data-room="${room}"]:is([data-my-seat="0"], [data-my-seat="1"])`, {
    timeout: kWait,
  });
}

export async function roomAttr(page, name) { return page.locator('#room').getAttribute(`data-${name}`); }

export async function version(page) { return Number((await roomAttr(page, 'version')) ?? -1); }

export async function mySeat(page) {
  const seat = await roomAttr(page, 'my-seat');
  return seat === '' || seat === null ? null : Number(seat);
}

// Waits until the page applied version `wanted` (or a later one) of its room.
export async function waitVersion(page, wanted, timeout = kWait) {
  await page.waitForFunction(
      (v) => {
        const room = document.querySelector('#room');
        return room && Number(room.getAttribute('data-version')) >= v;
      },
      wanted,
      {timeout},
  );
  return version(page);
}

// Where the game stands as the page holds it (window.cinqApp.room, set by room.js): {turn, to_move, status}.
export function turnMark(page) {
  return page.evaluate(() => {
    const position = window.cinqApp.room?.state?.position;
    return position ? {turn: position.turn, to_move: position.to_move, status: position.status} : null;
  });
}

// Waits until the turn under way at `mark` (turnMark) is over: another seat to move, a later turn number (a
// turn number counts rounds in some games) or the end. Waiting for the other seat to be to move alone would
// miss a bot that answers before the next check.
export async function waitTurnPast(page, mark, timeout = 20000) {
  if (!mark) throw new Error('waitTurnPast: the page holds no position');
  await page.waitForFunction((m) => {
    const position = window.cinqApp.room?.state?.position;
    return Boolean(
        position &&
        (position.status !== m.status || position.to_move !== m.to_move || position.turn > m.turn));
  }, mark, {timeout});
}

export async function waitStatus(page, status, timeout = kWait) {
  await page.waitForSelector(`#room[data-status="${status}"]`, {timeout});
}

// Plays `from` -> `to` by clicking the two squares (Tablut's board; any board that moves a piece between
// squares); resolves with the version that followed.
export async function clickMove(page, from, to) {
  const before = await version(page);
  // The piece on `from` is what a person clicks (it lies over its square); a board without piece elements
  // takes the square itself.
  const piece = page.locator(`#board [data-piece="${from}"]`);
  await page.locator(`#board :is([data-piece="${from}"], [data-square="${from}"])`).first().waitFor();
  if (await piece.count())
    await piece.first().click();
  else
    await page.locator(`#board [data-square="${from}"]`).first().click();
  await page.locator(`#board [data-square="${to}"][data-legal="true"]`).first().click();
  return waitVersion(page, before + 1);
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

export function assertEqual(actual, expected, message) {
  if (actual !== expected) {
    throw new Error(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

// Starts a game against the computer (level 0) from the lobby, the person on the first seat (to move).
export async function playComputer(h, game, viewport) {
  const {page} = await h.newPlayer('Ada', {viewport});
  await waitWelcomed(page);
  await page.locator('#bot-game').selectOption(game);
  await page.locator('#bot-level').selectOption('0');
  await page.locator('#bot-seat').selectOption('0');
  await page.locator('#bot-submit').click();
  await page.waitForURL(/#\/room\/[A-Za-z0-9_-]+/, {timeout: kWait});
  await waitStatus(page, 'live');
  assert((await mySeat(page)) === 0, 'Ada holds the first seat');
  await page.waitForSelector('#room[data-to-move="0"]');
  await page.waitForSelector(`#board svg.board.board-${game}`);
  return page;
}

// Alice creates a room of `game` (with `options` and `clock`), Bob sits from the lobby, both at `viewport`
// and in `locale` if given; `waiting(alice, bob, room)`, if given, runs while the room waits for Bob.
// Resolves with the room, the players, their pages by seat and their names by seat.
export async function twoPlayers(h, game, {options = '', clock = null, viewport, locale, waiting} = {}) {
  const how = {...(viewport ? {viewport} : {}), ...(locale ? {locale} : {})};
  const alice = await h.newPlayer('Alice', how);
  const bob = await h.newPlayer('Bob', how);
  const room = await createRoom(alice.page, {game, options, clock});
  if (waiting) await waiting(alice, bob, room);
  await sitFromLobby(bob.page, room);
  await waitStatus(alice.page, 'live');
  await waitStatus(bob.page, 'live');
  const aliceSeat = await mySeat(alice.page);
  assert((await mySeat(bob.page)) === 1 - aliceSeat, 'Alice and Bob hold the two seats');
  const bySeat = [];
  const names = [];
  bySeat[aliceSeat] = alice.page;
  names[aliceSeat] = 'Alice';
  bySeat[1 - aliceSeat] = bob.page;
  names[1 - aliceSeat] = 'Bob';
  return {room, alice, bob, bySeat, names};
}

// --- accounts: the identity a page keeps, registering and logging in through the account page

// The identity the page keeps in localStorage ({id, token, name, username?}), or null.
export function identityOf(page) {
  return page.evaluate(() => {
    try {
      return JSON.parse(localStorage.getItem('cinq.identity') || 'null');
    } catch {
      return null;
    }
  });
}

// Resolves once the page's stored identity is the account `username` (welcomed, with its token).
export async function waitAccount(page, username) {
  await page.waitForFunction(
      (wanted) => {
        try {
          const identity = JSON.parse(localStorage.getItem('cinq.identity') || 'null');
          return Boolean(identity && identity.token && identity.username === wanted && window.cinqApp.conn.ready);
        } catch {
          return false;
        }
      },
      username,
      {timeout: kWait},
  );
  await page.locator('#account-link').waitFor({timeout: kWait});
}

// Resolves once the page is a guest (a welcomed identity without a user name) and its header offers Log in.
export async function waitGuest(page) {
  await page.waitForFunction(
      () => {
        try {
          const identity = JSON.parse(localStorage.getItem('cinq.identity') || 'null');
          return Boolean(identity && identity.id && identity.token && !identity.username && window.cinqApp.conn.ready);
        } catch {
          return false;
        }
      },
      null,
      {timeout: kWait},
  );
  await page.locator('#login-link').waitFor({timeout: kWait});
}

// Turns the page's guest into the account `username` through the account page's Register form.
export async function register(page, username, password) {
  await page.goto(`${page.url().replace(/#.*$/, '')}#/account/register`);
  await waitWelcomed(page);
  await page.locator('#register-username').fill(username);
  await page.locator('#register-password').fill(password);
  await page.locator('#register-password2').fill(password);
  await page.locator('#register-submit').click();
  await waitAccount(page, username);
}

// Logs the page in to `username` through the account page's Log in form (it must be a guest).
export async function login(page, username, password) {
  await page.goto(`${page.url().replace(/#.*$/, '')}#/account`);
  await waitWelcomed(page);
  await page.locator('#login-username').fill(username);
  await page.locator('#login-password').fill(password);
  await page.locator('#login-submit').click();
  await waitAccount(page, username);
}

// The visible text of the page whose colour has less than 4.5:1 against what lies behind it (the first
// opaque background up the tree, partly transparent ones blended in): ['tag#id.class "text" ratio'...].
// Disabled controls are exempt (WCAG), and boards' SVG drawings are left to the boards.
export function lowContrastText(page) {
  return page.evaluate(() => {
    const parse = (text) => {
      const m = /rgba?\(([^)]+)\)/.exec(text || '');
      if (!m) return null;
      const parts = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return {r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1};
    };
    const over = (top, under) => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const luminance = ({r, g, b}) => {
      const c = (v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
    };
    const ratio = (x, y) => {
      const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
      return (hi + 0.05) / (lo + 0.05);
    };
    const background = (node) => {
      const layers = [];
      for (let n = node; n; n = n.parentElement) {
        const bg = parse(getComputedStyle(n).backgroundColor);
        if (bg && bg.a > 0) {
          layers.push(bg);
          if (bg.a >= 1) break;
        }
      }
      let result = {r: 255, g: 255, b: 255, a: 1};
      if (matchMedia('(prefers-color-scheme: dark)').matches && !layers.some((l) => l.a >= 1)) {
        result = {r: 0, g: 0, b: 0, a: 1};
      }
      for (const layer of layers.reverse()) result = over(layer, result);
      return result;
    };
    const failures = [];
    for (const node of document.querySelectorAll('body *')) {
      if (node.closest('svg, [hidden], .copy-fallback, :disabled, noscript')) continue;
      const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
      if (!own) continue;
      const style = getComputedStyle(node);
      if (style.visibility !== 'visible' || !node.getClientRects().length) continue;
      let opacity = 1;
      for (let n = node; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
      if (opacity < 1) continue;  // a fading notice or a dimmed control: not resting text
      const bg = background(node);
      const fg = over(parse(style.color), bg);
      const r = ratio(fg, bg);
      if (r < 4.5) {
        const name = `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${
            node.className && typeof node.className === 'string' ? `.${node.className.trim().split(/\s+/).join('.')}` :
                                                                   ''}`;
        failures.push(`${name} "${node.textContent.trim().slice(0, 30)}" ${r.toFixed(2)}:1`);
      }
    }
    return failures;
  });
}

// The tap targets under `scope` smaller than `min` CSS px either way: ['tag#id.class "text" WxH'...]. A
// target is a visible button, link, input, select, textarea, summary or [role=button]; a check box or radio
// counts with its label (a tap on either works). Exempt: a link inside a sentence (its line's height is the
// text's: WCAG's inline exception), and whatever matches `except` (a board's grid squares, which share the
// board's width equally: nine of them cannot be 44 px each on a 390 px screen).
export function smallTapTargets(page, {scope = 'body', min = 44, except = null} = {}) {
  return page.evaluate(({scope, min, except}) => {
    const root = document.querySelector(scope);
    if (!root) return [`no ${scope}`];
    const failures = [];
    const visible = (node) => {
      if (node.closest('[hidden], .copy-fallback')) return false;
      const rects = node.getClientRects();
      if (!rects.length) return false;
      const style = getComputedStyle(node);
      return style.visibility === 'visible' && style.display !== 'none';
    };
    const inline_link = (node) => {
      if (node.tagName.toLowerCase() !== 'a' || node.getAttribute('role') === 'button') return false;
      if (getComputedStyle(node).display !== 'inline') return false;
      const parent = node.parentElement;
      return Boolean(parent && [...parent.childNodes].some(
          (c) => c !== node && c.nodeType === 3 && /[A-Za-z]{2,}/.test(c.textContent)));
    };
    const selector = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]';
    for (const node of root.querySelectorAll(selector)) {
      if (except && node.matches(except)) continue;
      if (!visible(node) || inline_link(node)) continue;
      let {width, height} = node.getBoundingClientRect();
      if (node.matches('input[type=checkbox], input[type=radio]')) {
        for (const label of node.labels || []) {
          const box = label.getBoundingClientRect();
          width = Math.max(width, box.width);
          height = Math.max(height, box.height);
        }
      }
      if (width + 0.5 < min || height + 0.5 < min) {
        const name = `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${
            node.getAttribute('class') ? `.${node.getAttribute('class').trim().split(/\s+/).join('.')}` : ''}${
            node.dataset && node.dataset.piece ? `[data-piece=${node.dataset.piece}]` : ''}`;
        failures.push(`${name} "${(node.textContent || node.value || '').trim().slice(0, 24)}" ${
            Math.round(width)}x${Math.round(height)}`);
      }
    }
    return failures;
  }, {scope, min, except});
}
