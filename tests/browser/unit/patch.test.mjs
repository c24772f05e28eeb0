// web-client/patch.js on its own (node --test; run.sh runs it before the browser tests): RFC 7386's
// examples, what a position needs (nested views, arrays replaced whole, null removing), and that neither
// argument is modified while untouched members are shared.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: import the source as one.
const source = readFileSync(new URL('../../../web-client/patch.js', import.meta.url), 'utf8');
const {apply_merge_patch, drop_nulls} =
    await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);

// RFC 7386, appendix A: [target, patch, result].
const kRfcExamples = [
  [{a: 'b'}, {a: 'c'}, {a: 'c'}],
  [{a: 'b'}, {b: 'c'}, {a: 'b', b: 'c'}],
  [{a: 'b'}, {a: null}, {}],
  [{a: 'b', b: 'c'}, {a: null}, {b: 'c'}],
  [{a: ['b']}, {a: 'c'}, {a: 'c'}],
  [{a: 'c'}, {a: ['b']}, {a: ['b']}],
  [{a: {b: 'c'}}, {a: {b: 'd', c: null}}, {a: {b: 'd'}}],
  [{a: [{b: 'c'}]}, {a: [1]}, {a: [1]}],
  [['a', 'b'], ['c', 'd'], ['c', 'd']],
  [{a: 'b'}, ['c'], ['c']],
  [{a: 'foo'}, null, null],
  [{a: 'foo'}, 'bar', 'bar'],
  [{e: null}, {a: 1}, {e: null, a: 1}],
  [[1, 2], {a: 'b', c: null}, {a: 'b'}],
  [{}, {a: {bb: {ccc: null}}}, {a: {bb: {}}}],
];

test('the examples of RFC 7386', () => {
  for (const [target, patch, expected] of kRfcExamples) {
    assert.deepEqual(apply_merge_patch(target, patch), expected, JSON.stringify({target, patch}));
  }
});

test('an empty patch changes nothing; a missing target is an empty object', () => {
  assert.deepEqual(apply_merge_patch({a: 1, b: {c: 2}}, {}), {a: 1, b: {c: 2}});
  assert.deepEqual(apply_merge_patch(undefined, {a: {b: 1, c: null}}), {a: {b: 1}});
  assert.deepEqual(apply_merge_patch(null, {a: 1}), {a: 1});
  assert.deepEqual(apply_merge_patch(3, {a: 1}), {a: 1});
});

test('a play event patches a position: nested members merge, arrays and scalars replace', () => {
  const position = {
    status: 'live',
    turn: 2,
    round: 1,
    to_move: 1,
    side: 'D',
    mid_turn: false,
    clocks: {ms: [287000, 300000], running: 1},
    deadline_ms: null,
    draw_offer: 0,
    result: null,
    view: {rows: ['a..', '.b.', '..c'], score: [0, 0], last: {from: 'e3', to: 'c3'}, stuck: [null, 1]},
  };
  const patch = {
    turn: 3,
    to_move: 0,
    side: 'A',
    draw_offer: null,
    clocks: {ms: [285000, 299000], running: 0},
    view: {rows: ['...', '.b.', '..c'], last: {to: 'd3'}, stuck: [2, null]},
  };
  assert.deepEqual(apply_merge_patch(position, patch), {
    status: 'live',
    turn: 3,
    round: 1,
    to_move: 0,
    side: 'A',
    mid_turn: false,
    clocks: {ms: [285000, 299000], running: 0},
    deadline_ms: null,
    result: null,
    view: {rows: ['...', '.b.', '..c'], score: [0, 0], last: {from: 'e3', to: 'd3'}, stuck: [2, null]},
  });
  // A member set to null goes away; one that then comes back is the patch's value.
  const finished = apply_merge_patch(
      position, {status: 'finished', to_move: null, clocks: null, result: {text: 'A escape', winner: 0}});
  assert.equal('to_move' in finished, false);
  assert.equal('clocks' in finished, false);
  assert.deepEqual(finished.result, {text: 'A escape', winner: 0});
  assert.deepEqual(apply_merge_patch(finished, {clocks: {ms: [1, 2], running: null}}).clocks, {ms: [1, 2]});
});

test('neither argument is modified; what the patch does not touch is shared', () => {
  const target = {turn: 1, clocks: {ms: [5, 6]}, view: {rows: ['x'], score: [1, 2], deep: {a: 1}}};
  const patch = {turn: 2, view: {rows: ['y'], deep: {b: null}}};
  const before = structuredClone({target, patch});
  const result = apply_merge_patch(target, patch);
  assert.deepEqual({target, patch}, before);
  assert.notEqual(result, target);
  assert.notEqual(result.view, target.view);   // patched: a new object
  assert.equal(result.clocks, target.clocks);  // untouched: the same object
  assert.equal(result.view.score, target.view.score);
  assert.deepEqual(result.view.deep, {a: 1});
});

test('applying patches in order gives the same position as applying their merge', () => {
  let position = {a: 1, b: {c: [1], d: 'x'}, e: null};
  const patches = [{a: 2, b: {c: [2, 3]}}, {b: {d: null, f: {g: 1}}}, {e: 5, b: {f: {g: null, h: 2}}}];
  for (const patch of patches) position = apply_merge_patch(position, patch);
  assert.deepEqual(drop_nulls(position), {a: 2, b: {c: [2, 3], f: {h: 2}}, e: 5});
});

test('drop_nulls drops null members at any depth and keeps array elements', () => {
  assert.deepEqual(
      drop_nulls({a: null, b: {c: null, d: [null, {e: null, f: 1}]}, g: 0, h: false, i: ''}),
      {b: {d: [null, {f: 1}]}, g: 0, h: false, i: ''});
  assert.equal(drop_nulls(null), null);
  assert.equal(drop_nulls(7), 7);
});
