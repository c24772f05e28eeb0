// web-client/sound.js on its own (node --test; run.sh runs it before the browser tests): which plays count as
// captures in each game's view, and that the module plays nothing and records nothing while muted.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: import the source as one.
const source = readFileSync(new URL('../../../web-client/sound.js', import.meta.url), 'utf8');
const {is_capture, side_pieces, sound} =
    await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);

test('Tablut: a capture lowers the opponent\'s count', () => {
  const before = {counts: {A: 16, D: 9}};
  assert.equal(is_capture(before, {counts: {A: 15, D: 9}}, 'A'), true);
  assert.equal(is_capture(before, {counts: {A: 16, D: 9}}, 'A'), false);
  // The mover's own pieces are not the opponent's.
  assert.equal(is_capture(before, {counts: {A: 16, D: 8}}, 'A'), false);
});

test('Kopf oder Knopf: the board rows lose a piece of the opponent\'s letter', () => {
  const before = {board: ['RR..', '..BB', '....']};
  assert.equal(side_pieces(before, 'B'), 2);
  assert.equal(is_capture(before, {board: ['RR..', '...B', '..R.']}, 'B'), true);
  assert.equal(is_capture(before, {board: ['RR..', '..BB', '..R.']}, 'B'), false);
});

test('Batik: a piece of the opponent falls off (its side\'s `lost` grows)', () => {
  const before = {sides: [{side: 'L', lost: []}, {side: 'D', lost: ['d3']}]};
  const after = {sides: [{side: 'L', lost: []}, {side: 'D', lost: ['d3', 'd5']}]};
  assert.equal(is_capture(before, after, 'D'), true);
  assert.equal(is_capture(before, after, 'L'), false);
});

test('games without pieces of a side (Baltek, Bi-litaire) have no captures', () => {
  assert.equal(side_pieces({footballers: [], ball: 'f3'}, 'B'), null);
  assert.equal(is_capture({rows: ['oo+']}, {rows: ['+o+']}, 'T'), false);
  assert.equal(is_capture(null, {counts: {A: 1}}, 'A'), false);
});

test('muted: nothing is played or recorded, and the choice is stored', () => {
  const stored = new Map();
  globalThis.localStorage = {
    getItem: (key) => (stored.has(key) ? stored.get(key) : null),
    setItem: (key, value) => stored.set(key, String(value)),
    removeItem: (key) => stored.delete(key),
  };
  try {
    sound.muted = true;
    assert.equal(stored.get('cinq.sound.muted'), '1');
    sound.play('move');
    assert.deepEqual(sound.played, []);
    sound.muted = false;
    assert.equal(stored.has('cinq.sound.muted'), false);
    // No AudioContext in Node: the play is recorded and the page stays silent, without an exception.
    sound.play('capture');
    sound.play('no such sound');
    assert.deepEqual(sound.played, ['capture']);
  } finally {
    delete globalThis.localStorage;
  }
});
