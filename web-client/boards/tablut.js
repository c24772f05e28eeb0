// Tablut board (rules: docs/rules/tablut.md). Draws position.view as SVG and turns two clicks
// (a piece, then one of its destinations) into a move text taken verbatim from position.legal.
// It never decides what is legal: movable pieces and destinations come only from position.legal.
// While the opponent is to move, a move may be picked ahead (a premove, compose.js): it is played when the
// turn comes if it is legal then. The bar above the board says what to do.

import {fit_to_viewport, last_turn_of, Premove, TurnBar} from '../compose.js';
import {t} from '../i18n.js';
import {board_stylesheet, el, lazy} from './kit.js';

const kCell = 100;
const kMargin = 56;  // room for the coordinates around the 9 x 9 grid

let instance_count = 0;  // gradient ids must be unique if two boards share a page

function reduced_motion() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

// "e2 c2 x c3" -> {from: "e2", to: "c2", captures: ["c3"]}; null for anything else.
function parse_move(text) {
  if (typeof text !== 'string') return null;
  const tokens = text.trim().split(/\s+/);
  if (tokens.length < 2 || !/^[a-z]\d+$/.test(tokens[0]) || !/^[a-z]\d+$/.test(tokens[1])) return null;
  const captures = tokens[2] === 'x' ? tokens.slice(3) : [];
  return {from: tokens[0], to: tokens[1], captures};
}

function piece_map(view) {
  const map = new Map();
  // view.pieces: {square: "A" | "D" | "K"} (the king is a defender).
  for (const [square, p] of Object.entries(view?.pieces ?? {}))
    map.set(square, {side: p === 'A' ? 'A' : 'D', king: p === 'K'});
  return map;
}

// The move that led from `before` to `after` when the shell gives no event (replay steps): exactly one
// piece left one square and arrived on another, and only the other side's pieces vanished.
function diff_move(before, after) {
  if (!before || !after) return null;
  const gone = [...before.keys()].filter((sq) => !after.has(sq));
  const arrived = [...after.keys()].filter((sq) => !before.has(sq));
  if (arrived.length !== 1) return null;
  const to = arrived[0];
  const mover = after.get(to);
  const from = gone.filter((sq) => {
    const p = before.get(sq);
    return p.side === mover.side && p.king === mover.king;
  });
  if (from.length !== 1) return null;
  const captures = gone.filter((sq) => sq !== from[0]);
  if (captures.some((sq) => before.get(sq).side === mover.side)) return null;
  return {from: from[0], to, captures};
}

// The game's options in words, for the forms that choose them (options.js): a label, one line on what the
// option does (docs/rules/tablut.md), and each choice's name.
// The texts are the game's catalog's (boards/CODE/tablut.js), read when the form is drawn.
const option = (key, choices) => ({
  label: t(`tablut.option.${key}.label`),
  about: t(`tablut.option.${key}.about`),
  choices: Object.fromEntries(choices.map((choice) => [choice, t(`tablut.option.${key}.${choice}`)])),
});
export const optionWords = lazy(() => ({
  first: option('first', ['attackers', 'defenders']),
  king: option('king', ['armed', 'unarmed']),
  throne: option('throne', ['special', 'plain']),
}));

// How many pieces `side` ('A' or 'D') has in `view` (its `counts`, the king among the defenders), for the
// room's capture sound (sound.js); null when the view does not say.
export function pieces_left(view, side) {
  const count = view && view.counts && view.counts[side];
  return typeof count === 'number' ? count : null;
}

// The notation's symbols (docs/notation.md) for the move list's legend, and one action in words for its
// "in words" view.
export const notationLegend = lazy(() => [
  ['e2 a2', t('tablut.legend.move')],
  ['x', t('tablut.legend.x')],
], []);
export function actionWords(text) {
  const m = /^([a-i][1-9])\s+([a-i][1-9])(?:\s+x\s+(.+))?$/.exec(text);
  if (!m) return text;
  const taken = m[3] ? m[3].trim().split(/\s+/) : [];
  return taken.length ? t('tablut.action.move_takes', {from: m[1], to: m[2], taken: taken.join(', ')}) :
                        t('tablut.action.move', {from: m[1], to: m[2]});
}

export function mount(root, ctx) {
  board_stylesheet('tablut');
  const uid = `tablut-${++instance_count}`;
  let columns = 'abcdefghi';
  let size = 9;
  let geometry_key = '';

  let pieces = new Map();  // square -> {side, king}
  let moves = new Map();   // from square -> Map(to square -> legal text)
  let selected = null;
  let interactive = false;
  let sent = false;  // a move was sent: no second one until the next update
  let last_move = null;
  let fallen_king = null;  // the square where this board saw the king captured
  let view = null;
  let position_now = null;  // the room's position and info as last given
  let info_now = {mySeat: null, canAct: false, event: null, replay: false};
  let pre_selected = null;  // a piece picked for a premove

  const bar = new TurnBar('turn-bar-tablut');
  const svg = el('svg', {class: 'board board-tablut', role: 'group'});
  root.append(bar.node, svg);
  const fitter = fit_to_viewport(root, svg);
  const premove = new Premove(ctx, {on_change: () => render(false)});
  const premoving = () => Premove.allowed(position_now, info_now);
  // My pieces: the king is a defender.
  const my_side = () => (ctx.sides || ['A', 'D'])[info_now.mySeat] || null;
  let square_layer, mark_layer, piece_layer, target_layer, fx_layer;
  const square_nodes = new Map();

  function square_name(col, row_from_top) { return `${columns[col]}${size - row_from_top}`; }
  function square_x_y(square) {
    const col = columns.indexOf(square[0]);
    const row = size - Number(square.slice(1));
    return {x: kMargin + col * kCell, y: kMargin + row * kCell};
  }

  function build_grid(v) {
    columns = v.columns || 'abcdefghi';
    size = v.size || columns.length;
    const key = `${columns}/${size}/${(v.corners || []).join()}/${v.throne?.square}`;
    if (key === geometry_key) return;
    geometry_key = key;
    svg.replaceChildren();
    square_nodes.clear();
    const extent = size * kCell + 2 * kMargin;
    svg.setAttribute('viewBox', `0 0 ${columns.length * kCell + 2 * kMargin} ${extent}`);
    svg.setAttribute('aria-label', t('tablut.board'));

    const defs = el('defs', {}, svg);
    const gradient_a = el('radialGradient', {id: `${uid}-a`, cx: '35%', cy: '30%', r: '75%'}, defs);
    el('stop', {offset: '0%', 'stop-color': '#6b625a'}, gradient_a);
    el('stop', {offset: '100%', 'stop-color': '#1d1916'}, gradient_a);
    const gradient_d = el('radialGradient', {id: `${uid}-d`, cx: '35%', cy: '30%', r: '75%'}, defs);
    el('stop', {offset: '0%', 'stop-color': '#ffffff'}, gradient_d);
    el('stop', {offset: '100%', 'stop-color': '#e3d6bb'}, gradient_d);

    el('rect',
       {class: 'frame', x: 0, y: 0, width: columns.length * kCell + 2 * kMargin, height: extent, rx: 18},
       svg);
    square_layer = el('g', {class: 'squares'}, svg);
    const coords = el('g', {class: 'coords', 'aria-hidden': 'true'}, svg);
    mark_layer = el('g', {class: 'marks', 'aria-hidden': 'true'}, svg);
    piece_layer = el('g', {class: 'pieces'}, svg);
    target_layer = el('g', {class: 'targets', 'aria-hidden': 'true'}, svg);
    fx_layer = el('g', {class: 'fx', 'aria-hidden': 'true'}, svg);

    const corners = new Set(v.corners || []);
    const throne = v.throne?.square;
    for (let row = 0; row < size; ++row) {
      for (let col = 0; col < columns.length; ++col) {
        const name = square_name(col, row);
        const x = kMargin + col * kCell;
        const y = kMargin + row * kCell;
        let kind = (row + col) % 2 ? 'odd' : 'even';
        if (corners.has(name))
          kind = 'corner';
        else if (name === throne)
          kind = 'throne';
        const rect = el(
            'rect',
            {class: `sq ${kind}`, x, y, width: kCell, height: kCell, 'data-square': name, 'aria-label': name},
            square_layer);
        square_nodes.set(name, rect);
        if (kind === 'corner' || kind === 'throne') draw_refuge(x, y, kind);
      }
    }
    for (let col = 0; col < columns.length; ++col) {
      const x = kMargin + col * kCell + kCell / 2;
      el('text', {x, y: kMargin / 2, class: 'coord'}, coords).textContent = columns[col];
      el('text', {x, y: kMargin + size * kCell + kMargin / 2, class: 'coord'}, coords).textContent =
          columns[col];
    }
    for (let row = 0; row < size; ++row) {
      const y = kMargin + row * kCell + kCell / 2;
      el('text', {x: kMargin / 2, y, class: 'coord'}, coords).textContent = String(size - row);
      el('text', {x: kMargin + columns.length * kCell + kMargin / 2, y, class: 'coord'}, coords).textContent =
          String(size - row);
    }
  }

  // Corners and the throne carry a carved motif so they read as special even when a piece stands there.
  function draw_refuge(x, y, kind) {
    const g = el('g', {class: `refuge ${kind}`}, mark_layer);
    const c = kCell / 2;
    el('rect', {x: x + 12, y: y + 12, width: kCell - 24, height: kCell - 24, rx: 6}, g);
    el('path', {
      d: `M${x + 24} ${y + 24}L${x + kCell - 24} ${y + kCell - 24}` +
          `M${x + kCell - 24} ${y + 24}L${x + 24} ${y + kCell - 24}`
    },
       g);
    if (kind === 'throne') el('circle', {cx: x + c, cy: y + c, r: 14}, g);
  }

  function draw_piece(square, piece, at) {
    const movable = interactive && moves.has(square);
    const premovable = !interactive && premoving() && piece.side === my_side();
    const kind = piece.king ? 'K' : piece.side;
    const name = kind === 'A' || kind === 'D' || kind === 'K' ? t(`tablut.piece_name.${kind}`) : piece.side;
    const label = t(movable ? 'tablut.piece_movable' : 'tablut.piece', {piece: name, square});
    const g =
        el('g', {
          class: `piece side-${piece.side}${piece.king ? ' king' : ''}`,
          'data-piece': square,
          'data-side': piece.side,
          'aria-label': label
        },
           piece_layer);
    if (piece.king) g.dataset.king = 'true';
    if (movable || premovable) {
      g.dataset[movable ? 'movable' : 'premovable'] = 'true';
      g.setAttribute('role', 'button');
      g.setAttribute('tabindex', '0');
    }
    if (square === selected || square === pre_selected) g.classList.add('selected');
    const {x, y} = square_x_y(at);
    g.style.transform = `translate(${x}px, ${y}px)`;
    const c = kCell / 2;
    el('circle', {class: 'shadow', cx: c + 3, cy: c + 5, r: 36}, g);
    el('circle', {
      class: 'body',
      cx: c,
      cy: c,
      r: piece.king ? 40 : 36,
      fill: `url(#${uid}-${piece.side === 'A' ? 'a' : 'd'})`
    },
       g);
    if (piece.king) {
      // A small crown: three points on a band.
      el('path', {
        class: 'crown',
        d: `M${c - 24} ${c + 16}L${c - 27} ${c - 14}L${c - 11} ${c}L${c} ${c - 22}` +
            `L${c + 11} ${c}L${c + 27} ${c - 14}L${c + 24} ${c + 16}Z`
      },
         g);
    } else {
      el('circle', {class: 'inner', cx: c, cy: c, r: 22}, g);
    }
    return g;
  }

  // Squares in line with `from` (a premove's possible destinations: the server checks it when the turn
  // comes).
  function in_line(from) {
    const out = new Set();
    if (!from) return out;
    const col = columns.indexOf(from[0]);
    const row = Number(from.slice(1));
    for (let c = 0; c < columns.length; ++c)
      if (c !== col) out.add(`${columns[c]}${row}`);
    for (let r = 1; r <= size; ++r)
      if (r !== row) out.add(`${columns[col]}${r}`);
    for (const sq of [...out])
      if (pieces.get(sq)?.side === my_side()) out.delete(sq);
    return out;
  }

  function render(animate) {
    if (!view) return;
    const planned = premove.pending;
    const pre_targets = premoving() ? in_line(pre_selected) : new Set();
    for (const [name, rect] of square_nodes) {
      rect.classList.toggle('last', !!last_move && (name === last_move.from || name === last_move.to));
      rect.classList.toggle('from-selected', name === selected || name === pre_selected);
      rect.classList.toggle('premove', !!planned && (name === planned.from || name === planned.to));
      if (pre_targets.has(name)) {
        rect.dataset.premoveTarget = 'true';
      } else {
        delete rect.dataset.premoveTarget;
      }
      const target = selected !== null && moves.get(selected)?.has(name);
      if (target) {
        rect.dataset.legal = 'true';
        rect.setAttribute('role', 'button');
        rect.setAttribute('tabindex', '0');
        rect.setAttribute('aria-label', t('tablut.target', {from: selected, to: name}));
      } else {
        delete rect.dataset.legal;
        rect.removeAttribute('role');
        rect.removeAttribute('tabindex');
        rect.setAttribute('aria-label', name);
      }
    }
    piece_layer.replaceChildren();
    target_layer.replaceChildren();
    let glide = null;
    for (const [square, piece] of pieces) {
      const from = animate && last_move && square === last_move.to ? last_move.from : square;
      const g = draw_piece(square, piece, from);
      if (from !== square) glide = {g, square};
    }
    if (selected !== null) {
      for (const to of moves.get(selected)?.keys() ?? []) {
        const {x, y} = square_x_y(to);
        el('circle', {class: 'target', cx: x + kCell / 2, cy: y + kCell / 2, r: 15}, target_layer);
      }
    }
    for (const to of pre_targets) {
      const {x, y} = square_x_y(to);
      el('circle', {class: 'target premove-target', cx: x + kCell / 2, cy: y + kCell / 2, r: 12},
         target_layer);
    }
    // The last turn's captures: a ghost of the piece with a cross where it stood, until the next turn.
    for (const sq of last_move?.captures ?? []) {
      if (pieces.has(sq) || !square_nodes.has(sq) || !last_move.captured_side) continue;
      const {x, y} = square_x_y(sq);
      const c = kCell / 2;
      const g = el(
          'g', {class: `captured-mark side-${last_move.captured_side}`, 'data-captured': sq}, target_layer);
      el('circle', {cx: x + c, cy: y + c, r: 30, class: 'ghost'}, g);
      el('path', {
        d: `M${x + c - 16} ${y + c - 16}L${x + c + 16} ${y + c + 16}M${x + c + 16} ${y + c - 16}L${
            x + c - 16} ${y + c + 16}`,
        class: 'cross'
      },
         g);
    }
    draw_bar();
    svg.classList.toggle('interactive', interactive);
    if (view.outcome) mark_outcome();
    if (glide) {
      glide.g.getBoundingClientRect();  // commit the start position so the transition runs
      glide.g.classList.add('gliding');
      const {x, y} = square_x_y(glide.square);
      glide.g.style.transform = `translate(${x}px, ${y}px)`;
    }
  }

  // The king glows on its corner after an escape, and is ringed in red when captured.
  // A captured king has left the view: it stays drawn faded where it fell, when this board saw it fall.
  function mark_outcome() {
    const reason = view.outcome.reason;
    const king = [...pieces].find(([, p]) => p.king)?.[0] ?? (reason === 'capture' ? fallen_king : null);
    if (!king || !['escape', 'capture'].includes(reason)) return;
    if (!pieces.has(king)) draw_piece(king, {side: 'D', king: true}, king).classList.add('fallen');
    const {x, y} = square_x_y(king);
    el('circle', {class: `outcome ${reason}`, cx: x + kCell / 2, cy: y + kCell / 2, r: 45}, target_layer);
  }

  function flash_captures(squares, before) {
    fx_layer.replaceChildren();
    if (reduced_motion()) return;
    for (const sq of squares) {
      const piece = before.get(sq);
      if (!piece || !square_nodes.has(sq)) continue;
      const {x, y} = square_x_y(sq);
      const g = el('g', {class: `captured side-${piece.side}`}, fx_layer);
      el('circle', {
        cx: x + kCell / 2,
        cy: y + kCell / 2,
        r: 36,
        fill: `url(#${uid}-${piece.side === 'A' ? 'a' : 'd'})`
      },
         g);
      g.addEventListener('animationend', () => g.remove());
    }
  }

  function draw_bar() {
    const names = {A: t('tablut.side.A'), D: t('tablut.side.D')};
    let prompt = '';
    let state = 'waiting';
    if (premove.pending) {
      prompt = premove.prompt();
      state = 'premove';
    } else if (interactive) {
      prompt = sent ? t('tablut.bar.sent') :
          selected  ? t('tablut.bar.moving', {square: selected}) :
                      t('tablut.bar.your_turn', {side: names[my_side()] || ''});
      state = 'active';
    } else if (premoving()) {
      prompt = pre_selected ? t('tablut.bar.premove_from', {square: pre_selected}) : t('tablut.bar.premove');
    } else if (position_now?.status === 'live' && !info_now.replay && view) {
      prompt = names[position_now.side] ? t('tablut.bar.to_move', {side: names[position_now.side]}) :
                                          t('tablut.bar.opponent_to_move');
    }
    bar.set({prompt, buttons: premove.buttons(), state});
  }

  function choose_premove(square) {
    if (!square) return;
    if (pre_selected && in_line(pre_selected).has(square)) {
      const from = pre_selected;
      pre_selected = null;
      premove.set({
        label: `${from} ${square}`,
        from,
        to: square,
        match: (legal) => legal.find((t) => {
          const m = parse_move(t);
          return m && m.from === from && m.to === square;
        }) ??
            null,
      });
      return;
    }
    const mine = pieces.get(square)?.side === my_side();
    pre_selected = mine && square !== pre_selected ? square : null;
    premove.clear();
    render(false);
  }

  function choose(square) {
    if (premoving()) {
      choose_premove(square);
      return;
    }
    if (!interactive || sent || !square) return;
    const text = selected !== null ? moves.get(selected)?.get(square) : undefined;
    if (text !== undefined) {
      sent = true;
      selected = null;
      render(false);
      ctx.act([text], false);
      // A refused move leaves the position as it was: let the player try again after a while.
      setTimeout(() => {
        sent = false;
      }, 4000);
      return;
    }
    selected = moves.has(square) && square !== selected ? square : null;
    render(false);
  }

  function square_of(target) {
    const node = target.closest?.('[data-piece], [data-square]');
    if (!node || !svg.contains(node)) return null;
    return node.dataset.piece || node.dataset.square;
  }

  // Dragging a movable piece onto a destination plays it too; a press without movement stays a click.
  let drag = null;  // {square, node, start_x, start_y, moved}
  let swallow_click = false;
  function svg_point(e) {
    const m = svg.getScreenCTM();
    if (!m) return null;
    return new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  }
  function square_at(pt) {
    const col = Math.floor((pt.x - kMargin) / kCell);
    const row = Math.floor((pt.y - kMargin) / kCell);
    if (col < 0 || row < 0 || col >= columns.length || row >= size) return null;
    return square_name(col, row);
  }
  svg.addEventListener('pointerdown', (e) => {
    const node = e.target.closest?.('[data-piece][data-movable="true"]');
    if (!interactive || sent || !node || e.button !== 0) return;  // premoves are picked by clicks only
    drag = {square: node.dataset.piece, node, start_x: e.clientX, start_y: e.clientY, moved: false};
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag) return;
    if (!drag.moved) {
      if (Math.hypot(e.clientX - drag.start_x, e.clientY - drag.start_y) < 6) return;
      drag.moved = true;
      svg.setPointerCapture?.(e.pointerId);
      if (selected !== drag.square) {
        selected = drag.square;
        render(false);
        drag.node = svg.querySelector(`[data-piece="${drag.square}"]`);
      }
      drag.node.classList.add('dragging');
      piece_layer.appendChild(drag.node);  // above the other pieces
    }
    const pt = svg_point(e);
    if (pt) drag.node.style.transform = `translate(${pt.x - kCell / 2}px, ${pt.y - kCell / 2}px)`;
  });
  function end_drag(e, cancelled) {
    if (!drag) return;
    const {moved} = drag;
    drag = null;
    if (!moved) return;
    swallow_click = true;
    setTimeout(() => {
      swallow_click = false;
    }, 0);
    const pt = cancelled ? null : svg_point(e);
    const target = pt ? square_at(pt) : null;
    if (target && moves.get(selected)?.has(target))
      choose(target);
    else
      render(false);  // back to its square, still selected
  }
  svg.addEventListener('pointerup', (e) => end_drag(e, false));
  svg.addEventListener('pointercancel', (e) => end_drag(e, true));
  svg.addEventListener('click', (e) => {
    if (swallow_click) return;
    choose(square_of(e.target));
  });
  svg.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && (selected !== null || pre_selected !== null)) {
      selected = null;
      pre_selected = null;
      render(false);
    } else if (e.key === 'Enter' || e.key === ' ') {
      const square = square_of(e.target);
      if (!square) return;
      e.preventDefault();
      choose(square);
      // Keep the keyboard where the player is: on the chosen piece, or on its first destination.
      const next = svg.querySelector(`[data-square][data-legal="true"]`) ??
          svg.querySelector(`[data-piece="${square}"]`);
      next?.focus?.();
    }
  });

  return {
    update(position, info = {}) {
      const next_view = position?.view;
      if (!next_view) return;
      build_grid(next_view);
      position_now = position;
      info_now = {mySeat: null, canAct: false, event: null, replay: false, ...info};
      if (!premoving()) pre_selected = null;
      const before = pieces;
      const next_pieces = piece_map(next_view);
      // The last turn from its text (the room's last_turn, kept across a reload, or the last event).
      const last = last_turn_of(position, info);
      const text_move = last && Array.isArray(last.actions) ? parse_move(last.actions[0]) : null;
      const move = text_move ?? diff_move(before, next_pieces);
      const mover = last ? (ctx.sides || ['A', 'D'])[last.seat] :
          move           ? next_pieces.get(move.to)?.side :
                           null;
      const captured_side = mover === 'A' ? 'D' : mover === 'D' ? 'A' : null;
      // The shell repeats the last event with later updates (presence, clocks): only a board that
      // really changed by that one move animates and marks what it took. A jump of several turns (back from
      // an earlier position, a click in the move list) is no move: the pieces it lost were not captured.
      const stepped = view !== null && move !== null ? diff_move(before, next_pieces) : null;
      const changed = stepped !== null && stepped.from === move.from && stepped.to === move.to;
      if (changed) {
        const gone = stepped.captures;
        last_move = {
          from: move.from,
          to: move.to,
          captures: [...new Set([...gone, ...move.captures])],
          captured_side
        };
        fallen_king = gone.find((sq) => before.get(sq).king) ?? null;
      } else if (
          move &&
          (view === null ||
           (text_move && !(last_move && last_move.from === move.from && last_move.to === move.to)))) {
        last_move = {from: move.from, to: move.to, captures: move.captures, captured_side};
      } else if (!move && (view === null || before.size !== next_pieces.size || info.replay)) {
        last_move = null;  // a jump in a replay or a fresh state: no single move to show
      }
      if (!next_view.outcome) fallen_king = null;
      view = next_view;
      pieces = next_pieces;

      interactive = !!info.canAct && !info.replay && position.status !== 'finished';
      moves = new Map();
      if (interactive) {
        for (const text of position.legal ?? []) {
          const m = parse_move(text);
          if (!m) continue;
          if (!moves.has(m.from)) moves.set(m.from, new Map());
          if (!moves.get(m.from).has(m.to)) moves.get(m.from).set(m.to, text);
        }
      }
      sent = false;
      if (selected !== null && !moves.has(selected)) selected = null;
      // A premove picked during the opponent's turn is played (or dropped) as soon as the turn comes.
      if (premove.update(position, info_now)) {
        sent = true;
        selected = null;
      }
      const animate = changed && !reduced_motion();
      render(animate);
      if (changed && last_move) flash_captures(last_move.captures, before);
      fitter.refit();
    },
    destroy() {
      premove.destroy();
      fitter.dispose();
      bar.node.remove();
      svg.remove();
    },
  };
}
