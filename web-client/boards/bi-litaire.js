// Bi-litaire's board: twelve trays of four holes on a 4 x 4 grid of slots, and the marbles in them.
// It draws the server's view and composes actions whose texts are entries of position.legal; it knows
// the geometry (which slot holds which hole, which trays a push carries, for the preview) but no rules.
// A turn is composed, then confirmed (compose.js): each action is tried on the server and drawn as it
// would stand; the bar above the board holds the prompt, the announcements, Undo and Confirm.

import {Composer, fit_to_viewport, last_turn_of, TurnBar} from '../compose.js';
import {t} from '../i18n.js';
import {board_stylesheet, el, lazy} from './kit.js';

const kCell = 56;   // one hole's square; a tray is 2 x 2 cells
const kLeft = 34;   // room for the hole ranks 1..8
const kTop = 30;    // room for the slot columns A..D
const kRight = 30;  // room for the slot rows 1..4
const kBoard = 8 * kCell;
const kPanelTop = kTop + kBoard + 26;  // below the hole files a..h
const kWidth = kLeft + kBoard + kRight;
const kHeight = kPanelTop + 54;  // two lines: the round and the roles (the prompt is in the bar)
const kFiles = 'abcdefgh';
const kSlotFiles = 'ABCD';
const kDirs = {
  '>': [1, 0],
  '<': [-1, 0],
  '^': [0, 1],
  'v': [0, -1]
};
// A push's direction in words, from its mark: the game's catalog's 'bi-litaire.dir.right'...
const kDirNames = {
  '>': 'right',
  '<': 'left',
  '^': 'up',
  'v': 'down'
};
const dir_word = (mark) => (kDirNames[mark] ? t(`bi-litaire.dir.${kDirNames[mark]}`) : mark);

function text(parent, x, y, content, attrs = {}) {
  const t = el('text', {x, y, ...attrs}, parent);
  t.textContent = content;
  return t;
}

// Squares: holes `a1`..`h8` are [col 0..7, row 0..7]; slots `A1`..`D4` are [col 0..3, row 0..3].
const holeName = (c, r) => kFiles[c] + (r + 1);
const slotName = (c, r) => kSlotFiles[c] + (r + 1);
const parseHole = (s) => [kFiles.indexOf(s[0]), Number(s.slice(1)) - 1];
const parseSlot = (s) => [kSlotFiles.indexOf(s[0]), Number(s.slice(1)) - 1];
const holeX = (c) => kLeft + c * kCell + kCell / 2;
const holeY = (r) => kTop + (7 - r) * kCell + kCell / 2;
const slotX = (c) => kLeft + c * 2 * kCell;
const slotY = (r) => kTop + (3 - r) * 2 * kCell;
const isSlotText = (s) => /^[A-D][1-4]$/.test(s);

// A push text `B1 >2` read as {slot, mark, distance}; null for anything else.
function readPush(action) {
  const m = /^([A-D][1-4]) ([<>^v])(\d+)$/.exec(action);
  return m ? {slot: m[1], mark: m[2], distance: Number(m[3])} : null;
}

// The game has no options (options.js shows none).
export const optionWords = {};

// The room's capture sound (sound.js) asks how many pieces a side has left: null, the marbles belong to no
// side (a jump takes a marble off for the marble player's own score).
export function pieces_left() { return null; }

// The notation's symbols (docs/notation.md) for the move list's legend, and one action in words for its
// "in words" view.
export const notationLegend = lazy(() => [
  ['x d4', t('bi-litaire.legend.first')],
  ['d2 d4', t('bi-litaire.legend.jump')],
  ['B1 >2', t('bi-litaire.legend.push')],
  ['x B1', t('bi-litaire.legend.remove_tray')],
  ['!3', t('bi-litaire.legend.announce')],
], []);
export function actionWords(text) {
  let m = /^x\s+([A-Z]\d+)$/.exec(text);
  if (m) return t('bi-litaire.action.remove_tray', {slot: m[1]});
  m = /^x\s+([a-z]\d+)$/.exec(text);
  if (m) return t('bi-litaire.action.remove_marble', {square: m[1]});
  m = /^!(\d+)$/.exec(text);
  if (m) return t('bi-litaire.action.announce', {count: Number(m[1])});
  m = /^([A-Z]\d+)\s+([<>^v])(\d+)$/.exec(text);
  if (m) return t('bi-litaire.action.push', {slot: m[1], distance: m[3], way: dir_word(m[2])});
  const squares = text.trim().split(/\s+/);
  return squares.length >= 2 && squares.every((s) => /^[a-z]\d+$/.test(s)) ?
      t('bi-litaire.action.jump', {path: squares.join(' → ')}) : text;
}

export function mount(root, ctx) {
  const cssReady = board_stylesheet('bi-litaire');  // boards drawn before it loads are drawn again then (text widths change)
  const bar = new TurnBar('turn-bar-bi-litaire');
  const svg = el('svg', {
    class: 'board board-bi-litaire',
    viewBox: `0 0 ${kWidth} ${kHeight}`,
    role: 'group',
    'aria-label': t('bi-litaire.board'),
  });
  root.append(bar.node, svg);
  const fitter = fit_to_viewport(root, svg);
  const composer = new Composer(ctx, {on_change: () => show_composed()});

  let base = null;  // the room's position
  let baseInfo = {mySeat: null, canAct: false, event: null, replay: false};
  let position = null;  // what is drawn: the room's position, or the tried one while a turn is composed
  let info = {mySeat: null, canAct: false, event: null, replay: false};
  let selection = null;  // {kind: 'tray', slot} or {kind: 'chain', path: [hole...]}
  let preview = null;    // the push text whose result is previewed
  let animation = null;  // the jump being animated: {path, hide, start}
  let previewLayer = null;
  let previewState = null;

  const view = () => (position && position.view) || null;
  const legal = () => (info.canAct && position && Array.isArray(position.legal) ? position.legal : []);

  // Each action is tried first (the composer); Confirm in the bar sends the turn.
  function send(actions) {
    selection = null;
    preview = null;
    for (const a of actions) composer.add(a);
    render();
  }

  // --- what may be played from here (all from position.legal)

  function chainsFrom(path) {
    const prefix = path.join(' ');
    return legal().filter(
        (a) => /^[a-h]\d( [a-h]\d)+$/.test(a) && (a === prefix || a.startsWith(prefix + ' ')));
  }
  function nextLandings(path) {
    const out = new Set();
    for (const a of chainsFrom(path)) {
      const parts = a.split(' ');
      if (parts.length > path.length) out.add(parts[path.length]);
    }
    return out;
  }
  function chainStarts() {
    const out = new Set();
    for (const a of legal())
      if (/^[a-h]\d( [a-h]\d)+$/.test(a)) out.add(a.split(' ')[0]);
    return out;
  }
  function trayActions(slot) { return legal().filter((a) => a === 'x ' + slot || a.startsWith(slot + ' ')); }
  function announcements() { return legal().filter((a) => /^!\d+$/.test(a)); }

  // The trays a push carries: the pushed one and those touching it in line ahead (display only).
  function pushGroup(push, trays) {
    const [dc, dr] = kDirs[push.mark];
    let [c, r] = parseSlot(push.slot);
    const group = [];
    while (c >= 0 && c < 4 && r >= 0 && r < 4 && trays.has(slotName(c, r))) {
      group.push(slotName(c, r));
      c += dc;
      r += dr;
    }
    return group;
  }
  // Where a push's front tray lands: a free slot, the target the player clicks.
  function pushTarget(push, trays) {
    const group = pushGroup(push, trays);
    const [c, r] = parseSlot(group[group.length - 1]);
    const [dc, dr] = kDirs[push.mark];
    return slotName(c + dc * push.distance, r + dr * push.distance);
  }

  // --- drawing

  function render() {
    svg.replaceChildren();
    const v = view();
    if (!v) return;
    const defs = el('defs', {}, svg);
    const grad = el('radialGradient', {id: 'bl-marble', cx: '35%', cy: '30%', r: '70%'}, defs);
    el('stop', {offset: '0%', 'stop-color': '#ffffff'}, grad);
    el('stop', {offset: '35%', 'stop-color': '#8fb8e8'}, grad);
    el('stop', {offset: '100%', 'stop-color': '#1f4f8f'}, grad);
    const wood = el('linearGradient', {id: 'bl-wood', x1: '0', y1: '0', x2: '1', y2: '1'}, defs);
    el('stop', {offset: '0%', 'stop-color': '#e9c98f'}, wood);
    el('stop', {offset: '100%', 'stop-color': '#c99a57'}, wood);

    const slots = new Map(v.slots.map((s) => [s.slot, s]));
    const trays = new Set(v.slots.filter((s) => s.tray).map((s) => s.slot));
    const marbles = new Set(v.slots.flatMap((s) => s.marbles));
    const phase = v.phase;
    svg.dataset.phase = phase;
    svg.dataset.round = v.round;

    // Selection state for this drawing.
    const chainPath = selection && selection.kind === 'chain' ? selection.path : null;
    const landings = chainPath ? nextLandings(chainPath) : new Set();
    const starts = phase === 'marbles' ? chainStarts() : new Set();
    const jumped = new Set();
    if (chainPath) {
      for (let i = 1; i < chainPath.length; ++i) {
        const [c0, r0] = parseHole(chainPath[i - 1]);
        const [c1, r1] = parseHole(chainPath[i]);
        jumped.add(holeName((c0 + c1) / 2, (r0 + r1) / 2));
      }
    }
    const selectedTray = selection && selection.kind === 'tray' ? selection.slot : null;
    const pushes = selectedTray ? trayActions(selectedTray).map(readPush).filter(Boolean) : [];
    const marks = turnMarks();
    const lastSquares = marks.squares;

    el('rect', {class: 'bl-frame', x: 2, y: 2, width: kWidth - 4, height: kHeight - 4, rx: 14}, svg);

    // Coordinates: hole files and ranks in lower case, slot columns and rows in upper case.
    for (let i = 0; i < 8; ++i) {
      text(svg, holeX(i), kTop + kBoard + 18, kFiles[i], {class: 'bl-coord'});
      text(svg, kLeft / 2, holeY(i) + 5, String(i + 1), {class: 'bl-coord'});
    }
    for (let i = 0; i < 4; ++i) {
      text(svg, slotX(i) + kCell, kTop - 10, kSlotFiles[i], {class: 'bl-coord bl-coord-slot'});
      text(
          svg, kLeft + kBoard + kRight / 2, slotY(i) + kCell + 5, String(i + 1),
          {class: 'bl-coord bl-coord-slot'});
    }

    // The slot grid: free slots are outlines (a push target when legal).
    const targetFor = new Map();
    for (const p of pushes) targetFor.set(pushTarget(p, trays), p);
    for (let r = 0; r < 4; ++r) {
      for (let c = 0; c < 4; ++c) {
        const name = slotName(c, r);
        if (trays.has(name)) continue;
        const push = targetFor.get(name);
        const g =
            el('g', {
              class: 'bl-slot' + (push ? ' bl-target' : ''),
              'data-square': name,
              'data-legal': push ? 'true' : null,
              'data-action': push ? `${push.slot} ${push.mark}${push.distance}` : null,
            },
               svg);
        el('rect', {x: slotX(c) + 5, y: slotY(r) + 5, width: 2 * kCell - 10, height: 2 * kCell - 10, rx: 12},
           g);
        if (push) {
          const arrow = {'>': '→', '<': '←', '^': '↑', 'v': '↓'}[push.mark];
          text(
              g, slotX(c) + kCell, slotY(r) + kCell + 8, `${arrow}${push.distance}`,
              {class: 'bl-target-label'});
          const label = t('bi-litaire.push_label', {
            slot: push.slot, way: dir_word(push.mark), distance: String(push.distance),
            text: `${push.slot} ${push.mark}${push.distance}`,
          });
          makeButton(g, label, () => send([`${push.slot} ${push.mark}${push.distance}`]));
          g.addEventListener('pointerenter', () => setPreview(`${push.slot} ${push.mark}${push.distance}`));
          g.addEventListener('pointerleave', () => setPreview(null));
          g.addEventListener('focus', () => setPreview(`${push.slot} ${push.mark}${push.distance}`));
          g.addEventListener('blur', () => setPreview(null));
        }
      }
    }

    // A tray the last turn took off the board: its outline, crossed, on the slot it left.
    for (const name of marks.removedTrays) {
      if (trays.has(name)) continue;
      const [c, r] = parseSlot(name);
      const g = el('g', {class: 'bl-removed-tray', 'data-removed': name}, svg);
      el('rect', {x: slotX(c) + 9, y: slotY(r) + 9, width: 2 * kCell - 18, height: 2 * kCell - 18, rx: 10},
         g);
      el('path', {
        class: 'bl-cross',
        d: `M${slotX(c) + 30} ${slotY(r) + 30}L${slotX(c) + 2 * kCell - 30} ${slotY(r) + 2 * kCell - 30}` +
            `M${slotX(c) + 2 * kCell - 30} ${slotY(r) + 30}L${slotX(c) + 30} ${slotY(r) + 2 * kCell - 30}`
      },
         g);
    }

    // Trays and their holes.
    for (const name of trays) {
      const [c, r] = parseSlot(name);
      const actions = phase === 'tray' ? trayActions(name) : [];
      const selectable = actions.length > 0;
      const g =
          el('g', {
            class: 'bl-tray' + (selectable ? ' bl-selectable' : '') +
                (selectedTray === name ? ' bl-selected' : '') + (lastSquares.has(name) ? ' bl-last' : ''),
            'data-square': name,
            'data-piece': 'tray',
            'data-legal': selectable && !selectedTray ? 'true' : null,
          },
             svg);
      el('rect', {
        class: 'bl-tray-body',
        x: slotX(c) + 5,
        y: slotY(r) + 5,
        width: 2 * kCell - 10,
        height: 2 * kCell - 10,
        rx: 12,
        fill: 'url(#bl-wood)'
      },
         g);
      if (selectable) {
        makeButton(g, t('bi-litaire.tray', {slot: name}), () => {
          selection = selectedTray === name ? null : {kind: 'tray', slot: name};
          preview = null;
          render();
        });
      }
      for (let dr = 0; dr < 2; ++dr) {
        for (let dc = 0; dc < 2; ++dc) drawHole(g, 2 * c + dc, 2 * r + dr);
      }
    }

    function drawHole(parent, c, r) {
      const name = holeName(c, r);
      const x = holeX(c);
      const y = holeY(r);
      let has = marbles.has(name);
      const inChain = chainPath && chainPath.includes(name);
      if (chainPath && (name === chainPath[0] || jumped.has(name))) has = false;
      let legalHere = false;
      let onClick = null;
      let label = null;
      if (phase === 'first_removal' && has && legal().includes('x ' + name)) {
        legalHere = true;
        label = t('bi-litaire.hole.remove', {square: name});
        onClick = () => send(['x ' + name]);
      } else if (phase === 'marbles' && chainPath && landings.has(name)) {
        legalHere = true;
        label = t('bi-litaire.hole.jump', {square: name});
        onClick = () => extendChain(name);
      } else if (phase === 'marbles' && starts.has(name) && !(chainPath && chainPath[0] === name)) {
        legalHere = !chainPath;
        label = t('bi-litaire.hole.marble', {square: name});
        onClick = () => {
          selection = {kind: 'chain', path: [name]};
          render();
        };
      } else if (phase === 'marbles' && chainPath && name === chainPath[0] && chainPath.length === 1) {
        label = t('bi-litaire.hole.selected', {square: name});
        onClick = () => {
          selection = null;
          render();
        };
      }
      const g =
          el('g', {
            class: 'bl-hole' + (legalHere ? ' bl-legal' : '') +
                (starts.has(name) && !chainPath ? ' bl-start' : '') + (jumped.has(name) ? ' bl-jumped' : '') +
                (inChain ? ' bl-in-chain' : '') + (lastSquares.has(name) ? ' bl-last' : ''),
            'data-square': name,
            'data-piece': has ? 'marble' : null,
            'data-legal': legalHere ? 'true' : null,
          },
             parent);
      el('circle', {class: 'bl-well', cx: x, cy: y, r: 19}, g);
      if (jumped.has(name)) el('circle', {class: 'bl-marble bl-ghost', cx: x, cy: y, r: 16}, g);
      if (!has && !jumped.has(name) && marks.removed.has(name)) {
        // A marble the last turn took (jumped over, or the round's first removal): a ghost with a cross.
        const ghost = el('g', {class: 'bl-removed', 'data-removed': name}, g);
        el('circle', {class: 'bl-marble bl-ghost', cx: x, cy: y, r: 16}, ghost);
        el('path',
           {class: 'bl-cross', d: `M${x - 8} ${y - 8}L${x + 8} ${y + 8}M${x + 8} ${y - 8}L${x - 8} ${y + 8}`},
           ghost);
      }
      if (has && !(animation && animation.hide === name)) {
        el('circle', {class: 'bl-marble', cx: x, cy: y, r: 16, fill: 'url(#bl-marble)'}, g);
      }
      if (legalHere) el('circle', {class: 'bl-ring', cx: x, cy: y, r: 22}, g);
      if (onClick)
        makeButton(g, label, onClick);
      else if (phase === 'tray') {
        // Holes belong to their tray in the tray player's turn: a click on one picks the tray.
        g.style.pointerEvents = 'none';
      }
    }

    // The last turn's chain (or the one composed): its path as a line over the holes.
    if (marks.path && !chainPath) {
      const pts = marks.path.map((h) => {
        const [c, r] = parseHole(h);
        return `${holeX(c)},${holeY(r)}`;
      });
      el('polyline', {class: 'bl-last-path' + (marks.composed ? ' bl-composed' : ''), points: pts.join(' ')},
         svg);
    }

    // The chain being composed: the jumper at its current hole, the path as a line.
    if (chainPath) {
      const pts = chainPath.map((h) => {
        const [c, r] = parseHole(h);
        return `${holeX(c)},${holeY(r)}`;
      });
      if (pts.length > 1) el('polyline', {class: 'bl-path', points: pts.join(' ')}, svg);
      const [c, r] = parseHole(chainPath[chainPath.length - 1]);
      el('circle', {class: 'bl-marble bl-jumper', cx: holeX(c), cy: holeY(r), r: 17, fill: 'url(#bl-marble)'},
         svg);
      const again = el('g', {class: 'bl-jumper-hit'}, svg);
      el('circle', {cx: holeX(c), cy: holeY(r), r: 18, fill: 'transparent'}, again);
      makeButton(again, t('bi-litaire.cancel_jump'), () => {
        selection = null;
        render();
      });
    }

    // The push preview (hover or focus on a target) is drawn in its own layer, above the trays.
    previewLayer = el('g', {class: 'bl-preview-layer'}, svg);
    previewState = {trays, slots};
    drawPreview();

    // The removal of an empty tray: a badge on the selected tray.
    if (selectedTray && trayActions(selectedTray).includes('x ' + selectedTray)) {
      const [c, r] = parseSlot(selectedTray);
      const g = el('g', {class: 'bl-remove', 'data-action': 'x ' + selectedTray, 'data-legal': 'true'}, svg);
      el('rect', {x: slotX(c) + kCell - 40, y: slotY(r) + kCell - 16, width: 80, height: 32, rx: 16}, g);
      text(g, slotX(c) + kCell, slotY(r) + kCell + 6, t('bi-litaire.remove'), {});
      makeButton(g, t('bi-litaire.remove_tray', {slot: selectedTray, text: `x ${selectedTray}`}),
                 () => send(['x ' + selectedTray]));
    }

    if (animation) drawAnimation();
    drawPanel(v);
  }

  function makeButton(g, label, onClick) {
    g.setAttribute('role', 'button');
    g.setAttribute('tabindex', '0');
    g.setAttribute('aria-label', label);
    g.classList.add('bl-clickable');
    g.addEventListener('click', (e) => {
      e.stopPropagation();
      onClick();
    });
    g.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onClick();
      }
    });
  }

  function setPreview(action) {
    if (preview === action) return;
    preview = action;
    drawPreview();
  }

  function drawPreview() {
    if (!previewLayer || !previewState) return;
    previewLayer.replaceChildren();
    const push = preview ? readPush(preview) : null;
    const group = push ? pushGroup(push, previewState.trays) : [];
    for (const tray of svg.querySelectorAll('.bl-tray')) {
      tray.classList.toggle('bl-moving', group.includes(tray.dataset.square));
    }
    if (!push) return;
    const [dc, dr] = kDirs[push.mark];
    for (const name of group) {
      const [c, r] = parseSlot(name);
      const nc = c + dc * push.distance;
      const nr = r + dr * push.distance;
      const g = el('g', {class: 'bl-preview'}, previewLayer);
      el('rect', {x: slotX(nc) + 5, y: slotY(nr) + 5, width: 2 * kCell - 10, height: 2 * kCell - 10, rx: 12},
         g);
      for (const m of previewState.slots.get(name).marbles) {
        const [hc, hr] = parseHole(m);
        el('circle', {cx: holeX(hc + 2 * dc * push.distance), cy: holeY(hr + 2 * dr * push.distance), r: 14},
           g);
      }
    }
  }

  function extendChain(hole) {
    const path = [...selection.path, hole];
    const action = path.join(' ');
    if (legal().includes(action)) {
      send([action]);
      return;
    }
    selection = {kind: 'chain', path};
    render();
  }

  // --- the panel under the board (round, roles) and the bar above it (what to do now)

  function drawPanel(v) {
    const g = el('g', {class: 'bl-panel'}, svg);
    const name = playerName;
    const y0 = kPanelTop + 4;
    const scores = v.round_scores || [];
    const known = (n) => n !== null && n !== undefined;
    let title = t('bi-litaire.panel.title', {round: v.round, count: v.marbles_left});
    if (known(scores[0]) && known(scores[1]))
      title = t('bi-litaire.panel.left_both', {title, first: scores[0], second: scores[1]});
    else if (known(scores[0]))
      title = t('bi-litaire.panel.left_first', {title, first: scores[0]});
    fit(text(g, 10, y0 + 16, title, {class: 'bl-panel-title'}));
    fit(text(
        g, 10, y0 + 40, t('bi-litaire.panel.roles', {marbles: name(v.marble_player), trays: name(v.tray_player)}),
        {class: 'bl-panel-text'}));
    drawBar(v);
  }

  // The bar: the prompt, the announcements that may follow a tray action, Undo and Confirm. One way to end
  // the turn at a time: Confirm (the room's End turn button is not shown for this board).
  function drawBar(v) {
    const buttons = [];
    const tried = composer.composing;
    const announce = v.phase === 'tray_done' && info.canAct ? announcements() : [];
    for (const a of announce) {
      buttons.push({
        label: t('bi-litaire.announce', {text: a}),
        action: a,
        aria: t('bi-litaire.announce_aria', {count: Number(a.slice(1))}),
        onclick: () => send([a]),
      });
    }
    const confirm_label = v.phase === 'tray_done' && announce.length ? t('bi-litaire.confirm_no_announce') : null;
    buttons.push(...composer.buttons({confirm_label}));
    bar.set({
      prompt: prompt(v),
      steps: tried ? composer.played.join(' · ') : '',
      buttons,
      state: composer.sent  ? 'sent' :
          composer.complete ? 'complete' :
          info.canAct       ? 'active' :
                              'waiting',
    });
  }

  // A line longer than the panel is squeezed to fit (long names, long prompts).
  function fit(line) {
    const room = kWidth - 20;
    try {
      if (line.getComputedTextLength() > room) {
        line.setAttribute('textLength', room);
        line.setAttribute('lengthAdjust', 'spacingAndGlyphs');
      }
    } catch (e) {
      // Not laid out: nothing to measure.
    }
  }

  // Player 1 holds seat 0. Long names are cut: the panel is one line wide.
  function playerName(player) {
    const n = (ctx.seatNames && ctx.seatNames[player - 1]) || t('seat.player', {number: player});
    return n.length > 16 ? n.slice(0, 15) + '…' : n;
  }

  function prompt(v) {
    if (composer.sent) return t('bi-litaire.bar.sent');
    if (composer.busy) return t('bi-litaire.bar.trying');
    if (composer.complete) {
      const [last] = composer.steps.slice(-1);
      if (/^!\d+$/.test(last)) return t('bi-litaire.bar.announced', {text: last});
      return t('bi-litaire.bar.confirm');
    }
    if (v.phase === 'over') {
      const score = String(v.score);
      return v.winner ? t('bi-litaire.bar.over_win', {name: playerName(v.winner), score}) :
                        t('bi-litaire.bar.over_draw', {score});
    }
    const role = t(v.to_move === 'M' ? 'bi-litaire.role.M' : 'bi-litaire.role.T');
    if (!info.canAct) {
      if (position && position.status && position.status !== 'live' && !info.replay) return '';
      return info.replay || baseInfo.mySeat === null || baseInfo.mySeat === undefined ?
          t('bi-litaire.bar.to_move', {role}) :
          t('bi-litaire.bar.waiting', {role});
    }
    switch (v.phase) {
      case 'first_removal':
        return t('bi-litaire.bar.first_removal');
      case 'tray':
        if (selection && selection.kind === 'tray') {
          const acts = trayActions(selection.slot);
          const canRemove = acts.includes('x ' + selection.slot);
          if (acts.length === 1 && canRemove)
            return t('bi-litaire.bar.tray_empty', {slot: selection.slot});
          return t(canRemove ? 'bi-litaire.bar.tray_push_remove' : 'bi-litaire.bar.tray_push', {slot: selection.slot});
        }
        return t('bi-litaire.bar.tray');
      case 'tray_done':
        // Announcements are offered only when the server lists some (a chain of two or more exists).
        return announcements().length ?
            t('bi-litaire.bar.announce') :
            t(composer.composing ? 'bi-litaire.bar.no_chain_undo' : 'bi-litaire.bar.no_chain');
      case 'marbles': {
        const need = v.announced || 1;
        if (selection && selection.kind === 'chain') {
          const done = selection.path.length - 1;
          return need > 1 ? t('bi-litaire.bar.chain_step', {need, step: done + 1}) : t('bi-litaire.bar.jump');
        }
        return need > 1 ? t('bi-litaire.bar.pick_chain', {need}) : t('bi-litaire.bar.pick');
      }
      default:
        return '';
    }
  }

  // --- the last turn: its squares highlighted, what it removed ghosted, a jump animated along its path

  // The marks of the turn shown: the one being composed, else the last one (compose.js last_turn_of).
  // {squares, removed (holes), removedTrays (slots), path (the chain's holes), composed}.
  function turnMarks() {
    const out =
        {squares: new Set(), removed: new Set(), removedTrays: new Set(), path: null, composed: false};
    let actions = null;
    if (composer.composing) {
      actions = composer.steps;
      out.composed = true;
    } else {
      const last = last_turn_of(base, baseInfo);
      actions = last && Array.isArray(last.actions) ? last.actions : null;
    }
    if (!actions) return out;
    for (const a of actions) {
      const push = readPush(a);
      if (push) {
        // After a push, show the trays where they landed.
        const [dc, dr] = kDirs[push.mark];
        const [c, r] = parseSlot(push.slot);
        out.squares.add(slotName(c + dc * push.distance, r + dr * push.distance));
        continue;
      }
      let m = /^x ([a-h][1-8])$/.exec(a);
      if (m) {
        out.removed.add(m[1]);
        continue;
      }
      m = /^x ([A-D][1-4])$/.exec(a);
      if (m) {
        out.removedTrays.add(m[1]);
        continue;
      }
      if (/^[a-h][1-8]( [a-h][1-8])+$/.test(a)) {
        const path = a.split(' ');
        out.path = path;
        for (const h of path) out.squares.add(h);
        for (let i = 1; i < path.length; ++i) {
          const [c0, r0] = parseHole(path[i - 1]);
          const [c1, r1] = parseHole(path[i]);
          out.removed.add(holeName((c0 + c1) / 2, (r0 + r1) / 2));
        }
      }
    }
    return out;
  }

  function startAnimation() {
    const ev = baseInfo.event;
    const chain =
        ev && Array.isArray(ev.actions) ? ev.actions.find((a) => /^[a-h]\d( [a-h]\d)+$/.test(a)) : null;
    if (!chain || baseInfo.replay || matchMedia('(prefers-reduced-motion: reduce)').matches) {
      animation = null;
      return;
    }
    const path = chain.split(' ');
    animation = {path, hide: path[path.length - 1], start: performance.now()};
    const tick = () => {
      if (!animation || animation.path !== path) return;
      if (performance.now() - animation.start > path.length * 260) {
        animation = null;
        render();
        return;
      }
      moveJumper();
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  function drawAnimation() {
    el('circle', {class: 'bl-marble bl-flying', r: 17, fill: 'url(#bl-marble)'}, svg);
    moveJumper();
  }

  function moveJumper() {
    const m = svg.querySelector('.bl-flying');
    if (!m || !animation) return;
    const {path, start} = animation;
    const t = Math.min((performance.now() - start) / 260, path.length - 1);
    const i = Math.min(Math.floor(t), path.length - 2);
    const f = t - i;
    const [c0, r0] = parseHole(path[i]);
    const [c1, r1] = parseHole(path[i + 1]);
    const x = holeX(c0) + (holeX(c1) - holeX(c0)) * f;
    const y = holeY(r0) + (holeY(r1) - holeY(r0)) * f - Math.sin(Math.PI * f) * 26;
    m.setAttribute('cx', x);
    m.setAttribute('cy', y);
  }

  svg.addEventListener('click', () => {
    // A click on nothing clickable drops the selection.
    if (selection) {
      selection = null;
      preview = null;
      render();
    }
  });

  let destroyed = false;
  cssReady.then(() => {
    if (!destroyed) render();
  });

  // Draws what the composer holds: the tried position while a turn is composed, else the room's. A picked
  // tray or marble stays picked while the drawn position is the same one (a presence or clock update).
  function show_composed() {
    const next = composer.position;
    const same = !!position && !!next && position.view === next.view && info.canAct === composer.info.canAct;
    position = next;
    info = composer.info;
    if (!same) {
      selection = null;
      preview = null;
    }
    render();
    fitter.refit();
  }

  const onKey = (e) => {
    if (!e.defaultPrevented && !e.target.closest?.('.bl-clickable')) composer.handle_key(e);
  };
  root.addEventListener('keydown', onKey);

  return {
    owns_end_turn: true,  // the bar's Confirm replaces the room's End turn button
    update(newPosition, newInfo) {
      const changed = !base || !newPosition || base.view !== newPosition.view;
      base = newPosition;
      baseInfo = {mySeat: null, canAct: false, event: null, replay: false, ...(newInfo || {})};
      composer.update(base, baseInfo);
      // Only a new position animates its jump (presence or clock updates repeat the last event).
      if (changed) startAnimation();
      show_composed();
    },
    destroy() {
      destroyed = true;
      animation = null;
      composer.destroy();
      fitter.dispose();
      root.removeEventListener('keydown', onKey);
      bar.node.remove();
      svg.remove();
    },
  };
}
