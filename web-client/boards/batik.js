// Batik's board (docs/rules/batik.md): the well, the resting pieces and both sets, and a drop
// composer (pick, rotate by 15 degrees, flip, slide along the rim, drop). The server alone knows physics:
// resting pieces and the fall's frames come from view; which drops exist comes from position.legal.
// The composer's controls sit in the bar above the well (compose.js), next to the floating piece, so both
// are on screen together; a drop may be composed while the opponent is to move (a premove), and is played
// when the turn comes if it is legal then.

import {fit_to_viewport, Premove, TurnBar} from '../compose.js';
import {t} from '../i18n.js';
import {board_stylesheet, el, lazy} from './kit.js';


// The rules file's piece table. Only used to draw pieces that are not in the well yet (the trays and the
// ghost); everything in the well is drawn from the server's polygons.
const PIECES = [
  ['SQ', [[0, 0], [2, 0], [2, 2], [0, 2]]],
  ['TZ', [[0, 0], [4, 0], [2, 2], [0, 2]]],
  ['NR', [[0, 0], [4, 0], [4, 2], [3, 2], [2, 1], [1, 2], [0, 2]]],
  ['TL', [[0, 0], [4, 0], [2, 2]]],
  ['TM', [[0, 0], [2, 0], [0, 2]]],
  ['TS', [[0, 0], [2, 0], [1, 1]]],
  ['PL', [[0, 0], [4, 0], [5, 1], [1, 1]]],
  ['PM', [[0, 0], [3, 0], [4, 1], [1, 1]]],
  ['PS', [[0, 0], [1, 0], [2, 1], [1, 1]]],
];
const OUTLINE = new Map(PIECES);

// Layout in SVG user units; one unit of the well is one user unit. y grows downwards in SVG.
const WIDTH = 8;
const RIM = 8;
const HEADROOM = 5.6;  // room above the rim for the ghost: a piece turned on its diagonal is about 5.1 tall
const WALL = 0.25;
const X0 = 1.0;  // left of the well's interior (room for the y labels)
const TOP = 0.9;  // the header line
const FLOOR_Y = TOP + HEADROOM + RIM;  // SVG y of the floor
const BELOW_WELL = FLOOR_Y + WALL + 1.0;  // under the x coordinates
// Two layouts of the trays: beside the well on wide screens, under it on phones (the well stays big).
const WIDE = {
  viewW: X0 + WIDTH + WALL + 0.7 + 7.4 + 0.2,
  viewH: BELOW_WELL,
  tray: (seat) => ({ x: X0 + WIDTH + WALL + 0.7, y: TOP + seat * 6.4, w: 7.4, h: 5.9 }),
  cell: { w: 2.25, h: 1.5, gapX: 0.1, gapY: 0.1, scale: 0.42 },
  titleSize: 0.4,
  narrow: false,
};
// On a phone the tray's cells are what a finger picks: square and big enough to be 44 CSS px once the board
// is fitted to the screen's height.
const NARROW = {
  viewW: X0 + WIDTH + WALL + 0.6,
  viewH: BELOW_WELL + 5.95,
  tray: (seat) => ({ x: 0.1 + seat * 4.85, y: BELOW_WELL + 0.1, w: 4.8, h: 5.75 }),
  cell: { w: 1.56, h: 1.56, gapX: 0.04, gapY: 0.04, scale: 0.3 },
  titleSize: 0.34,
  narrow: true,
};
const NARROW_BELOW_PX = 600;  // the board's width under which the trays go under the well
const sx = (x) => X0 + x;
const sy = (y) => FLOOR_Y - y;

function pointsAttr(polygon) {
  return polygon.map(([x, y]) => `${sx(x).toFixed(3)},${sy(y).toFixed(3)}`).join(' ');
}

// A piece as dropped: mirrored left-right if flipped, turned counter-clockwise, then moved so that its
// bounding box's left side is at x and its lowest point at y (the rim).
function placed(id, flipped, angle, x, y) {
  let pts = OUTLINE.get(id);
  if (flipped) pts = pts.map(([a, b]) => [-a, b]).reverse();
  const r = (angle * Math.PI) / 180;
  const c = Math.cos(r);
  const s = Math.sin(r);
  const turned = pts.map(([a, b]) => [c * a - s * b, s * a + c * b]);
  const minX = Math.min(...turned.map((p) => p[0]));
  const minY = Math.min(...turned.map((p) => p[1]));
  return turned.map(([a, b]) => [a - minX + x, b - minY + y]);
}

// The notation writes x without trailing zeros: 3.25, 0.125, 6.
const dropText = (sel) => `${sel.id}${sel.flipped ? '~' : ''} ${sel.angle} ${sel.x8 / 8}`;
const orientKey = (id, flipped, angle) => `${id}${flipped ? '~' : ''} ${angle}`;

// position.legal (already expanded by the shell; range objects are expanded here too, to be safe) as the
// set of texts plus, per piece/face/angle, the range of left positions in eighths.
function indexLegal(legal) {
  const texts = new Set();
  const ranges = new Map();
  const add = (text) => {
    const m = /^([A-Z]{2})(~?)\s+(\d+)\s+([\d.]+)$/.exec(text.trim());
    if (!m) return;
    texts.add(text);
    const key = `${m[1]}${m[2]} ${m[3]}`;
    const x8 = Math.round(Number(m[4]) * 8);
    const r = ranges.get(key);
    if (!r) ranges.set(key, { lo: x8, hi: x8 });
    else {
      r.lo = Math.min(r.lo, x8);
      r.hi = Math.max(r.hi, x8);
    }
  };
  for (const item of legal || []) {
    if (typeof item === 'string') add(item);
    else if (item && typeof item.prefix === 'string') {
      const n = Math.round((item.to - item.from) / item.step);
      for (let k = 0; k <= n; k++) add(`${item.prefix} ${Number((item.from + k * item.step).toFixed(6))}`);
    }
  }
  const pieces = new Set([...ranges.keys()].map((k) => k.slice(0, 2)));
  return { texts, ranges, pieces };
}

// The game's options in words, for the forms that choose them (options.js): a label, one line on what the
// option does (docs/rules/batik.md), and each choice's name.
export const optionWords = lazy(() => ({
  match: {
    label: t('batik.option.match.label'),
    about: t('batik.option.match.about'),
    choices: {on: t('batik.option.match.on'), off: t('batik.option.match.off')},
  },
}));

// How many pieces `side` has left, for the room's capture sound (sound.js): each side's `lost` pieces (fallen
// off the rim) counted down, so that fewer lost is more left; null when the view does not list them.
export function pieces_left(view, side) {
  const entry = view && Array.isArray(view.sides) ? view.sides.find((s) => s && s.side === side) : null;
  return entry && Array.isArray(entry.lost) ? -entry.lost.length : null;
}

// The notation's symbols (docs/notation.md) for the move list's legend, and one action in words for its
// "in words" view.
const kPieceCodes = new Set(['SQ', 'TZ', 'NR', 'TL', 'TM', 'TS', 'PL', 'PM', 'PS']);
export const notationLegend = lazy(() => [
  ['TL', t('batik.legend.piece')],
  ['~', t('batik.legend.flipped')],
  ['45', t('batik.legend.angle')],
  ['3.25', t('batik.legend.position')],
], []);
export function actionWords(text) {
  const m = /^([A-Z]{2})(~?)\s+(\d+)\s+([\d.]+)$/.exec(text);
  if (!m) return text;
  return t('batik.action.drop', {
    piece: kPieceCodes.has(m[1]) ? t(`batik.piece_name.${m[1]}`) : m[1],
    flipped: m[2] ? t('batik.action.flipped') : '',
    turned: m[3] !== '0' ? t('batik.action.turned', {angle: m[3]}) : '',
    x: m[4],
  });
}

export function mount(root, ctx) {
  board_stylesheet('batik');

  const bar = new TurnBar('turn-bar-batik');
  root.appendChild(bar.node);
  const svg = el('svg', {
    class: 'board board-batik',
    viewBox: `0 0 ${WIDE.viewW} ${WIDE.viewH}`,
    role: 'img',
    tabindex: '0',
    'aria-label': t('batik.well'),
  });
  root.appendChild(svg);
  const fitter = fit_to_viewport(root, svg);
  const defs = el('defs', {}, svg);
  const grad = el('linearGradient', { id: 'batik-glass', x1: 0, y1: 0, x2: 0, y2: 1 }, defs);
  el('stop', { offset: '0', style: 'stop-color: var(--batik-glass-top)' }, grad);
  el('stop', { offset: '1', style: 'stop-color: var(--batik-glass-bottom)' }, grad);

  const header = el('text', { x: X0, y: TOP - 0.3, class: 'batik-header' }, svg);
  drawFrame(svg);
  const guide = el('rect', { class: 'batik-guide', visibility: 'hidden' }, svg);
  const piecesLayer = el('g', { class: 'batik-pieces' }, svg);
  const ghost = el('polygon', { class: 'batik-ghost', visibility: 'hidden', 'data-ghost': 'true' }, svg);
  const overlay = el('text', { class: 'batik-overlay', x: sx(WIDTH / 2), y: TOP + 1.6, visibility: 'hidden' }, svg);
  const trays = [0, 1].map((seat) => el('g', { class: 'batik-tray', 'data-tray': seat }, svg));
  // The well's interior and its headroom: pointer presses here slide the ghost.
  const slideZone = el('rect', {
    class: 'batik-slide-zone',
    x: sx(0), y: TOP, width: WIDTH, height: HEADROOM + RIM,
  }, svg);

  const controls = document.createElement('div');
  controls.className = 'batik-controls';
  // The controls' words from the game's catalog, written into attributes: quotes and brackets escaped.
  const word = (key) => t(key).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  controls.innerHTML = `
    <button type="button" data-control="rotate-left" title="${word('batik.control.rotate_left')}" aria-label="${word('batik.control.rotate_left_label')}">⟲ 15°</button>
    <button type="button" data-control="rotate-right" title="${word('batik.control.rotate_right')}" aria-label="${word('batik.control.rotate_right_label')}">⟳ 15°</button>
    <button type="button" data-control="flip" title="${word('batik.control.flip')}" aria-pressed="false">${word('batik.control.flip_label')}</button>
    <button type="button" data-control="left" title="${word('batik.control.left')}" aria-label="${word('batik.control.left_label')}">◀</button>
    <button type="button" data-control="right" title="${word('batik.control.right')}" aria-label="${word('batik.control.right_label')}">▶</button>
    <output class="batik-readout" aria-live="polite"></output>
    <button type="button" data-control="drop" class="batik-drop" title="${word('batik.control.drop')}">${word('batik.button.drop')}</button>`;
  bar.set_tools([controls]);
  const premove = new Premove(ctx, {on_change: () => { if (position) render(); }});
  const readout = controls.querySelector('.batik-readout');
  const button = (name) => controls.querySelector(`[data-control="${name}"]`);

  let position = null;
  let info = { mySeat: null, canAct: false, event: null, replay: false };
  let legal = indexLegal([]);
  let sel = null;  // {id, flipped, angle, x8}: the drop being composed
  let shown = null;  // the view drawn last (to tell a replay step forward from a jump)
  let anim = null;  // the running fall animation's requestAnimationFrame id
  let holdTimer = null;
  let layout = WIDE;

  function applyLayout() {
    // The root's width: the well is as wide as it may be there (its height is fitted to the window after).
    const width = root.clientWidth || svg.getBoundingClientRect().width;
    const next = width && width < NARROW_BELOW_PX ? NARROW : WIDE;
    if (next === layout && svg.getAttribute('viewBox')) return false;
    layout = next;
    svg.setAttribute('viewBox', `0 0 ${layout.viewW} ${layout.viewH}`);
    svg.classList.toggle('batik-narrow', layout.narrow);
    return true;
  }
  const resizer = typeof ResizeObserver === 'function'
    ? new ResizeObserver(() => { if (applyLayout() && position) render(); })
    : null;
  if (resizer) resizer.observe(root);
  applyLayout();

  const sideName = (seat) => t(seat === 0 ? 'batik.side.C' : 'batik.side.F');
  const seatLabel = (seat) => {
    let name = ctx.seatNames && ctx.seatNames[seat];
    if (name && name.length > 16) name = `${name.slice(0, 15)}…`;
    return name ? `${sideName(seat)} · ${name}` : sideName(seat);
  };
  const myTurn = () => Boolean(info.canAct && !info.replay && position && position.status === 'live');
  // A drop composed while the opponent is to move: no legal list yet, so the well's width bounds it.
  const premoving = () => Premove.allowed(position, info);
  const composing = () => myTurn() || premoving();
  const mySide = () => (position && position.view.sides[info.mySeat]) || null;

  function range(s) {
    if (premoving()) {
      const w = Math.max(...placed(s.id, s.flipped, s.angle, 0, 0).map((p) => p[0]));
      return { lo: 0, hi: Math.floor((WIDTH - w) * 8 + 1e-9) };
    }
    return legal.ranges.get(orientKey(s.id, s.flipped, s.angle));
  }
  const pickable = (id) => {
    if (myTurn()) return legal.pieces.has(id);
    if (!premoving()) return false;
    const side = mySide();
    return Boolean(side && side.available.includes(id));
  };

  // Keeps the selection on a legal drop: x is clamped into the range of the chosen orientation.
  function settle(s) {
    const r = range(s);
    if (!r) return s;
    return { ...s, x8: Math.max(r.lo, Math.min(r.hi, s.x8)) };
  }

  function select(id) {
    if (!pickable(id)) return;
    if (premoving() && premove.pending) premove.clear();  // a new premove replaces the pending one
    if (sel && sel.id === id) return;
    const keep = sel ? { flipped: sel.flipped, angle: sel.angle } : { flipped: false, angle: 0 };
    const next = { id, ...keep, x8: 0 };
    const r = range(next) || range({ id, flipped: false, angle: 0 });
    if (!r) return;
    if (!range(next)) Object.assign(next, { flipped: false, angle: 0 });
    // Start centred over the well, where the player is most likely to want it.
    next.x8 = Math.round((r.lo + r.hi) / 2);
    sel = settle(next);
    render();
  }

  function turn(by) {
    if (!sel) return;
    const angle = (((sel.angle + by) % 360) + 360) % 360;
    sel = settle(recentre({ ...sel, angle }));
    renderComposer();
  }

  function flip() {
    if (!sel) return;
    sel = settle(recentre({ ...sel, flipped: !sel.flipped }));
    renderComposer();
  }

  // A turned or flipped piece keeps its centre where it was, as a hand would hold it.
  function recentre(next) {
    const before = placed(sel.id, sel.flipped, sel.angle, sel.x8 / 8, RIM);
    const after = placed(next.id, next.flipped, next.angle, 0, RIM);
    const mid = (p) => (Math.min(...p.map((q) => q[0])) + Math.max(...p.map((q) => q[0]))) / 2;
    return { ...next, x8: Math.round((mid(before) - mid(after)) * 8) };
  }

  function slide(by8) {
    if (!sel) return;
    sel = settle({ ...sel, x8: sel.x8 + by8 });
    renderComposer();
  }

  function slideTo(clientX) {
    if (!sel) return;
    const pt = svg.createSVGPoint();
    pt.x = clientX;
    pt.y = 0;
    const x = pt.matrixTransform(svg.getScreenCTM().inverse()).x - X0;
    const w = Math.max(...placed(sel.id, sel.flipped, sel.angle, 0, 0).map((p) => p[0]));
    sel = settle({ ...sel, x8: Math.round((x - w / 2) * 8) });
    renderComposer();
  }

  function drop() {
    if (!sel) return;
    const text = dropText(sel);
    if (premoving()) {
      // Kept until the turn comes; then played if the server lists it among the legal drops.
      sel = null;
      premove.set({ label: text, text, match: (texts) => (texts.includes(text) ? text : null) });
      return;
    }
    if (!myTurn() || !legal.texts.has(text)) return;
    sel = null;
    renderComposer();
    ctx.act([text], false);
  }

  controls.addEventListener('click', (e) => {
    const b = e.target.closest('button[data-control]');
    if (!b) return;
    const step = e.shiftKey ? 8 : 1;
    ({
      'rotate-left': () => turn(15),
      'rotate-right': () => turn(-15),
      flip,
      left: () => slide(-step),
      right: () => slide(step),
      drop,
    })[b.dataset.control]();
  });

  let dragging = false;
  slideZone.addEventListener('pointerdown', (e) => {
    if (!sel) return;
    dragging = true;
    slideZone.setPointerCapture(e.pointerId);
    slideTo(e.clientX);
  });
  slideZone.addEventListener('pointermove', (e) => {
    if (dragging) slideTo(e.clientX);
  });
  const stopDrag = () => { dragging = false; };
  slideZone.addEventListener('pointerup', stopDrag);
  slideZone.addEventListener('pointercancel', stopDrag);

  svg.addEventListener('click', (e) => {
    const p = e.target.closest('[data-piece]');
    if (p && (p.dataset.legal === 'true' || p.dataset.premove === 'true')) select(p.dataset.piece);
  });

  svg.addEventListener('keydown', (e) => {
    // Enter or Space on a tray piece picks it (Enter on the piece already picked drops it, as on the well).
    const cell = e.target.closest && e.target.closest('.batik-tray-cell[role="button"]');
    if (cell && (e.key === ' ' || (e.key === 'Enter' && !(sel && sel.id === cell.dataset.piece)))) {
      e.preventDefault();
      select(cell.dataset.piece);
      return;
    }
    const step = e.shiftKey ? 8 : 1;
    const keys = {
      ArrowLeft: () => slide(-step), ArrowRight: () => slide(step),
      q: () => turn(15), e: () => turn(-15), ArrowUp: () => turn(15), ArrowDown: () => turn(-15),
      f: flip, Enter: drop,
    };
    const k = keys[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (k) {
      e.preventDefault();
      k();
    }
  });

  function pieceClass(side, extra = '') {
    return `batik-piece batik-${side === 'C' || side === 0 ? 'light' : 'dark'} ${extra}`.trim();
  }

  // The resting pieces of a view, or the poses of one animation frame.
  // The piece the last drop put in the well (the view's last_fall says which, across a reload too).
  function lastDropped(view) {
    const fall = view && view.last_fall;
    if (!fall || fall.game !== view.round || typeof fall.drop !== 'string') return null;
    return { side: fall.side, id: fall.drop.slice(0, 2) };
  }

  function drawPieces(list, atRest = true) {
    piecesLayer.replaceChildren();
    const last = atRest ? lastDropped(position && position.view) : null;
    for (const p of list) {
      const high = Math.max(...p.polygon.map((q) => q[1]));
      const over = atRest && high > RIM + (shown ? shown.tolerance || 0.05 : 0.05);
      const isLast = Boolean(last && p.side === last.side && p.id === last.id);
      const poly = el('polygon', {
        class: pieceClass(p.side, `${over ? 'batik-over' : ''}${isLast ? ' batik-last' : ''}`),
        points: pointsAttr(p.polygon),
        'data-well-piece': `${p.side}/${p.id}${p.flipped ? '~' : ''}`,
      }, piecesLayer);
      if (isLast) poly.setAttribute('data-last', 'true');
      el('title', {}, poly).textContent = t('batik.piece_title', {
        side: sideName(p.owner), id: p.id, flipped: p.flipped ? t('batik.piece_flipped') : '',
        last: isLast ? t('batik.piece_last') : '',
      });
    }
  }

  function drawTray(seat, view) {
    const g = trays[seat];
    // A redraw replaces the cells: the focused one is focused again afterwards (a keyboard pick).
    const focused = g.contains(document.activeElement) ? document.activeElement.dataset.piece : null;
    g.replaceChildren();
    const side = view.sides[seat];
    const box = layout.tray(seat);
    const cellSize = layout.cell;
    // Only a game under way has a side to drop (a finished one keeps the view's last to_move).
    const toMove = view.to_move === side.side && (!position || position.status === 'live');
    el('rect', {
      class: `batik-tray-box${toMove ? ' batik-to-move' : ''}`,
      x: box.x, y: box.y, width: box.w, height: box.h, rx: 0.25,
    }, g);
    const title = el('text', {
      class: 'batik-tray-title', x: box.x + 0.25, y: box.y + 0.25 + layout.titleSize, 'font-size': layout.titleSize,
    }, g);
    title.textContent = toMove && !layout.narrow ? t('batik.tray_to_drop', {label: seatLabel(seat)}) : seatLabel(seat);
    const available = new Set(side.available);
    const dropped = new Set(side.dropped);
    const lost = new Set(side.lost);
    const mine = composing() && info.mySeat === seat;
    const gridW = 3 * cellSize.w + 2 * cellSize.gapX;
    PIECES.forEach(([id], i) => {
      const cx = box.x + (box.w - gridW) / 2 + (i % 3) * (cellSize.w + cellSize.gapX);
      const cy = box.y + 0.45 + layout.titleSize + Math.floor(i / 3) * (cellSize.h + cellSize.gapY);
      const state = lost.has(id) ? 'lost' : dropped.has(id) ? 'dropped' : available.has(id) ? 'available' : 'lost';
      const canPick = mine && state === 'available' && pickable(id);
      const cell = el('g', {
        class: `batik-tray-cell batik-${state}${sel && sel.id === id && mine ? ' batik-selected' : ''}`,
        'data-piece': id,
        'data-side': side.side,
        'data-state': state,
      }, g);
      if (canPick) {
        // data-legal on my turn (a drop exists for it); data-premove while the opponent is to move. A
        // button the keyboard reaches too: Tab from the well goes through the pieces, Enter or Space picks.
        cell.setAttribute(myTurn() ? 'data-legal' : 'data-premove', 'true');
        cell.setAttribute('role', 'button');
        cell.setAttribute('tabindex', '0');
        cell.setAttribute('aria-label', t('batik.piece', {side: sideName(seat), id}));
        cell.setAttribute('aria-pressed', String(Boolean(sel && sel.id === id)));
      }
      el('rect', { class: 'batik-cell-bg', x: cx, y: cy, width: cellSize.w, height: cellSize.h, rx: 0.12 }, cell);
      const pts = OUTLINE.get(id);
      const k = cellSize.scale;
      const w = Math.max(...pts.map((p) => p[0])) * k;
      const h = Math.max(...pts.map((p) => p[1])) * k;
      const ox = cx + (cellSize.w - w) / 2;
      const oy = cy + 0.12 + (cellSize.h * 0.62 - h) / 2 + h;
      el('polygon', {
        class: pieceClass(seat),
        points: pts.map(([a, b]) => `${(ox + a * k).toFixed(3)},${(oy - b * k).toFixed(3)}`).join(' '),
      }, cell);
      el('text', {
        class: 'batik-cell-label', x: cx + cellSize.w / 2, y: cy + cellSize.h - 0.1, 'font-size': cellSize.h * 0.19,
      }, cell).textContent = id;
      el('title', {}, cell).textContent = t('batik.cell_title', {side: sideName(seat), id, state: t(`batik.state.${state}`)});
    });
    if (focused) {
      const again = g.querySelector(`[data-piece="${focused}"][tabindex="0"]`);
      if (again) again.focus({preventScroll: true});
    }
  }

  function drawHeader(view) {
    let text = view.match ? t('batik.header.match', {round: view.round}) : t('batik.header.single');
    const wins = [0, 0];
    for (const g of view.games || []) wins[g.winner === view.sides[0].side ? 0 : 1]++;
    if (view.match && (view.games || []).length) {
      text = t('batik.header.wins', {header: text, light: wins[0], dark: wins[1]});
    }
    header.textContent = text;
    header.setAttribute('font-size', layout.narrow ? 0.36 : 0.42);
  }

  // Lines shown over the headroom: the outcome once the game is over, or a game's overflow in a match.
  function setOverlay(lines) {
    overlay.replaceChildren();
    lines.forEach((line, i) => {
      el('tspan', { x: sx(WIDTH / 2), dy: i ? 0.7 : 0, 'font-size': i ? 0.46 : 0.62 }, overlay).textContent = line;
    });
    overlay.setAttribute('visibility', lines.length ? 'visible' : 'hidden');
  }

  function outcomeLines(view) {
    if (!view.outcome || !view.outcome.over) return [];
    const winner = sideName(view.outcome.winner === view.sides[0].side ? 0 : 1);
    const reason = view.outcome.reason;
    const why = reason === 'overflow' || reason === 'exhausted' ? t(`batik.outcome.${reason}`) : reason;
    return [t('batik.outcome.wins', {side: winner}), why];
  }

  function renderComposer() {
    const active = composing() && sel && pickable(sel.id);
    controls.classList.toggle('batik-active', Boolean(composing()));
    controls.hidden = !composing();
    for (const b of controls.querySelectorAll('button')) b.disabled = !active;
    button('drop').textContent = t(premoving() ? 'batik.button.premove' : 'batik.button.drop');
    drawBar();
    button('flip').setAttribute('aria-pressed', String(Boolean(sel && sel.flipped)));
    for (const cell of svg.querySelectorAll('.batik-tray-cell')) {
      cell.classList.toggle('batik-selected', Boolean(active && cell.dataset.piece === sel.id &&
        cell.dataset.legal === 'true'));
    }
    if (!active) {
      ghost.setAttribute('visibility', 'hidden');
      guide.setAttribute('visibility', 'hidden');
      ghost.removeAttribute('data-drop');
      button('drop').removeAttribute('data-drop');
      readout.textContent = composing() ? t('batik.pick') : '';
      drawPending();
      return;
    }
    const text = dropText(sel);
    const poly = placed(sel.id, sel.flipped, sel.angle, sel.x8 / 8, RIM);
    const xs = poly.map((p) => p[0]);
    ghost.setAttribute('points', pointsAttr(poly));
    ghost.setAttribute('class', `batik-ghost ${pieceClass(info.mySeat)}`);
    ghost.setAttribute('visibility', 'visible');
    ghost.setAttribute('data-drop', text);
    guide.setAttribute('x', sx(Math.min(...xs)));
    guide.setAttribute('width', Math.max(...xs) - Math.min(...xs));
    guide.setAttribute('y', sy(RIM));
    guide.setAttribute('height', RIM);
    guide.setAttribute('visibility', 'visible');
    const ok = premoving() || legal.texts.has(text);
    button('drop').disabled = !ok;
    button('drop').setAttribute('data-drop', text);
    if (ok && myTurn()) button('drop').setAttribute('data-legal', 'true');
    else button('drop').removeAttribute('data-legal');
    readout.textContent = text;
  }

  // A pending premove's drop, drawn as a dashed ghost over the rim while no other piece is being composed.
  function drawPending() {
    const pending = premove.pending;
    if (!pending || !position) return;
    const m = /^([A-Z]{2})(~?) (\d+) ([\d.]+)$/.exec(pending.text);
    if (!m) return;
    const poly = placed(m[1], m[2] === '~', Number(m[3]), Number(m[4]), RIM);
    ghost.setAttribute('points', pointsAttr(poly));
    ghost.setAttribute('class', `batik-ghost batik-pending ${pieceClass(info.mySeat)}`);
    ghost.setAttribute('visibility', 'visible');
    ghost.setAttribute('data-drop', pending.text);
  }

  function drawBar() {
    let prompt = '';
    let state = 'waiting';
    const view = position && position.view;
    if (premove.pending) {
      prompt = premove.prompt();
      state = 'premove';
    } else if (myTurn()) {
      prompt = sel ? t('batik.bar.compose') : t('batik.bar.your_turn');
      state = 'active';
    } else if (premoving()) {
      prompt = sel ? t('batik.bar.premove_compose') : t('batik.bar.premove');
    } else if (view && position.status === 'live' && !info.replay && view.to_move) {
      prompt = t('batik.bar.to_drop', {side: sideName(view.to_move === view.sides[0].side ? 0 : 1)});
    }
    bar.set({ prompt, buttons: premove.buttons(), state });
  }

  function render() {
    const view = position.view;
    drawHeader(view);
    drawTray(0, view);
    drawTray(1, view);
    if (anim === null && holdTimer === null) setOverlay(outcomeLines(view));
    renderComposer();
  }

  function stopAnimation() {
    if (anim !== null) cancelAnimationFrame(anim);
    if (holdTimer !== null) clearTimeout(holdTimer);
    anim = null;
    holdTimer = null;
    setOverlay([]);
  }

  // Plays the server's frames of the last fall, then shows the resting view (which, after an overflow in a
  // match, is already the next game's empty well: the overflow is held on screen for a moment first).
  function animateFall(fall, view) {
    const bodies = fall.pieces.map((p) => ({ ...p, polygon: p.start }));
    const frames = settledFrames(fall);
    const stepMs = Math.max(10, (fall.interval || 1 / 30) * 1000);
    const start = performance.now();
    const finish = () => {
      anim = null;
      if (fall.game !== view.round) {
        drawPieces(fall.pieces.map((p) => ({ ...p, polygon: p.end })));
        setOverlay([t('batik.overflow'), t('batik.wins_game', {side: sideName(fall.side === 'C' ? 1 : 0), game: fall.game})]);
        holdTimer = setTimeout(() => {
          holdTimer = null;
          drawPieces(view.pieces);
          setOverlay(outcomeLines(view));
        }, 1800);
      } else {
        drawPieces(view.pieces);
        setOverlay(outcomeLines(view));
      }
    };
    const tick = (now) => {
      // rAF's timestamp is the frame's start, which may precede `start`.
      const k = Math.max(0, Math.floor((now - start) / stepMs));
      if (k >= frames.length) return finish();
      frames[k].forEach((poly, j) => { bodies[fall.moving[j]].polygon = poly; });
      drawPieces(bodies, false);
      anim = requestAnimationFrame(tick);
    };
    anim = requestAnimationFrame(tick);
  }

  function shouldAnimate(view) {
    const fall = view.last_fall;
    if (!fall || !fall.frames || !fall.frames.length) return false;
    if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) return false;
    if (info.event && info.event.kind === 'play') return true;
    // A replay step forward: the well drawn before is the fall's starting well.
    return Boolean(info.replay && shown && shown.round === fall.game &&
      shown.pieces.length === fall.pieces.length - 1 && shown !== view);
  }

  return {
    update(pos, inf) {
      const wasMyTurn = myTurn();
      const wasPremoving = premoving();
      position = pos;
      info = { mySeat: null, canAct: false, event: null, replay: false, ...inf };
      legal = indexLegal(myTurn() ? pos.legal : []);
      // A premove picked during the opponent's turn is played (or dropped) as soon as the turn comes.
      if (premove.update(pos, info)) sel = null;
      if (!(myTurn() && wasMyTurn) && !(premoving() && wasPremoving)) sel = null;
      else if (sel && !range(sel)) sel = null;
      else if (sel) sel = settle(sel);
      const view = pos.view;
      if (shouldAnimate(view)) {
        stopAnimation();
        animateFall(view.last_fall, view);
      } else if (anim === null && holdTimer === null) drawPieces(view.pieces);
      shown = view;
      svg.dataset.round = view.round;
      svg.dataset.pieces = view.pieces.length;
      render();
      fitter.refit();
    },
    destroy() {
      stopAnimation();
      premove.destroy();
      fitter.dispose();
      if (resizer) resizer.disconnect();
      root.replaceChildren();
    },
  };
}

// The fall's frames without its tail, where pieces only creep into place by less than a pixel or so.
function settledFrames(fall) {
  const frames = fall.frames || [];
  const ends = (fall.moving || []).map((i) => fall.pieces[i].end);
  const still = (frame) => frame.every((poly, j) =>
    poly.every(([x, y], v) => Math.abs(x - ends[j][v][0]) < 0.01 && Math.abs(y - ends[j][v][1]) < 0.01));
  let n = frames.length;
  while (n > 1 && still(frames[n - 1])) n--;
  return frames.slice(0, n);
}

function drawFrame(svg) {
  const frame = el('g', { class: 'batik-frame' }, svg);
  el('rect', { class: 'batik-glass', x: sx(0), y: sy(RIM), width: WIDTH, height: RIM }, frame);
  el('rect', { class: 'batik-headroom', x: sx(0), y: TOP, width: WIDTH, height: HEADROOM }, frame);
  for (let x = 1; x < WIDTH; x++) {
    el('line', { class: 'batik-grid', x1: sx(x), y1: sy(0), x2: sx(x), y2: sy(RIM) }, frame);
  }
  for (let y = 1; y < RIM; y++) {
    el('line', { class: 'batik-grid', x1: sx(0), y1: sy(y), x2: sx(WIDTH), y2: sy(y) }, frame);
  }
  // Walls below the rim are the frame; above it they only keep pieces from leaving sideways.
  el('rect', { class: 'batik-wall', x: sx(-WALL), y: sy(RIM), width: WALL, height: RIM + WALL }, frame);
  el('rect', { class: 'batik-wall', x: sx(WIDTH), y: sy(RIM), width: WALL, height: RIM + WALL }, frame);
  el('rect', { class: 'batik-wall', x: sx(-WALL), y: sy(0), width: WIDTH + 2 * WALL, height: WALL }, frame);
  el('rect', { class: 'batik-wall-high', x: sx(-WALL), y: TOP, width: WALL, height: HEADROOM }, frame);
  el('rect', { class: 'batik-wall-high', x: sx(WIDTH), y: TOP, width: WALL, height: HEADROOM }, frame);
  el('line', { class: 'batik-rim', x1: sx(-WALL), y1: sy(RIM), x2: sx(WIDTH + WALL), y2: sy(RIM) }, frame);
  el('text', { class: 'batik-rim-label', x: sx(WIDTH) - 0.1, y: sy(RIM) - 0.15 }, frame).textContent = t('batik.rim');
  for (let x = 0; x <= WIDTH; x++) {
    el('text', { class: 'batik-coord batik-coord-x', x: sx(x), y: FLOOR_Y + WALL + 0.6, 'data-x': x }, frame)
      .textContent = String(x);
  }
  for (let y = 0; y <= RIM; y += 2) {
    el('text', { class: 'batik-coord batik-coord-y', x: X0 - WALL - 0.2, y: sy(y) + 0.15, 'data-y': y }, frame)
      .textContent = String(y);
  }
}
