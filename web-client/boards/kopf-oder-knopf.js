// Kopf oder Knopf board: the 10 x 10 board with the holes of every square, the red and blue buttons, the
// penalty choice and the strikes. It draws position.view and turns clicks into texts taken from
// position.legal; it never computes a rule (what the strike will take comes from view.strike).
// A move alone is sent at once (and may be picked ahead as a premove while the opponent thinks); a penalty
// is composed (compose.js): tried on the server, shown with its strike, then the move, then Confirm sends
// the whole turn. The bar above the board holds the score, the prompt and the buttons.

import {Composer, fit_to_viewport, last_turn_of, Premove, TurnBar} from '../compose.js';
import {t} from '../i18n.js';
import {board_stylesheet, el, lazy} from './kit.js';
const CELL = 40;
const LEFT = 26;  // room for the rank numbers
const TOP = 12;
const SIZE = 10 * CELL;
const WIDTH = LEFT + SIZE + 12;
const HEIGHT = TOP + SIZE + 26;  // room for the file letters
// A side's name ('R' -> 'Red') and one of its buttons in words, in the reader's language.
const color_name = (color) => (color === 'R' || color === 'B' ? t(`kopf-oder-knopf.side.${color}`) : color);
const button_name = (color) => t(color === 'R' ? 'kopf-oder-knopf.button.R' : 'kopf-oder-knopf.button.B');
const SQUARE_RE = '([a-j](?:10|[1-9]))';
const MOVE_RE = new RegExp(`^${SQUARE_RE} ${SQUARE_RE}$`);
const PENALTY_RE = new RegExp(`^- ${SQUARE_RE}$`);

// Where the holes sit in a square, as offsets from its centre (the dice pattern of 1 to 4).
const HOLE_OFFSETS = {
  1: [[0, 0]],
  2: [[-7, -7], [7, 7]],
  3: [[-9, -9], [0, 0], [9, 9]],
  4: [[-7, -7], [7, -7], [-7, 7], [7, 7]],
};

function square_name(col, row) { return 'abcdefghij'[col] + String(row + 1); }

function parse_square(name) { return {col: name.charCodeAt(0) - 97, row: Number(name.slice(1)) - 1}; }

function cell_of(view, name) {
  const {col, row} = parse_square(name);
  return view.board[row][col];
}

// The legal texts sorted by what a click means: moves by their start square, penalties, pass.
function sort_legal(legal) {
  const moves = new Map();
  const penalties = new Map();
  let pass = null;
  for (const text of legal || []) {
    if (typeof text !== 'string') continue;
    const move = MOVE_RE.exec(text);
    const penalty = PENALTY_RE.exec(text);
    if (move) {
      if (!moves.has(move[1])) moves.set(move[1], new Map());
      moves.get(move[1]).set(move[2], text);
    } else if (penalty) {
      penalties.set(penalty[1], text);
    } else if (text === 'pass') {
      pass = text;
    }
  }
  return {moves, penalties, pass};
}

// What changed between two drawn positions, when it reads as one step forward: the buttons that left
// (struck or removed by a penalty) and the move. Anything else (a resync, a replay step backwards) gives
// null, and nothing is marked. This compares pictures only; it decides nothing about the rules.
function diff_views(before, after) {
  if (!before || !after || before.board.length !== after.board.length) return null;
  const gone = [];
  const arrived = [];
  for (let row = 0; row < after.board.length; ++row) {
    for (let col = 0; col < 10; ++col) {
      const a = before.board[row][col];
      const b = after.board[row][col];
      if (a === b) continue;
      if (a !== '.' && b === '.')
        gone.push({sq: square_name(col, row), color: a});
      else if (a === '.' && b !== '.')
        arrived.push({sq: square_name(col, row), color: b});
      else
        return null;
    }
  }
  const removed_before = before.removed.R + before.removed.B;
  const removed_after = after.removed.R + after.removed.B;
  if (arrived.length > 1) return null;
  const move = arrived.length === 1 ? arrived[0] : null;
  let from = null;
  if (move) {
    // The mover's button is the one of its colour that left; the other colour's are the struck ones.
    const own = gone.filter((g) => g.color === move.color);
    if (own.length !== 1) return null;
    from = own[0].sq;
  }
  const struck = gone.filter((g) => g.sq !== from);
  if (removed_after - removed_before !== struck.length) return null;
  if (!move && struck.length === 0) return null;
  return {from, to: move ? move.sq : null, mover: move ? move.color : null, struck};
}

// The marks of a turn from its texts ({seat, actions}): the move, and every button it removed (the penalty
// `- e5`, the strike `x c4 d7`), of the colour opposite the mover's.
function marks_from_turn(turn, sides) {
  const mover = (sides || ['R', 'B'])[turn.seat] || null;
  const other = mover === 'R' ? 'B' : mover === 'B' ? 'R' : null;
  const out = {from: null, to: null, mover, struck: []};
  for (const text of turn.actions || []) {
    const move = MOVE_RE.exec(text);
    if (move) {
      out.from = move[1];
      out.to = move[2];
      continue;
    }
    const removed = /^[-x]((?:\s+[a-j](?:10|[1-9]))+)$/.exec(text.trim());
    if (removed) {
      for (const sq of removed[1].trim().split(/\s+/)) out.struck.push({sq, color: other});
    }
  }
  return out;
}

// The game's options in words, for the forms that choose them (options.js): a label and one line on what the
// option does (docs/rules/kopf-oder-knopf.md).
export const optionWords = lazy(() => ({
  target: {label: t('kopf-oder-knopf.option.target.label'), about: t('kopf-oder-knopf.option.target.about')},
}));

// How many buttons `side` ('R' or 'B') has on the board in `view` (its rows of side letters), for the room's
// capture sound (sound.js); null when the view has no board.
export function pieces_left(view, side) {
  if (!view || !Array.isArray(view.board) || !view.board.every((row) => typeof row === 'string')) return null;
  let count = 0;
  for (const row of view.board) {
    for (const cell of row) count += cell === side ? 1 : 0;
  }
  return count;
}

// The notation's symbols (docs/notation.md) for the move list's legend, and one action in words for its
// "in words" view.
export const notationLegend = lazy(() => [
  ['-', t('kopf-oder-knopf.legend.penalty')],
  ['x', t('kopf-oder-knopf.legend.strike')],
  ['c3 c5', t('kopf-oder-knopf.legend.move')],
  ['pass', t('kopf-oder-knopf.legend.pass')],
], []);
export function actionWords(text) {
  let m = /^-\s+(\S+)$/.exec(text);
  if (m) return t('kopf-oder-knopf.action.penalty', {square: m[1]});
  m = /^x\s+(.+)$/.exec(text);
  if (m) return t('kopf-oder-knopf.action.strike', {squares: m[1].trim().split(/\s+/).join(', ')});
  if (text.trim() === 'pass') return t('kopf-oder-knopf.action.pass');
  m = /^(\S+)\s+(\S+)$/.exec(text);
  return m ? t('kopf-oder-knopf.action.move', {from: m[1], to: m[2]}) : text;
}

export function mount(root, ctx) {
  board_stylesheet('kopf-oder-knopf');
  const bar = new TurnBar('turn-bar-kok');
  const score = document.createElement('span');
  score.className = 'kok-score';
  bar.set_tools([score]);
  const svg = el('svg', {
    class: 'board board-kopf-oder-knopf',
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: 'img',
    'aria-label': t('kopf-oder-knopf.board'),
  });
  root.append(bar.node, svg);
  const fitter = fit_to_viewport(root, svg);
  const composer = new Composer(ctx, {on_change: () => show(), confirm_label: t('kopf-oder-knopf.play_turn')});
  const premove = new Premove(ctx, {on_change: () => draw(false)});

  let base = null;         // the room's position and info
  let before_base = null;  // the room's view before the last change of it (what the last turn changed)
  let base_info = {mySeat: null, canAct: false, event: null, replay: false};
  let position = null;  // what is drawn: the room's, or the tried one after a penalty
  let info = {mySeat: null, canAct: false, event: null, replay: false};
  let view = null;
  let marks = null;  // the marked turn's move and removed buttons
  let selected = null;
  let pre_selected = null;  // a button picked for a premove
  let pending = false;
  let pending_timer = 0;

  const flipped = () => info.mySeat === 1;  // Blue sees its side of the board from the other end
  const xy = (col, row) => {
    const c = flipped() ? 9 - col : col;
    const r = flipped() ? row : 9 - row;
    return {x: LEFT + c * CELL, y: TOP + r * CELL};
  };

  // A move (or pass) alone is the whole turn: sent at once. After a penalty it joins the composed turn.
  function send(text) {
    if (pending) return;
    selected = null;
    if (composer.composing) {
      composer.add(text);
      draw(false);
      return;
    }
    pending = true;
    clearTimeout(pending_timer);
    // If the server refuses, no update comes: let the player try again after a moment.
    pending_timer = setTimeout(() => {
      pending = false;
    }, 2000);
    draw(false);
    ctx.act([text], false);
  }

  // A penalty starts a composed turn: tried on the server, it shows the board after it and its strike.
  function penalty(text) {
    selected = null;
    composer.add(text);
    draw(false);
  }

  function click_square(sq) {
    if (Premove.allowed(base, base_info)) {
      click_premove(sq);
      return;
    }
    if (!info.canAct || info.replay || pending || !position) return;
    const legal = sort_legal(position.legal);
    if (selected && legal.moves.get(selected)?.has(sq)) {
      send(legal.moves.get(selected).get(sq));
      return;
    }
    if (legal.moves.has(sq)) {
      selected = selected === sq ? null : sq;
    } else if (!selected && legal.penalties.has(sq)) {
      penalty(legal.penalties.get(sq));
      return;
    } else {
      selected = null;
    }
    draw(false);
  }

  // --- premoves: while the opponent is to move, one of my buttons and a square it could reach

  const my_color = () => (ctx.sides || ['R', 'B'])[base_info.mySeat] || null;

  // Where a button could land, by the board's geometry alone (its holes: 1 to 3 squares, or 1 to 4 from a
  // 4-hole square, in the 8 directions, on an empty square now). Whether it is legal is the server's word
  // when the turn comes.
  function premove_targets(sq) {
    const out = new Set();
    if (!view || !sq) return out;
    const {col, row} = parse_square(sq);
    const holes = view.holes[row][col];
    const distances = holes === 4 ? [1, 2, 3, 4] : [holes];
    for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]) {
      for (const d of distances) {
        const c = col + dc * d, r = row + dr * d;
        if (c < 0 || c > 9 || r < 0 || r > 9) continue;
        if (view.board[r][c] === '.') out.add(square_name(c, r));
      }
    }
    return out;
  }

  function click_premove(sq) {
    const {col, row} = parse_square(sq);
    const who = view.board[row][col];
    if (pre_selected && premove_targets(pre_selected).has(sq)) {
      const text = `${pre_selected} ${sq}`;
      pre_selected = null;
      premove.set({
        label: text,
        from: text.split(' ')[0],
        to: sq,
        match: (legal) => (legal.includes(text) ? text : null)
      });
      return;
    }
    if (who === my_color() && pre_selected !== sq) {
      pre_selected = sq;
      premove.clear();
    } else {
      pre_selected = null;
      premove.clear();
    }
    draw(false);
  }

  function draw_holes(parent, cx, cy, count, scale, cls) {
    for (const [dx, dy] of HOLE_OFFSETS[count] || []) {
      el('circle', {cx: cx + dx * scale, cy: cy + dy * scale, r: scale === 1 ? 3.4 : 2.3, class: cls},
         parent);
    }
  }

  function draw_button(parent, cx, cy, color, holes, cls) {
    const g = el('g', {class: `kok-button kok-${color} ${cls}`, 'data-piece': color}, parent);
    el('circle', {cx, cy: cy + 1.5, r: 15.5, class: 'kok-button-shadow'}, g);
    el('circle', {cx, cy, r: 15.5, class: 'kok-button-body'}, g);
    el('circle', {cx, cy, r: 12, class: 'kok-button-rim'}, g);
    // The button shows the holes of its square: its move and its strength.
    draw_holes(g, cx, cy, holes, 0.62, 'kok-thread-hole');
    return g;
  }

  function draw_coordinates() {
    for (let i = 0; i < 10; ++i) {
      const file = xy(i, 0);
      el('text', {x: file.x + CELL / 2, y: TOP + SIZE + 17, class: 'kok-coord', 'text-anchor': 'middle'}, svg)
          .textContent = 'abcdefghij'[i];
      const rank = xy(0, i);
      el('text', {x: LEFT - 7, y: rank.y + CELL / 2 + 4, class: 'kok-coord', 'text-anchor': 'end'}, svg)
          .textContent = String(i + 1);
    }
  }

  function draw(animate) {
    svg.replaceChildren();
    svg.classList.toggle('kok-can-act', Boolean(info.canAct && !info.replay));
    el('rect', {x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 10, class: 'kok-frame'}, svg);
    if (!view) return;
    draw_coordinates();
    el('rect', {x: LEFT - 2, y: TOP - 2, width: SIZE + 4, height: SIZE + 4, rx: 3, class: 'kok-edge'}, svg);
    const acting = info.canAct && !info.replay && !pending;
    const legal = acting ? sort_legal(position.legal) : {moves: new Map(), penalties: new Map(), pass: null};
    const targets = selected ? legal.moves.get(selected) || new Map() : new Map();
    const premoving = Premove.allowed(base, base_info);
    const pre_targets = premoving && pre_selected ? premove_targets(pre_selected) : new Set();
    const planned = premove.pending;
    const strike = new Set(view.strike || []);
    const struck_now = new Map((marks?.struck || []).map((g) => [g.sq, g]));
    const overlay = el('g', {class: 'kok-overlay'});
    let moved_button = null;

    // Squares in reading order (top row first, as the player sees them), which is also the Tab order.
    for (let shown_row = 0; shown_row < 10; ++shown_row) {
      for (let shown_col = 0; shown_col < 10; ++shown_col) {
        const row = flipped() ? shown_row : 9 - shown_row;
        const col = flipped() ? 9 - shown_col : shown_col;
        const sq = square_name(col, row);
        const {x, y} = xy(col, row);
        const cx = x + CELL / 2;
        const cy = y + CELL / 2;
        const holes = view.holes[row][col];
        const who = view.board[row][col];
        const g = el('g', {class: 'kok-cell', 'data-square': sq}, svg);
        const classes = [`kok-square`, `kok-h${holes}`, (row + col) % 2 ? 'kok-light' : 'kok-dark'];
        if (marks && (marks.from === sq || marks.to === sq))
          classes.push(marks.composed ? 'kok-composed' : 'kok-last');
        if (planned && (planned.from === sq || planned.to === sq)) classes.push('kok-premove');
        el('rect', {x, y, width: CELL, height: CELL, class: classes.join(' ')}, g);
        draw_holes(g, cx, cy, holes, 1, 'kok-hole');
        const label = [t('kopf-oder-knopf.cell.holes', {square: sq, count: holes})];
        if (who !== '.') {
          const cls = [];
          if (selected === sq || (premoving && pre_selected === sq))
            cls.push('kok-selected');
          else if (legal.moves.has(sq) && !selected)
            cls.push('kok-movable');
          if (strike.has(sq)) cls.push('kok-doomed');
          const button = draw_button(g, cx, cy, who, holes, cls.join(' '));
          if (animate && marks && marks.to === sq) moved_button = button;
          label.push(button_name(who));
          if (strike.has(sq)) {
            label.push(t('kopf-oder-knopf.cell.doomed'));
            const cross = el('g', {class: 'kok-strike-mark'}, overlay);
            el('line', {x1: cx - 11, y1: cy - 11, x2: cx + 11, y2: cy + 11}, cross);
            el('line', {x1: cx + 11, y1: cy - 11, x2: cx - 11, y2: cy + 11}, cross);
          }
        } else if (struck_now.has(sq)) {
          // A button just removed (struck or taken as a penalty): a ghost, flashing when it happens.
          const gone = struck_now.get(sq);
          const ghost = draw_button(
              g, cx, cy, gone.color, holes, animate && !gone.old ? 'kok-ghost kok-ghost-anim' : 'kok-ghost');
          ghost.removeAttribute('data-piece');
          ghost.setAttribute('data-removed', sq);
          const cross = el('g', {class: 'kok-removed-mark'}, overlay);
          el('line', {x1: cx - 8, y1: cy - 8, x2: cx + 8, y2: cy + 8}, cross);
          el('line', {x1: cx + 8, y1: cy - 8, x2: cx - 8, y2: cy + 8}, cross);
          label.push(t('kopf-oder-knopf.cell.removed', {button: button_name(gone.color)}));
        }
        let clickable = false;
        if (targets.has(sq)) {
          g.setAttribute('data-legal', 'true');
          // An empty square's target is a bright ring with a dot, bigger than a button's holes and in
          // another colour, so that on a phone it is not taken for one.
          if (who === '.') {
            el('circle', {cx, cy, r: 13, class: 'kok-target', 'data-target': sq}, g);
            el('circle', {cx, cy, r: 4, class: 'kok-target-dot'}, g);
          } else {
            el('circle', {cx, cy, r: 18, class: 'kok-target-ring', 'data-target': sq}, g);
          }
          label.push(t('kopf-oder-knopf.cell.target'));
          clickable = true;
        } else if (!selected && legal.penalties.has(sq)) {
          g.setAttribute('data-legal', 'true');
          g.setAttribute('data-penalty', 'true');
          el('circle', {cx, cy, r: 18.5, class: 'kok-penalty-ring'}, g);
          label.push(t('kopf-oder-knopf.cell.penalty'));
          clickable = true;
        } else if (legal.moves.has(sq)) {
          g.setAttribute('data-movable', 'true');
          clickable = true;
        } else if (pre_targets.has(sq)) {
          g.setAttribute('data-premove-target', 'true');
          el('circle', {cx, cy, r: 6, class: 'kok-premove-target'}, g);
          label.push(t('kopf-oder-knopf.cell.premove'));
          clickable = true;
        } else if (premoving && who !== '.' && who === my_color()) {
          g.setAttribute('data-premovable', 'true');
          clickable = true;
        }
        if (clickable) {
          g.classList.add('kok-clickable');
          // While a button is chosen, Tab walks its destinations (and the chosen button) only.
          g.setAttribute('tabindex', selected && selected !== sq && !targets.has(sq) ? '-1' : '0');
          g.setAttribute('role', 'button');
        }
        g.setAttribute('aria-label', label.join(', '));
      }
    }
    svg.appendChild(overlay);
    if (marks && marks.from && marks.to) draw_arrow(marks.from, marks.to);
    if (moved_button) {
      // Painted last, so that the squares it slides over do not hide it.
      svg.insertBefore(moved_button.closest('[data-square]'), overlay);
      slide(moved_button, marks.from, marks.to);
    }
    draw_bar(legal);
  }

  function draw_arrow(from, to) {
    const a = parse_square(from);
    const b = parse_square(to);
    const p = xy(a.col, a.row);
    const q = xy(b.col, b.row);
    const x1 = p.x + CELL / 2, y1 = p.y + CELL / 2, x2 = q.x + CELL / 2, y2 = q.y + CELL / 2;
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    el('line', {x1: x1 + ux * 6, y1: y1 + uy * 6, x2: x2 - ux * 17, y2: y2 - uy * 17, class: 'kok-arrow'},
       svg);
  }

  function slide(button, from, to) {
    if (!button.animate || window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const a = parse_square(from);
    const b = parse_square(to);
    const p = xy(a.col, a.row);
    const q = xy(b.col, b.row);
    button.animate(
        [{transform: `translate(${p.x - q.x}px, ${p.y - q.y}px)`}, {transform: 'translate(0, 0)'}],
        {duration: 320, easing: 'ease-out', delay: marks.struck.length ? 250 : 0, fill: 'backwards'});
  }

  // The bar: the score, what to do now, and the buttons of the turn (Pass, Undo and Play after a penalty,
  // End turn when the strike alone wins, Cancel for a premove).
  function draw_bar(legal) {
    if (!view) return;
    score.replaceChildren();
    for (const color of ['R', 'B']) {
      const item = document.createElement('span');
      item.className = `kok-score-item kok-score-${color}`;
      item.setAttribute('data-side', color);
      const dot = document.createElement('span');
      dot.className = `kok-dot kok-dot-${color}`;
      item.append(dot, t('kopf-oder-knopf.score', {side: color_name(color), removed: view.removed[color], target: view.target}));
      item.title = t('kopf-oder-knopf.score_title', {side: color_name(color), count: view.removed[color], target: view.target});
      score.appendChild(item);
    }
    const lines = [];
    const mover = view.to_move;
    const strike = view.strike || [];
    const buttons = [];
    if (marks && marks.struck.length && !marks.composed && !view.mid_turn) {
      const taker = color_name(marks.struck[0].color === 'R' ? 'B' : 'R');
      lines.push(t('kopf-oder-knopf.bar.removed', {side: taker, squares: marks.struck.map((g) => g.sq).join(', ')}));
    }
    if (composer.sent) {
      lines.push(t('kopf-oder-knopf.bar.sent'));
    } else if (composer.busy) {
      lines.push(t('kopf-oder-knopf.bar.trying'));
    } else if (composer.complete) {
      lines.push(t('kopf-oder-knopf.bar.penalty_then', {
        square: composer.steps[0].slice(2),
        steps: composer.steps.slice(1).join(', ') || t('kopf-oder-knopf.bar.no_move'),
      }));
    } else if (view.over) {
      lines.push(t('kopf-oder-knopf.bar.over'));
    } else if (info.canAct && !info.replay) {
      if (view.mid_turn) {
        // After a penalty (composed here, or sent earlier): the move is what is left; there is no "end".
        const after = view.struck_after_penalty || [];
        lines.push(after.length ? t('kopf-oder-knopf.bar.penalty_taken_struck', {squares: after.join(', ')}) :
                                  t('kopf-oder-knopf.bar.penalty_taken'));
      } else {
        if (legal.penalties.size) {
          lines.push(t('kopf-oder-knopf.bar.penalty_offer', {button: button_name(mover === 'R' ? 'B' : 'R')}));
        }
        if (strike.length) {
          // When the strike comes, and whether a penalty taken first would stop it.
          const when = legal.moves.size ? 'move' : legal.pass ? 'pass' : 'now';
          const keys = legal.penalties.size ?
              {move: 'kopf-oder-knopf.bar.strike_unless_move', pass: 'kopf-oder-knopf.bar.strike_unless_pass',
               now: 'kopf-oder-knopf.bar.strike_unless_now'} :
              {move: 'kopf-oder-knopf.bar.strike_move', pass: 'kopf-oder-knopf.bar.strike_pass',
               now: 'kopf-oder-knopf.bar.strike_now'};
          lines.push(t(keys[when], {squares: strike.join(', ')}));
        }
        if (position.can_end_turn && !legal.moves.size)
          lines.push(t('kopf-oder-knopf.bar.end_turn'));
      }
      if (legal.moves.size)
        lines.push(selected ? t('kopf-oder-knopf.bar.moving', {square: selected}) : t('kopf-oder-knopf.bar.pick'));
      if (legal.pass) lines.push(t('kopf-oder-knopf.bar.must_pass'));
    } else if (premove.pending) {
      lines.push(premove.prompt());
    } else {
      if (view.opponent_passed) lines.push(t('kopf-oder-knopf.bar.passed', {side: color_name(mover === 'R' ? 'B' : 'R')}));
      if (strike.length) {
        lines.push(t('kopf-oder-knopf.bar.opponent_strike', {side: color_name(mover), squares: strike.join(', ')}));
      }
      if (view.mid_turn) lines.push(t('kopf-oder-knopf.bar.opponent_penalty', {side: color_name(mover)}));
      if (Premove.allowed(base, base_info)) {
        lines.push(pre_selected ? t('kopf-oder-knopf.bar.premove_from', {square: pre_selected}) :
                                  t('kopf-oder-knopf.bar.premove'));
      } else if (!info.replay && base?.status === 'live') {
        lines.push(t('kopf-oder-knopf.bar.to_move', {side: color_name(mover)}));
      }
    }
    if (legal.pass && info.canAct && !info.replay) {
      buttons.push({label: t('kopf-oder-knopf.pass'), control: 'pass', action: 'pass', onclick: () => send(legal.pass)});
    }
    buttons.push(...composer.buttons());
    buttons.push(...premove.buttons());
    bar.set({
      prompt: lines.join(' '),
      steps: '',
      buttons,
      state: premove.pending          ? 'premove' :
          composer.sent               ? 'sent' :
          composer.complete           ? 'complete' :
          info.canAct && !info.replay ? 'active' :
                                        'waiting',
    });
  }

  svg.addEventListener('click', (e) => {
    const cell = e.target.closest?.('[data-square]');
    if (cell) click_square(cell.getAttribute('data-square'));
  });
  const on_key = (e) => {
    if (e.defaultPrevented) return;
    if (e.key === 'Escape' && pre_selected) {
      pre_selected = null;
      draw(false);
      return;
    }
    if (!e.target.closest?.('[data-square]')) composer.handle_key(e);
  };
  root.addEventListener('keydown', on_key);

  // The marks of the drawn position: the turn being composed, else the last turn (its texts, kept across a
  // reload), else what changed since the room's position before (a replay step).
  function marks_for(next_view) {
    if (composer.composing) {
      const m = marks_from_turn({seat: base_info.mySeat, actions: composer.played}, ctx.sides);
      const other = m.mover === 'R' ? 'B' : 'R';
      // The penalty's own strike (the tried view lists it): struck with the penalty, before the move.
      for (const sq of next_view.struck_after_penalty || []) m.struck.push({sq, color: other});
      m.composed = true;
      return m;
    }
    const last = last_turn_of(base, base_info);
    const diff = diff_views(before_base, base.view);
    if (!last) return diff;
    // The turn's texts name its move and penalty (and its strike, when the record's annotation is given);
    // a strike the texts leave out shows in what changed since the position drawn before.
    const m = marks_from_turn(last, ctx.sides);
    for (const g of diff ? diff.struck : []) {
      if (!m.struck.some((x) => x.sq === g.sq)) m.struck.push(g);
    }
    return m;
  }

  // Draws what the composer holds (the tried position after a penalty, else the room's).
  function show() {
    const next_position = composer.position;
    const next_view = next_position?.view;
    if (!next_view || !Array.isArray(next_view.board)) return;
    const same_board = view && view.board.join('/') === next_view.board.join('/');
    // Updates that leave the board as it was (presence, clocks) keep the marks they had.
    const next_marks =
        same_board && marks && !marks.composed && !composer.composing ? marks : marks_for(next_view);
    const animate = !same_board && Boolean(next_marks && next_marks.to);
    marks = next_marks;
    position = next_position;
    view = next_view;
    info = composer.info;
    const legal = sort_legal(position.legal);
    if (!info.canAct || !legal.moves.has(selected)) selected = null;
    if (!Premove.allowed(base, base_info)) pre_selected = null;
    draw(animate);
    fitter.refit();
  }
  svg.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const cell = e.target.closest?.('[data-square]');
    if (!cell) return;
    e.preventDefault();
    const sq = cell.getAttribute('data-square');
    click_square(sq);
    // Having chosen a button, the keyboard goes on to its first destination.
    const next = selected === sq ? svg.querySelector('[data-legal="true"]') : null;
    (next || svg.querySelector(`[data-square="${sq}"]`))?.focus();
  });

  return {
    owns_end_turn: true,  // End turn (the strike alone wins) and Play are in the bar
    update(next_position, next_info) {
      const next_view = next_position?.view;
      if (!next_view || !Array.isArray(next_view.board)) return;
      if (!base || base.view !== next_view) before_base = base ? base.view : null;
      base = next_position;
      base_info = {mySeat: null, canAct: false, event: null, replay: false, ...(next_info || {})};
      composer.update(base, base_info);
      clearTimeout(pending_timer);
      pending = false;
      // A premove picked during the opponent's turn is played (or dropped) as soon as the turn comes.
      if (premove.update(base, base_info)) pending = true;
      show();
    },
    destroy() {
      clearTimeout(pending_timer);
      composer.destroy();
      premove.destroy();
      fitter.dispose();
      root.removeEventListener('keydown', on_key);
      bar.node.remove();
      svg.remove();
    },
  };
}
