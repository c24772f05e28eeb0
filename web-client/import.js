// The import page (#/import): paste or upload a record, have the server check it (POST /api/replay), then
// step through it on the game's board. A bad record shows the server's "line N: reason".

import {mount_board} from './board-host.js';
import {fetch_replay, replay_position, ReplayControls} from './replay.js';
import {el, game_title} from './ui.js';

export function render_import(root) {
  let board = null;
  let controls = null;
  let destroyed = false;
  let generation = 0;  // a newer submit wins over a slower older one

  const text = el('textarea', {
    id: 'import-text',
    rows: '12',
    spellcheck: false,
    placeholder: '#! TABLUT\nA = alice    D = bob\n1   A/e2 c2/    D/e3 c3/'
  });
  const file = el('input', {id: 'import-file', type: 'file', accept: '.txt,text/plain'});
  const error = el('p', {id: 'import-error', class: 'import-error', role: 'alert', hidden: true});
  const submit = el('button', {id: 'import-submit', type: 'submit', class: 'primary'}, 'Show the replay');
  const form =
      el('form', {class: 'card-form import-form'},
         el('div', {class: 'field'},
            el('label',
               {for: 'import-text'
               },
               'Record (notation.md form)'),
            text),
         el('div', {class: 'field'}, el('label', {for: 'import-file'
            }, 'or a file'), file), el('div', {class: 'buttons'}, submit), error);
  const summary = el('div', {class: 'import-summary'});
  const board_root = el('div', {id: 'board', class: 'board-host'});
  const viewer =
      el('section', {class: 'import-viewer', hidden: true, 'aria-label': 'Replay'}, summary,
         el('div', {class: 'room-layout'}, el('div', {class: 'room-board'}, board_root),
            el('div', {class: 'room-panel replay-panel'})));
  const panel = viewer.querySelector('.replay-panel');

  file.addEventListener('change', async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    text.value = await chosen.text();
    form.requestSubmit();
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const sequence = ++generation;
    submit.disabled = true;
    const {data, error: failure} = await fetch_replay(text.value);
    submit.disabled = false;
    if (destroyed || sequence !== generation) return;
    if (failure) {
      error.textContent = failure.message;
      error.hidden = false;
      return;
    }
    error.hidden = true;
    await show_replay(data);
  });

  async function show_replay(data) {
    if (controls) controls.destroy();
    if (board) board.destroy();
    board = null;
    board_root.replaceChildren();
    const players = data.players || [];
    const sides = data.sides || [];
    summary.replaceChildren(el('h2', {}, game_title(data.game)), el('p', {class: 'muted'}, [
                              data.options || 'standard rules',
                              players.map((p, i) => `${sides[i] || ''} ${p}`.trim()).join(' vs '),
                              data.finished ? `result: ${data.result || 'finished'}` : 'unfinished'
                            ].join(' · ')));
    viewer.hidden = false;
    const ctx = {game: data.game, options: data.options, sides, seatNames: players, act: () => {}};
    const mounted = await mount_board(board_root, ctx);
    if (destroyed) {
      mounted.destroy();
      return;
    }
    board = mounted;
    controls = new ReplayControls((index, step) => {
      board.update(replay_position(step, sides), {mySeat: null, canAct: false, event: null, replay: true});
    });
    panel.replaceChildren(controls.node, el('pre', {id: 'moves', class: 'moves'}, data.record || ''));
    controls.set_steps(data.steps, 0);
  }

  root.append(
      el('div', {class: 'import'},
         el('section', {class: 'card'}, el('h1', {}, 'Import a record'),
            el('p', {class: 'muted'}, 'Paste a game record or open a .txt file to replay it move by move.'),
            form),
         viewer));
  document.title = 'Cinq — import';

  return () => {
    destroyed = true;
    if (controls) controls.destroy();
    if (board) board.destroy();
  };
}
