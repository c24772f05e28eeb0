// web-client/compose.js on its own (node --test): the composer of a turn (steps tried, undone, confirmed
// in one act; a new turn starts afresh; a server without `try` gets each action at once), the premove (sent
// when the turn comes if legal, else dropped) and the last turn the boards mark.
import assert from 'node:assert/strict';
import {copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: load copies from a directory that has.
const dir = mkdtempSync(path.join(tmpdir(), 'cinq-compose-'));
writeFileSync(path.join(dir, 'package.json'), '{"type": "module"}');
const web = new URL('../../../web-client/', import.meta.url);
for (const name of readdirSync(web).filter((n) => n.endsWith('.js'))) {
  copyFileSync(new URL(name, web), path.join(dir, name));
}
// The few DOM calls the module makes outside a page (notify, the premove's Escape key).
const notices = [];
globalThis.document = {
  documentElement: {},
  addEventListener() {},
  removeEventListener() {},
  getElementById: () => ({append: (item) => notices.push(item.textContent)}),
  createElement: () => ({
    textContent: '',
    setAttribute() {},
    addEventListener() {},
    append(...children) { this.textContent += children.map(String).join(''); },
    remove() {},
    set className(v) {},
  }),
  createTextNode: (text) => text,
};
globalThis.Node = class {};
// The texts in English, as a page that loaded its catalog has them.
mkdirSync(path.join(dir, 'i18n'));
copyFileSync(new URL('i18n/en.js', web), path.join(dir, 'i18n', 'en.js'));
const i18n = await import(path.join(dir, 'i18n.js'));
i18n.use_language('en', {en: (await import(path.join(dir, 'i18n', 'en.js'))).default});
const {Composer, Premove, last_turn_of} = await import(path.join(dir, 'compose.js'));

// A ctx whose `try` answers from `answers` (actions joined by '|' -> answer or an Error).
function fakeCtx(answers, {withTry = true} = {}) {
  const ctx = {sides: ['B', 'R'], acts: [], tries: []};
  ctx.act = (actions, end) => ctx.acts.push({actions, end: Boolean(end)});
  if (withTry) {
    ctx.try = (actions) => {
      ctx.tries.push(actions);
      const answer = answers[actions.join('|')];
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    };
  }
  return ctx;
}

const base = {
  status: 'live',
  turn: 1,
  round: 1,
  to_move: 0,
  mid_turn: false,
  view: {n: 0},
  legal: ['a', 'b'],
  can_end_turn: true
};
const info = {
  mySeat: 0,
  canAct: true,
  event: null,
  replay: false
};
const tried = (n, mid_turn, extra = {}) => ({
  actions: ['x'.repeat(n)],
  position: {status: 'live', turn: 1, round: 1, to_move: mid_turn ? 0 : 1, mid_turn, view: {n}},
  legal: mid_turn ? ['c'] : [],
  ...extra,
});
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('steps are tried, drawn, undone, and the turn is confirmed in one act', async () => {
  const ctx = fakeCtx({'a': tried(1, true, {can_end_turn: true}), 'a|c': tried(2, false)});
  let changes = 0;
  const composer = new Composer(ctx, {on_change: () => ++changes});
  composer.update(base, info);
  composer.add('a');
  assert.equal(composer.busy, true);
  assert.equal(composer.info.canAct, false, 'nothing to click while the answer is awaited');
  await settle();
  assert.deepEqual(composer.steps, ['a']);
  assert.deepEqual(composer.position.view, {n: 1}, 'the tried position is drawn');
  assert.deepEqual(composer.position.legal, ['c']);
  assert.equal(composer.complete, false);
  assert.equal(composer.can_confirm, true, 'the rules allow ending here');
  composer.add('c');
  await settle();
  assert.equal(composer.complete, true);
  assert.equal(composer.info.canAct, false, 'a complete turn leaves only Confirm and Undo');
  assert.deepEqual(composer.buttons().map((b) => b.control), ['undo', 'confirm']);
  // Nothing was played yet.
  assert.equal(ctx.acts.length, 0);
  composer.undo();
  await settle();
  assert.deepEqual(ctx.tries.at(-1), ['a'], 'undo tries the shorter list');
  assert.deepEqual(composer.steps, ['a']);
  composer.add('c');
  await settle();
  composer.confirm();
  assert.deepEqual(
      ctx.acts, [{actions: ['a', 'c'], end: false}], 'one act, no end_turn: the turn ended itself');
  assert.equal(composer.sent, true);
  composer.confirm();
  assert.equal(ctx.acts.length, 1, 'a second click sends nothing');
  assert.ok(changes > 0);
  composer.destroy();
});

test(
    'a turn the rules let end is sent with end_turn; undoing the only step goes back to the room',
    async () => {
      const ctx = fakeCtx({'a': tried(1, true, {can_end_turn: true})});
      const composer = new Composer(ctx);
      composer.update(base, info);
      composer.add('a');
      await settle();
      composer.undo();
      assert.deepEqual(composer.steps, []);
      assert.equal(composer.position, base);
      assert.equal(ctx.tries.length, 1, 'no try to go back to the start');
      composer.add('a');
      await settle();
      composer.confirm();
      assert.deepEqual(ctx.acts, [{actions: ['a'], end: true}]);
      composer.destroy();
    });

test('no Confirm while the turn cannot end (a penalty waits for its move)', async () => {
  const ctx = fakeCtx({'- e5': tried(1, true)});
  const composer = new Composer(ctx);
  composer.update({...base, can_end_turn: false}, info);
  composer.add('- e5');
  await settle();
  assert.deepEqual(composer.buttons().map((b) => b.control), ['undo']);
  composer.confirm();
  assert.equal(ctx.acts.length, 0);
});

test('updates within the turn keep the steps; a new turn starts afresh', async () => {
  const ctx = fakeCtx({'a': tried(1, true)});
  const composer = new Composer(ctx);
  composer.update(base, info);
  composer.add('a');
  await settle();
  composer.update({...base, draw_offer: 1}, info);
  assert.deepEqual(composer.steps, ['a'], 'a draw offer keeps the composition');
  composer.update({...base, turn: 2, to_move: 1}, {...info, canAct: false});
  assert.deepEqual(composer.steps, []);
  assert.equal(composer.position.turn, 2);
});

test('against a server without try, each action is played at once', async () => {
  const unknown = Object.assign(new Error('unknown message type \'try\''), {code: 'unknown_type'});
  const ctx = fakeCtx({'a': unknown});
  const composer = new Composer(ctx);
  composer.update(base, info);
  composer.add('a');
  await settle();
  assert.equal(composer.direct, true);
  assert.deepEqual(ctx.acts, [{actions: ['a'], end: false}]);
  composer.add('b');
  assert.deepEqual(ctx.acts.at(-1), {actions: ['b'], end: false});
  composer.confirm();
  assert.deepEqual(ctx.acts.at(-1), {actions: [], end: true}, 'End turn as before');
  const none = new Composer(fakeCtx({}, {withTry: false}));
  assert.equal(none.direct, true, 'a ctx without try');
});

test('a premove is sent when the turn comes if legal, else dropped with a word', () => {
  const ctx = fakeCtx({});
  const premove = new Premove(ctx);
  const waiting = {...base, to_move: 1};
  const mine = {...info, canAct: false};
  assert.equal(Premove.allowed(waiting, mine), true);
  assert.equal(Premove.allowed(base, info), false, 'not on my own turn');
  assert.equal(Premove.allowed(waiting, {...mine, mySeat: null}), false, 'not for a spectator');
  premove.set({label: 'e3 a3', match: (legal) => legal.find((t) => t.startsWith('e3 a3')) ?? null});
  assert.equal(premove.update(waiting, mine), null, 'kept while the opponent moves');
  assert.equal(premove.update({...base, legal: ['e3 a3 x b3']}, info), 'e3 a3 x b3');
  assert.deepEqual(ctx.acts, [{actions: ['e3 a3 x b3'], end: false}]);
  assert.equal(premove.pending, null);
  premove.set({label: 'e3 a3', match: () => null});
  assert.equal(premove.update({...base, legal: ['b1 b2']}, info), null);
  assert.equal(ctx.acts.length, 1, 'an illegal premove is not sent');
  assert.ok(notices.some((n) => /e3 a3/.test(n)), 'the player is told it was dropped');
  premove.destroy();
});

test('the last turn: the room\'s last_turn first, else the last play event', () => {
  assert.deepEqual(
      last_turn_of({last_turn: {seat: 1, actions: ['a']}}, {event: null}), {seat: 1, actions: ['a']});
  assert.equal(last_turn_of({last_turn: null}, {event: {kind: 'play', seat: 0, actions: ['b']}}), null);
  assert.deepEqual(
      last_turn_of({}, {event: {kind: 'play', seat: 0, actions: ['b']}}), {seat: 0, actions: ['b']});
  assert.equal(last_turn_of({}, {event: {kind: 'play', seat: 0, actions: ['b']}, replay: true}), null);
});
