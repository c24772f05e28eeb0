// The analysis's arithmetic (analysis-view.js draws it): the evaluation graph's points and the record that
// shows a best turn on the board. No imports: unit-tested on its own (tests/browser/unit/analysis-graph.test.mjs).

// The graph's points: x by turn (0 the start), y the first seat's win chance (1 at the top). `turns` are the
// analysis's; the point of turn k (from 1) is the chance after it. Pure, for the unit test.
export function graph_points(turns, width, height) {
  const n = (turns || []).length;
  if (!n) return [];
  const chance0 = (turn, after) => {
    const mover = after ? turn.after : turn.eval;
    return turn.seat === 0 ? mover : 1 - mover;
  };
  const x = (i) => (n === 0 ? 0 : (i / n) * width);
  const y = (p) => (1 - Math.max(0, Math.min(1, p))) * height;
  const points = [{index: 0, x: 0, y: y(chance0(turns[0], false)), mark: null}];
  turns.forEach((turn, i) => points.push({index: i + 1, x: x(i + 1), y: y(chance0(turn, true)), mark: turn.mark || null}));
  return points;
}

// A record that plays the game's first `index - 1` turns, then `best` instead of turn `index`: one turn a
// line, unnumbered (docs/notation.md: such a line takes the number that follows), a `#- N` line where a
// Batik game or Bi-litaire round begins. `header` is the record's `#!` line; `turns` the move list's.
export function best_turn_record(header, turns, index, best) {
  const lines = [header];
  let section = 1;
  const open = (s) => {
    if (s !== section) lines.push(`#- ${s}`);
    section = s;
  };
  for (const turn of turns.slice(0, index - 1)) {
    open(turn.section || 1);
    lines.push(turn.text);
  }
  const replaced = turns[index - 1];
  open((replaced && replaced.section) || section);
  lines.push(best);
  return `${lines.join('\n')}\n`;
}

// The record's `#!` line.
export function header_line(record) {
  return String(record || '').split('\n').map((l) => l.trim()).find((l) => l.startsWith('#!')) || '';
}
