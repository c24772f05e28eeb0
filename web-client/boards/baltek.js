// Baltek board (rules: docs/rules/baltek.md): the field, the two goals, the footballers with their
// strength and the ball, drawn as SVG. A turn is composed action by action: pick a footballer to run or
// sprint, or the ball to kick (each target shows what it costs). Each action is tried on the server
// (compose.js): the field shows the turn as it would stand, Undo takes a step back, and "Confirm turn" in
// the bar above the field sends the whole turn at once. No rules here: every target comes from the legal
// actions the server gives (for the real position, or for the tried one).

import {Composer, fit_to_viewport, last_turn_of, TurnBar} from '../compose.js';
import {t} from '../i18n.js';
import {board_stylesheet, lazy, svg} from './kit.js';

const kCell = 80;                // a field square, in SVG units
const kGoalDepth = kCell * 0.6;  // the goals are drawn shallower than a square
const kMargin = 30;              // room for the coordinates
// A side's name ('B' -> 'Blue') in the reader's language, from the game's catalog.
const side_name = (letter) => (letter === 'B' || letter === 'R' ? t(`baltek.side.${letter}`) : letter);
const kColumns = 'abcdefghijkl';

// Column index 0..11 (a..l) and row index 0..4 of a square name like "f3".
function parse_square(name) { return {c: kColumns.indexOf(name[0]), r: Number(name.slice(1)) - 1}; }

// The legal texts of this moment, sorted by what they move: runs and sprints by footballer square, kicks
// by destination (the kicker is whoever holds the ball). `side` resolves the shot's "#" to a goal square.
export function classify_legal(legal, side) {
  const runs = new Map();   // from -> Map(to -> {text, sprint})
  const kicks = new Map();  // to -> {text, cost, shot}
  for (const text of legal) {
    let m = /^([a-l][1-5])(\*?)\s+([a-l][1-5])$/.exec(text);
    if (m) {
      const [, from, star, to] = m;
      if (!runs.has(from)) runs.set(from, new Map());
      const targets = runs.get(from);
      // A plain run beats a sprint to the same square: the same move without spending the bonus.
      if (!targets.has(to) || (targets.get(to).sprint && !star)) targets.set(to, {text, sprint: !!star});
      continue;
    }
    m = /^@([+!]*)\s+(#|[a-l][1-5])$/.exec(text);
    if (m) {
      const [, marks, dest] = m;
      const to = dest === '#' ? (side === 'B' ? 'l3' : 'a3') : dest;
      const cost = 1 + marks.length;
      if (!kicks.has(to) || kicks.get(to).cost > cost)
        kicks.set(to, {text, cost, shot: to === 'a3' || to === 'l3'});
    }
  }
  return {runs, kicks};
}

// Where things go on screen: landscape (a on the left) or portrait (a at the bottom) for narrow screens,
// turned half a turn for Red so that each player defends the goal nearest to them.
function make_layout(portrait, flipped) {
  const long = 2 * kGoalDepth + 10 * kCell;
  const header = portrait ? 104 : 72;
  const width = portrait ? kMargin + 5 * kCell + 10 : kMargin + long + 10;
  const height = header + (portrait ? long : 5 * kCell) + kMargin;
  const along = (c) =>
      (c === 0      ? [0, kGoalDepth] :
           c === 11 ? [kGoalDepth + 10 * kCell, long] :
                      [kGoalDepth + (c - 1) * kCell, kGoalDepth + c * kCell]);
  // The rectangle of square (c, r), c 0..11, r 0..4.
  const rect = (c0, r0) => {
    const c = flipped ? 11 - c0 : c0;
    const r = flipped ? 4 - r0 : r0;
    const [a0, a1] = along(c);
    if (portrait) return {x: kMargin + r * kCell, y: header + long - a1, w: kCell, h: a1 - a0};
    return {x: kMargin + a0, y: header + (4 - r) * kCell, w: a1 - a0, h: kCell};
  };
  const field = portrait ? {x: kMargin, y: header + kGoalDepth, w: 5 * kCell, h: 10 * kCell} :
                           {x: kMargin + kGoalDepth, y: header, w: 10 * kCell, h: 5 * kCell};
  return {portrait, flipped, width, height, header, rect, field};
}

function square_exists(c, r) { return (c >= 1 && c <= 10) || ((c === 0 || c === 11) && r === 2); }

function all_squares() {
  const out = [];
  for (let c = 0; c < 12; ++c)
    for (let r = 0; r < 5; ++r)
      if (square_exists(c, r)) out.push(kColumns[c] + (r + 1));
  return out;
}

// The game's options in words, for the forms that choose them (options.js): a label, one line on what the
// option does (docs/rules/baltek.md), and the word for "not set".
export const optionWords = lazy(() => ({
  goals: {label: t('baltek.option.goals.label'), about: t('baltek.option.goals.about')},
  turns: {
    label: t('baltek.option.turns.label'),
    about: t('baltek.option.turns.about'),
    choices: {off: t('baltek.option.turns.off')},
  },
}));

// The room's capture sound (sound.js) asks how many pieces a side has left: none to lose here (the
// footballers stay on the field), so null.
export function pieces_left() { return null; }

// The notation's symbols (docs/notation.md) for the move list's legend, and one action in words for its
// "in words" view.
export const notationLegend = lazy(() => [
  ['g3 f3', t('baltek.legend.run')],
  ['*', t('baltek.legend.sprint')],
  ['@', t('baltek.legend.kick')],
  ['#', t('baltek.legend.shot')],
  ['+', t('baltek.legend.duel')],
  ['!', t('baltek.legend.lob')],
], []);
export function actionWords(text) {
  let m = /^([a-l][1-5])(\*?)\s+([a-l][1-5])$/.exec(text);
  if (m) return t(m[2] ? 'baltek.action.sprint' : 'baltek.action.run', {from: m[1], to: m[3]});
  m = /^@([+!]*)\s+(#|[a-l][1-5])$/.exec(text);
  if (!m) return text;
  const duels = (m[1].match(/\+/g) || []).length;
  const lobs = (m[1].match(/!/g) || []).length;
  const extra = [duels ? t('baltek.action.duel') : '', lobs ? t('baltek.action.lob') : ''].filter(Boolean).join(', ');
  const what = m[2] === '#' ? t('baltek.action.shoot') : t('baltek.action.kick', {square: m[2]});
  return extra ? t('baltek.action.with_extra', {what, extra, points: 1 + duels + lobs}) : what;
}

export function mount(root, ctx) {
  board_stylesheet('baltek');
  const narrow = window.matchMedia('(max-width: 600px)');
  const state = {
    position: null,  // what is drawn: the room's position, or the tried one while a turn is composed
    info: null,
    selected: null,
    base_view: null,  // the room's view as last drawn (not a tried one)
    turn_ball: null,  // where the ball was when the last turn began, when this board saw it
    arrows: [],       // the marks: [{kind: 'run'|'kick', from, to, composed}]
    changed: new Set(),
  };
  let layout = null;
  let el = {};  // the SVG parts kept between updates
  const bar = new TurnBar('turn-bar-baltek');
  const composer = new Composer(ctx, {on_change: () => show_composed()});
  let fitter = null;

  function build() {
    layout = make_layout(narrow.matches, state.info?.mySeat === 1);
    const s = svg('svg', {
      class: `board board-baltek ${layout.portrait ? 'portrait' : 'landscape'}`,
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      role: 'group',
      'aria-label': t('baltek.field'),
    });
    const defs = svg('defs');
    const net =
        svg('pattern', {id: 'baltek-net', width: 8, height: 8, patternUnits: 'userSpaceOnUse'},
            svg('path', {d: 'M0 0 L8 8 M8 0 L0 8', class: 'net-line'}));
    defs.append(net);
    s.append(defs);
    el = {
      svg: s,
      header: svg('g', {class: 'header'}),
      field: svg('g', {class: 'bk-field'}),
      marks: svg('g', {class: 'marks', 'pointer-events': 'none'}),
      pieces: svg('g', {class: 'pieces', 'pointer-events': 'none'}),
      targets: svg('g', {class: 'targets', 'pointer-events': 'none'}),
      labels: svg('g', {class: 'target-labels', 'pointer-events': 'none'}),
      cells: svg('g', {class: 'cells'}),
      ball: null,
      footballers: new Map(),
      cell: new Map()
    };
    draw_field();
    s.append(el.header, el.field, el.marks, el.targets, el.pieces, el.labels, el.cells);
    el.ball =
        svg('g', {class: 'ball', 'data-piece': 'ball'},
            // A wider, invisible disc around the ball: what a finger taps to pick it.
            svg('circle', {r: kCell * 0.22, class: 'ball-hit'}), svg('circle', {r: kCell * 0.15, class: 'ball-body'}),
            svg('path', {class: 'ball-patch', d: ball_patch(kCell * 0.15)}));
    s.append(el.ball);
    s.addEventListener('click', on_click);
    s.addEventListener('keydown', on_key);
    const arrow =
        svg('marker', {
          id: 'baltek-arrow',
          viewBox: '0 0 10 10',
          refX: 7,
          refY: 5,
          markerWidth: 4,
          markerHeight: 4,
          orient: 'auto-start-reverse'
        },
            svg('path', {d: 'M0 0 L10 5 L0 10 Z', class: 'arrow-head'}));
    defs.append(arrow);
    root.replaceChildren(bar.node, s);
    fitter?.dispose();
    fitter = fit_to_viewport(root, s);
  }

  function ball_patch(r) {
    const p = [];
    for (let i = 0; i < 5; ++i) {
      const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
      p.push(`${(Math.cos(a) * r * 0.45).toFixed(2)} ${(Math.sin(a) * r * 0.45).toFixed(2)}`);
    }
    return `M${p.join(' L')} Z`;
  }

  function draw_field() {
    const {rect, field, portrait} = layout;
    const g = el.field;
    // Mown stripes across the long axis, then the lines.
    for (let c = 1; c <= 10; ++c) {
      const a = rect(c, 0), b = rect(c, 4);
      const x = Math.min(a.x, b.x), y = Math.min(a.y, b.y);
      const w = portrait ? 5 * kCell : a.w, h = portrait ? a.h : 5 * kCell;
      g.append(svg('rect', {x, y, width: w, height: h, class: c % 2 ? 'turf' : 'turf alt'}));
    }
    g.append(
        svg('rect', {x: field.x, y: field.y, width: field.w, height: field.h, class: 'line', fill: 'none'}));
    const cx = field.x + field.w / 2, cy = field.y + field.h / 2;
    if (portrait)
      g.append(svg('line', {x1: field.x, y1: cy, x2: field.x + field.w, y2: cy, class: 'line'}));
    else
      g.append(svg('line', {x1: cx, y1: field.y, x2: cx, y2: field.y + field.h, class: 'line'}));
    g.append(svg('circle', {cx, cy, r: kCell * 0.9, class: 'line', fill: 'none'}));
    for (const name of ['f3', 'g3']) {  // the kickoff marks
      const {c, r} = parse_square(name);
      const q = rect(c, r);
      g.append(svg('circle', {cx: q.x + q.w / 2, cy: q.y + q.h / 2, r: 4, class: 'spot'}));
    }
    for (const name of ['a3', 'l3']) {
      const {c, r} = parse_square(name);
      const q = rect(c, r);
      g.append(
          svg('rect',
              {x: q.x, y: q.y, width: q.w, height: q.h, class: `goal goal-${name === 'a3' ? 'B' : 'R'}`}));
      g.append(svg(
          'rect', {x: q.x, y: q.y, width: q.w, height: q.h, fill: 'url(#baltek-net)', class: 'goal-net'}));
    }
    // Coordinates: columns along the long side, rows along the short side, as notation.md names squares.
    for (let c = 0; c < 12; ++c) {
      const q = rect(c, 2);
      const t =
          portrait ? {x: kMargin / 2, y: q.y + q.h / 2} : {x: q.x + q.w / 2, y: layout.height - kMargin / 2};
      g.append(svg('text', {x: t.x, y: t.y, class: 'coord'}, kColumns[c]));
    }
    for (let r = 0; r < 5; ++r) {
      const q = rect(1, r);
      const t =
          portrait ? {x: q.x + q.w / 2, y: layout.height - kMargin / 2} : {x: kMargin / 2, y: q.y + q.h / 2};
      g.append(svg('text', {x: t.x, y: t.y, class: 'coord'}, String(r + 1)));
    }
    // The clickable squares, on top of the drawing (the ball alone sits above them).
    for (const name of all_squares()) {
      const {c, r} = parse_square(name);
      const q = rect(c, r);
      const cell = svg('rect', {x: q.x, y: q.y, width: q.w, height: q.h, class: 'cell', 'data-square': name});
      el.cells.append(cell);
      el.cell.set(name, cell);
    }
  }

  function center(name) {
    const {c, r} = parse_square(name);
    const q = layout.rect(c, r);
    return {x: q.x + q.w / 2, y: q.y + q.h / 2, q};
  }

  function footballer_node(side, strength) {
    const g = svg('g', {
      class: `footballer side-${side}${strength === 3 ? ' captain' : ''}`,
      'data-piece': `${side}${strength}`
    });
    g.append(svg('circle', {r: kCell * 0.3, class: 'body'}));
    g.append(svg('text', {class: 'strength', y: 1}, String(strength)));
    g.append(svg('circle', {r: kCell * 0.07, cx: kCell * 0.22, cy: -kCell * 0.22, class: 'kicked-mark'}));
    return g;
  }

  // Footballers and the ball keep their nodes between updates, so CSS transitions make them glide.
  function draw_pieces(view) {
    const by_square = new Map();
    view.footballers.forEach((f, i) => {
      if (!by_square.has(f.square)) by_square.set(f.square, []);
      by_square.get(f.square).push(i);
    });
    const my_turn_side = view.to_move;
    view.footballers.forEach((f, i) => {
      const key = `${f.side}${i}`;
      let node = el.footballers.get(key);
      if (!node) {
        node = footballer_node(f.side, f.strength);
        el.footballers.set(key, node);
        el.pieces.append(node);
      }
      const {x, y} = center(f.square);
      // Two footballers on one square (one of each team: never two teammates) stand side by side in its
      // upper half, each smaller, so that both numbers read and neither hides the other or the ball below.
      const shared = by_square.get(f.square).length > 1;
      const dx = shared ? (f.side === 'B' ? -1 : 1) * kCell * 0.21 : 0;
      const k = shared ? 0.62 : 1;
      node.style.transform = `translate(${x + dx}px, ${y - (shared ? kCell * 0.12 : 0)}px) scale(${k})`;
      node.setAttribute('data-at', f.square);
      node.setAttribute('data-shared', String(shared));
      node.classList.toggle('ran', f.side === my_turn_side && f.ran);
      node.classList.toggle('kicked', f.side === my_turn_side && f.kicked);
      node.classList.toggle(
          'selected',
          state.selected?.kind === 'run' && state.selected.square === f.square &&
              f.side === state.position?.side);
    });
    const b = center(view.ball);
    const off = kCell * 0.27;
    const bx = b.x + Math.min(off, b.q.w / 2 - kCell * 0.16), by = b.y + off;
    el.ball.style.transform = `translate(${bx}px, ${by}px)`;
    el.ball.setAttribute('data-at', view.ball);
  }

  function draw_header(view) {
    const g = el.header;
    g.replaceChildren();
    const w = layout.width;
    const names = ctx.seatNames || [];
    const trim = (s, n) => (s && s.length > n ? s.slice(0, n - 1) + '…' : s || '');
    const n = layout.portrait ? 12 : 22;
    const y1 = 26;
    // Each team's name stands on the side of the goal it defends (Red's on the left when the field is
    // turned).
    const order = layout.flipped ? [1, 0] : [0, 1];
    const team = (i, x, anchor) => {
      const star = svg('tspan', {class: 'bonus'}, view.bonus[i] ? '★' : '☆');
      const name = trim(names[i], n) || side_name(ctx.sides?.[i] || 'BR'[i]);
      const text = svg('text', {x, y: y1, class: `team team-${'BR'[i]}`, 'text-anchor': anchor});
      if (anchor === 'start')
        text.append(star, ' ' + name);
      else
        text.append(name + ' ', star);
      return text;
    };
    const score =
        svg('text', {x: w / 2, y: layout.portrait ? 62 : y1, class: 'score'},
            `${view.score[order[0]]} – ${view.score[order[1]]}`);
    g.append(team(order[0], kMargin, 'start'), team(order[1], w - 10, 'end'), score);
    g.append(svg('title', {},
                 t('baltek.score_title', {blue: view.score[0], red: view.score[1], target: view.goal_target})));
    // The turn line: who moves, the points left as pips, the bonus, and a hint of what a click does.
    const y2 = layout.portrait ? 94 : 58;
    // While a turn is composed the tried position may already be the opponent's (the points are spent):
    // the side to move changes on the board only once the turn is sent.
    const base = state.base_view;
    const composing = composer.composing && base && base.to_move !== view.to_move;
    const mover = composing ? base.to_move : view.to_move;
    const points = composing ? 0 : view.points;
    const status = state.position?.status;
    const line = svg('g', {class: `turn-line side-${mover}`});
    const live = !status || status === 'live';
    line.append(svg(
        'text', {x: kMargin, y: y2, class: 'status', 'data-mover': mover},
        live || state.info?.replay ? t('baltek.status.to_move', {side: side_name(mover)}) :
                                     t('baltek.status.first_to', {count: view.goal_target})));
    if (live) {
      const startx = kMargin + 124;
      for (let i = 0; i < Math.max(3, points); ++i) {
        line.append(svg(
            'circle', {cx: startx + i * 18, cy: y2 - 6, r: 6, class: i < points ? 'pip full' : 'pip'}));
      }
      const bonus_left = view.bonus[mover === 'B' ? 0 : 1];
      line.append(
          svg('text', {x: startx + 3 * 18 - 2, y: y2, class: 'status'},
              t(bonus_left ? 'baltek.status.points_bonus' : 'baltek.status.points', {count: points})));
      line.append(
          svg('title', {}, t(bonus_left ? 'baltek.status.title_bonus' : 'baltek.status.title_spent', {count: points})));
    }
    g.append(line);
  }

  function hint_text() {
    const view = state.position?.view;
    if (composer.sent) return t('baltek.hint.sent');
    if (composer.busy) return t('baltek.hint.trying');
    if (composer.complete) {
      return view && state.base_view && view.score.some((g, i) => g !== state.base_view.score[i]) ?
          t('baltek.hint.goal') :
          t('baltek.hint.no_action');
    }
    if (!state.info?.canAct) {
      const status = state.position?.status;
      if (status && status !== 'live') return '';
      if (state.info?.replay || !view) return '';
      const mover = side_name(view.to_move);
      return state.info?.mySeat === null || state.info?.mySeat === undefined ?
          t('baltek.hint.to_move', {side: mover}) : t('baltek.hint.waiting', {side: mover});
    }
    const points = t('baltek.hint.points_left', {count: view.points});
    if (state.selected?.kind === 'run') return t('baltek.hint.run', {points});
    if (state.selected?.kind === 'kick') return t('baltek.hint.kick', {points});
    // The ball sits on its holder's square: say that it is picked by itself (a tap on it, or Ball).
    const ball = legal_now().kicks.size > 0 ? t('baltek.hint.ball') : '';
    return composer.composing ? t('baltek.hint.composing', {points, ball}) : t('baltek.hint.your_turn', {points, ball});
  }

  // Picks the ball to kick it (the bar's "Ball" button, the same as a tap on the ball).
  function select_ball() {
    const view = state.position?.view;
    if (!view || !state.info?.canAct || legal_now().kicks.size === 0) return;
    state.selected = {kind: 'kick', square: view.ball};
    render();
  }

  function draw_bar() {
    const kickable = Boolean(state.info?.canAct && !composer.complete && !composer.sent && legal_now().kicks.size > 0);
    const ball_button = kickable ?
        [{label: t('baltek.ball_button'), control: 'select-ball', title: t('baltek.ball_button_title'), onclick: select_ball,
          disabled: state.selected?.kind === 'kick'}] :
        [];
    bar.set({
      prompt: hint_text(),
      steps: composer.composing ? composer.played.join(' · ') : '',
      buttons: [...ball_button, ...composer.buttons()],
      state: composer.sent   ? 'sent' :
          composer.complete  ? 'complete' :
          state.info?.canAct ? 'active' :
                               'waiting',
    });
  }

  function legal_now() {
    if (!state.info?.canAct || !state.position) return {runs: new Map(), kicks: new Map()};
    return classify_legal(state.position.legal || [], state.position.side || state.position.view?.to_move);
  }

  function draw_marks(view, moves) {
    el.marks.replaceChildren();
    const squares = new Set(state.changed);
    for (const a of state.arrows) squares.add(a.from).add(a.to);
    squares.delete(null);
    const composed = state.arrows.some((a) => a.composed);
    for (const name of squares) {
      const {q} = center(name);
      el.marks.append(svg('rect', {
        x: q.x + 3,
        y: q.y + 3,
        width: q.w - 6,
        height: q.h - 6,
        class: composed ? 'last-move composed' : 'last-move',
        'data-mark': composed ? 'composed' : 'last'
      }));
    }
    for (const a of state.arrows) {
      if (!a.from) continue;
      const p = center(a.from), t = center(a.to);
      const dx = t.x - p.x, dy = t.y - p.y;
      const len = Math.hypot(dx, dy) || 1;
      const cut = kCell * 0.28;
      el.marks.append(svg('line', {
        x1: p.x + dx / len * cut * 0.6,
        y1: p.y + dy / len * cut * 0.6,
        x2: t.x - dx / len * cut,
        y2: t.y - dy / len * cut,
        class: `turn-arrow arrow-${a.kind}${a.composed ? ' composed' : ''}`,
        'marker-end': 'url(#baltek-arrow)',
        'data-arrow': `${a.from} ${a.to}`
      }));
    }
    // Selectable things: my footballers that can run, the ball when it can be kicked.
    for (const from of moves.runs.keys()) {
      const {q} = center(from);
      el.marks.append(svg('rect', {
        x: q.x + 3,
        y: q.y + 3,
        width: q.w - 6,
        height: q.h - 6,
        rx: 8,
        class: state.selected?.square === from && state.selected.kind === 'run' ? 'selectable chosen' :
                                                                                  'selectable'
      }));
    }
    el.ball.classList.toggle('selectable', moves.kicks.size > 0);
    el.ball.classList.toggle('chosen', state.selected?.kind === 'kick');
    el.ball.setAttribute('tabindex', moves.kicks.size > 0 ? '0' : '-1');
    // A button only while it can be kicked (the bar's "Ball" is the same, at a finger's size).
    if (moves.kicks.size > 0)
      el.ball.setAttribute('role', 'button');
    else
      el.ball.removeAttribute('role');
    el.ball.setAttribute('aria-label', t('baltek.ball_on', {square: view.ball}));
  }

  function targets_of_selection(moves) {
    const out = new Map();  // square -> {text, label, kind}
    const sel = state.selected;
    if (!sel) return out;
    if (sel.kind === 'run') {
      for (const [to, run] of moves.runs.get(sel.square) || [])
        out.set(to, {text: run.text, kind: run.sprint ? 'sprint' : 'run'});
    } else {
      for (const [to, k] of moves.kicks)
        out.set(to, {text: k.text, kind: k.shot ? 'shot' : 'kick', cost: k.cost});
    }
    return out;
  }

  function draw_targets(targets, moves) {
    el.targets.replaceChildren();
    el.labels.replaceChildren();
    for (const [name, cell] of el.cell) {
      const target = targets.get(name);
      if (target) {
        cell.setAttribute('data-legal', 'true');
        cell.setAttribute('data-action', target.text);
        cell.setAttribute('tabindex', '0');
        cell.setAttribute('role', 'button');
        cell.setAttribute('aria-label', t(`baltek.target.${target.kind}`, {square: name, text: target.text}));
      } else {
        for (const a of ['data-legal', 'data-action', 'role', 'aria-label']) cell.removeAttribute(a);
      }
      // A square whose footballer can run now: where a turn's run starts (tests look for it too).
      const selectable = moves.runs.has(name);
      if (selectable)
        cell.setAttribute('data-selectable', 'true');
      else
        cell.removeAttribute('data-selectable');
      cell.setAttribute('tabindex', selectable || target ? '0' : '-1');
    }
    for (const [name, target] of targets) {
      const {x, y, q} = center(name);
      const g = svg('g', {class: `target target-${target.kind}`});
      g.append(svg(
          'rect', {x: q.x + 4, y: q.y + 4, width: q.w - 8, height: q.h - 8, rx: 10, class: 'target-area'}));
      if (target.kind === 'run' || target.kind === 'sprint') {
        g.append(svg('circle', {cx: x, cy: y, r: kCell * 0.12, class: 'target-dot'}));
        if (target.kind === 'sprint')
          el.labels.append(svg('text', {x: q.x + 14, y: q.y + 18, class: 'target-label'}, '★'));
      } else {
        g.append(svg('circle', {cx: x, cy: y, r: kCell * 0.14, class: 'target-dot'}));
        el.labels.append(svg('text', {x: q.x + 14, y: q.y + 19, class: 'target-label cost'}, String(target.cost)));
      }
      el.targets.append(g);
    }
  }

  function render() {
    const position = state.position;
    if (!position?.view) return;
    const view = position.view;
    const moves = legal_now();
    // Forget a selection that no longer leads anywhere (after an action, or when the turn passed).
    if (state.selected?.kind === 'run' && !moves.runs.has(state.selected.square)) state.selected = null;
    if (state.selected?.kind === 'kick' && moves.kicks.size === 0) state.selected = null;
    const targets = targets_of_selection(moves);
    state.targets = targets;
    draw_header(view);
    draw_marks(view, moves);
    draw_pieces(view);
    draw_targets(targets, moves);
    draw_bar();
    el.svg.classList.toggle('can-act', !!state.info?.canAct);
    el.svg.classList.toggle('composing', composer.composing);
    for (const [name, cell] of el.cell) {
      if (!targets.has(name)) cell.setAttribute('aria-label', describe(view, name));
    }
  }

  function describe(view, name) {
    const here =
        view.footballers.filter((f) => f.square === name).map((f) => t(`baltek.footballer.${f.side}`, {strength: String(f.strength)}));
    if (view.ball === name) here.push(t('baltek.ball'));
    return here.length ? t('baltek.square', {square: name, content: here.join(', ')}) : name;
  }

  // The squares whose content changed between two views (a replay step, where no turn text is at hand).
  function diff(prev, view) {
    const out = new Set();
    if (!prev || prev.score[0] !== view.score[0] || prev.score[1] !== view.score[1]) return out;
    const occupants = (v) => {
      const m = new Map();
      v.footballers.forEach((f, i) => m.set(`${f.side}${i}`, f.square));
      return m;
    };
    const a = occupants(prev), b = occupants(view);
    for (const [k, sq] of b)
      if (a.get(k) !== sq) out.add(a.get(k)).add(sq);
    if (prev.ball !== view.ball) out.add(prev.ball).add(view.ball);
    out.delete(undefined);
    return out;
  }

  function select_at(square, prefer_ball) {
    const moves = legal_now();
    const view = state.position.view;
    const can_run = moves.runs.has(square);
    const can_kick = moves.kicks.size > 0 && view.ball === square;
    const sel = state.selected;
    const run_sel = sel?.kind === 'run' && sel.square === square;
    const kick_sel = sel?.kind === 'kick';
    // One square may hold the footballer and the ball: clicking it again switches between the two.
    if (prefer_ball && can_kick && !kick_sel)
      state.selected = {kind: 'kick', square};
    else if (can_run && !run_sel)
      state.selected = {kind: 'run', square};
    else if (can_kick && !kick_sel)
      state.selected = {kind: 'kick', square};
    else
      state.selected = null;
    render();
  }

  function activate(square, on_ball) {
    if (!state.info?.canAct || !state.position) return;
    const target = state.targets?.get(square);
    if (target && !(on_ball && !state.selected)) {
      state.selected = null;
      composer.add(target.text);
      render();
      return;
    }
    select_at(square, on_ball);
  }

  function on_click(e) {
    const ball = e.target.closest('[data-piece="ball"]');
    if (ball) return activate(ball.getAttribute('data-at'), true);
    const cell = e.target.closest('[data-square]');
    if (cell) return activate(cell.getAttribute('data-square'), false);
    state.selected = null;
    render();
  }

  function on_key(e) {
    if (e.key !== 'Enter' && e.key !== ' ') {
      if (e.key === 'Escape' && state.selected) {
        state.selected = null;
        render();
      }
      return;
    }
    const target = e.target.closest('[data-piece="ball"],[data-square]');
    if (!target) {
      if (e.key === 'Enter') composer.handle_key(e);
      return;
    }
    e.preventDefault();
    if (target.getAttribute('data-piece') === 'ball')
      activate(target.getAttribute('data-at'), true);
    else
      activate(target.getAttribute('data-square'), false);
  }

  function relayout() {
    const portrait = narrow.matches;
    const flipped = state.info?.mySeat === 1;
    if (layout && layout.portrait === portrait && layout.flipped === flipped) return;
    build();
    el.svg.classList.add('no-anim');
    render();
    requestAnimationFrame(() => requestAnimationFrame(() => el.svg?.classList.remove('no-anim')));
  }

  // A short "Goal!" over the field when a goal is scored live (the pieces glide back to the kickoff).
  function celebrate(seat) {
    const {field} = layout;
    const text =
        svg('text', {
          x: field.x + field.w / 2,
          y: field.y + field.h / 2,
          class: `goal-flash side-${'BR'[seat]}`,
          'pointer-events': 'none'
        },
            t('baltek.goal', {side: side_name('BR'[seat])}));
    el.svg.append(text);
    setTimeout(() => text.remove(), 1800);
  }

  const on_media = () => relayout();
  narrow.addEventListener('change', on_media);
  const on_root_key = (e) => {
    if (!e.defaultPrevented && !e.target.closest?.('[data-square],[data-piece]')) composer.handle_key(e);
  };
  root.addEventListener('keydown', on_root_key);

  // The marks of the room's position: the last turn's runs and kicks as arrows (from its texts, so they
  // survive a reload), or, in a replay, the squares that changed since the step drawn before.
  function mark_last_turn(position, info, prev) {
    const view = position.view;
    const last = last_turn_of(position, info);
    state.changed = new Set();
    state.arrows = [];
    if (last && Array.isArray(last.actions)) {
      const scored = prev && view.score.some((g, i) => g !== prev.score[i]);
      // After a goal every piece is back at the kickoff: the turn's paths no longer lead anywhere.
      if (!scored) state.arrows = turn_arrows(last.actions, state.turn_ball, ctx.sides?.[last.seat] || null);
      if (scored) state.changed = new Set([view.score[0] !== prev.score[0] ? 'l3' : 'a3']);
    } else if (info.replay) {
      state.changed = diff(prev, view);
    }
  }

  // The arrows of a turn's texts: runs from the runner's square, kicks along the ball's path (the first one
  // from where the ball was when the turn began, when known).
  function turn_arrows(actions, ball, side, composed = false) {
    const out = [];
    for (const text of actions) {
      let m = /^([a-l][1-5])\*?\s+([a-l][1-5])$/.exec(text);
      if (m) {
        out.push({kind: /\*/.test(text) ? 'sprint' : 'run', from: m[1], to: m[2], composed});
        continue;
      }
      m = /^@[+!]*\s+(#|[a-l][1-5])$/.exec(text);
      if (m) {
        const to = m[1] === '#' ? (side === 'R' ? 'a3' : 'l3') : m[1];
        out.push({kind: 'kick', from: ball, to, composed});
        ball = to;
      }
    }
    return out;
  }

  // Draws what the composer holds: the tried position while a turn is composed, else the room's.
  function show_composed() {
    const position = composer.position;
    if (!position?.view) return;
    state.position = position;
    state.info = composer.info;
    if (composer.composing) {
      const base = state.base_view;
      state.changed = new Set();
      state.arrows = turn_arrows(composer.steps, base?.ball || null, base?.to_move || null, true);
    } else if (state.base_position) {
      mark_last_turn(state.base_position, state.base_info, state.before_base);
    }
    if (!state.info.canAct) state.selected = null;
    relayout();
    render();
    fitter?.refit();
  }

  return {
    owns_end_turn: true,  // the bar's Confirm / End turn replaces the room's End turn button
    update(position, info) {
      const view = position?.view;
      if (!view) return;
      info = info || {mySeat: null, canAct: false, event: null, replay: false};
      const prev = state.base_view;
      // A new turn: the ball's square before it is where the turn's first kick started.
      // (A replay may jump anywhere: only a step forward by one turn tells where the ball was.)
      const next_turn = prev && (prev.turn !== view.turn || prev.to_move !== view.to_move);
      if (next_turn && (!info.replay || view.turn === prev.turn + 1))
        state.turn_ball = prev.ball;
      else if (!prev || info.replay)
        state.turn_ball = null;
      const scored = prev && view.score.findIndex((g, i) => g > prev.score[i]);
      if (scored !== null && scored >= 0 && !info.replay && view !== prev) state.goal_by = scored;
      state.before_base = prev;
      state.base_view = view;
      state.base_position = position;
      state.base_info = info;
      composer.update(position, info);
      show_composed();
      if (state.goal_by !== undefined) celebrate(state.goal_by);
      state.goal_by = undefined;
    },
    destroy() {
      narrow.removeEventListener('change', on_media);
      root.removeEventListener('keydown', on_root_key);
      composer.destroy();
      fitter?.dispose();
      bar.node.remove();
      el.svg?.remove();
      el = {};
    },
  };
}
