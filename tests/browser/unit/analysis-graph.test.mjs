// web-client/analysis-graph.js on its own (node --test): the evaluation graph's points (the first seat's
// chance, turn by turn, marks kept) and the record that replays a best turn in place of the one played.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

const source = readFileSync(new URL('../../../web-client/analysis-graph.js', import.meta.url), 'utf8');
const {best_turn_record, graph_points, header_line} =
    await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);

test('the graph follows the first seat\'s chance: the start before turn 1, then after each turn', () => {
  const turns = [
    {seat: 0, eval: 0.5, after: 0.6},
    {seat: 1, eval: 0.4, after: 0.9, mark: 'blunder'},
    {seat: 0, eval: 0.1, after: 1},
  ];
  const points = graph_points(turns, 300, 100);
  assert.equal(points.length, 4);
  assert.deepEqual(points.map((p) => p.index), [0, 1, 2, 3]);
  assert.deepEqual(points.map((p) => p.x), [0, 100, 200, 300]);
  // y: 0 at the top (the first seat sure to win), 100 at the bottom.
  assert.deepEqual(points.map((p) => Math.round(p.y)), [50, 40, 90, 0]);
  assert.equal(points[2].mark, 'blunder');
  assert.equal(points[1].mark, null);
  assert.deepEqual(graph_points([], 300, 100), []);
});

test('a best turn replaces the turn played, after the turns before it, rounds kept', () => {
  const turns = [
    {section: 1, text: 'M/x c5/'},
    {section: 1, text: 'T/A2 ^1/'},
    {section: 2, text: 'M/x d4/'},
    {section: 2, text: 'T/B1 >1/'},
  ];
  assert.equal(best_turn_record('#! BI-LITAIRE', turns, 2, 'T/A4 >1/'), '#! BI-LITAIRE\nM/x c5/\nT/A4 >1/\n');
  assert.equal(best_turn_record('#! BI-LITAIRE', turns, 3, 'M/x e5/'),
               '#! BI-LITAIRE\nM/x c5/\nT/A2 ^1/\n#- 2\nM/x e5/\n');
  assert.equal(best_turn_record('#! TABLUT', [{section: 1, text: 'A/e8 i8/'}], 1, 'A/e2 c2/'), '#! TABLUT\nA/e2 c2/\n');
  assert.equal(header_line('A = x\n  #! TABLUT king=armed\n1 A/e8 i8/\n'), '#! TABLUT king=armed');
});
