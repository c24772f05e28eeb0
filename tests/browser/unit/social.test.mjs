// web-client/sound.js on its own (node --test; run.sh runs it before the browser tests): which plays count as
// captures in each game's view (its board's pieces_left; samples in tests/browser/games/GAME.mjs), and that
// the module plays nothing and records nothing while muted.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: import the source as one.
const source = readFileSync(new URL('../../../web-client/sound.js', import.meta.url), 'utf8');
const {is_capture, sound} = await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
// The games as the server describes them: `cinq games --json` prints the table GET /api/games/table serves.
const kGames = JSON.parse(execFileSync(process.env.CINQ_BINARY, ['games', '--json'], {encoding: 'utf8'})).games;

test('a play is a capture where the game\'s board counts fewer of the opponent\'s pieces after it', async () => {
  for (const {name} of kGames) {
    const board = await import(new URL(`../../../web-client/boards/${name}.js`, import.meta.url));
    assert.equal(typeof board.pieces_left, 'function', `boards/${name}.js exports pieces_left(view, side)`);
    const {captures} = await import(`../games/${name}.mjs`);
    assert.ok(Array.isArray(captures) && captures.length, `games/${name}.mjs has capture samples`);
    for (const {before, after, opponent, capture} of captures) {
      assert.equal(is_capture(before, after, opponent, board.pieces_left), capture,
                   `${name}: ${JSON.stringify(before)} to ${JSON.stringify(after)}`);
    }
    assert.equal(is_capture(null, captures[0].after, captures[0].opponent, board.pieces_left), false, name);
  }
  // Without a count (the board module not loaded yet) no play is a capture.
  assert.equal(is_capture({counts: {A: 2}}, {counts: {A: 1}}, 'A', null), false);
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
