// The import page (#/import): paste or upload a record, have the server check it (POST /api/replay), then
// step through it on the game's board with the move list. A bad record shows the server's "line N: reason",
// and nothing of an earlier replay stays on screen beside it. A chosen file only fills the box: "Show the
// replay" asks the server, once. The replay comes above the form, its title beside the board as in a room,
// so that the board gets the screen's height (the boards fit themselves to the height under their top).

import {mount_board} from './board-host.js';
import {error_text, rules_reason_text} from './errors.js';
import {t} from './i18n.js';
import {MoveList} from './movelist.js';
import {play_on_panel} from './play-on.js';  // play on from the position shown
import {fetch_replay, replay_position, replay_turns} from './replay.js';
import {el, game_title, notify} from './ui.js';
import {parse_result_text, result_sentence, seat_label} from './words.js';

// Why a text is no record before the server is asked: an empty text, or one without a `#!` line nor a turn
// line. The server reads a record without `#!` as Baltek (notation.md), so such a text would replay as an
// empty Baltek game that nobody wrote.
export function import_refusal(text) {
  if (!String(text || '').trim()) return t('import.empty');
  const header = /^\s*#!/m.test(text);
  const turn = /^\s*\d*\s*[A-Z]\/\S/m.test(text);
  if (!header && !turn) {
    return t('import.no_game');
  }
  return null;
}

// The players by seat with their sides in words: 'Attackers (A): alice vs Defenders (D): bob'.
function players_text(game, players) {
  if (!players.some(Boolean)) return '';
  return players.map((name, seat) => t('import.player', {side: seat_label({game}, seat), name: name || '?'}))
      .join(t('import.versus'));
}

// How the record ends, in words: 'Ben (Defenders) wins — the king escaped to a corner', or that it goes on.
function outcome_text(data) {
  if (!data.finished) return t(data.incomplete ? 'import.unfinished_cut' : 'import.unfinished');
  const result = parse_result_text(data.game, data.result);
  return result ? `${result_sentence(data.game, result, data.players || [])}.` :
                  t('import.result', {result: data.result || t('import.finished')});
}

// Why the server refused a record (fetch_replay's error), in the reader's language: "line N" around the
// rules' reason said from the catalog (its reason_code and params; the server's English text only for a code
// the catalog does not know), or the refusal by its code.
export function replay_failure_text(failure) {
  if (!failure) return t('error.unknown');
  if (failure.code === 'unreachable') return t('play_on.unreachable');
  const message = rules_reason_text(failure, failure.game || null) || String(failure.reason || '');
  if (failure.line) {
    return t('import.line_error', {line: String(failure.line), reason: message});
  }
  if (failure.code === 'bad_record' && message) return t('import.record_error', {reason: message});
  if (failure.code) return error_text(failure.code, message);
  return t('import.server_status', {status: String(failure.status || '')});
}

export function render_import(root, app = null) {
  let board = null;
  let controls = null;  // the move list of the replay shown
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
  const submit = el('button', {id: 'import-submit', type: 'submit', class: 'primary'}, t('import.submit'));
  const form =
      el('form', {class: 'card-form import-form'},
         el('div', {class: 'field'},
            el('label',
               {for: 'import-text'
               },
               t('import.record_label')),
            text),
         el('div', {class: 'field'}, el('label', {for: 'import-file'
            }, t('import.file_label')), file), el('div', {class: 'buttons'}, submit), error);
  const summary = el('div', {class: 'import-summary'});
  const board_root = el('div', {id: 'board', class: 'board-host'});
  const viewer =
      el('section', {class: 'import-viewer', hidden: true, 'aria-label': t('import.replay_label')},
         el('div', {class: 'room-layout'}, summary, el('div', {class: 'room-board'}, board_root),
            el('div', {class: 'room-panel replay-panel'})));
  const panel = viewer.querySelector('.replay-panel');

  file.addEventListener('change', async () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    text.value = await chosen.text();
    error.hidden = true;
    submit.focus();
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const sequence = ++generation;
    const refusal = import_refusal(text.value);
    if (refusal) {
      show_error(refusal);
      return;
    }
    submit.disabled = true;
    const {data, error: failure} = await fetch_replay(text.value);
    submit.disabled = false;
    if (destroyed || sequence !== generation) return;
    if (failure) {
      show_error(replay_failure_text(failure));
      return;
    }
    error.hidden = true;
    await show_replay(data, sequence);
  });

  // A refused record: its reason, and no replay of an earlier record left beside it as if it were this one.
  function show_error(message) {
    error.textContent = message;
    error.hidden = false;
    clear_replay();
  }

  function clear_replay() {
    if (controls) controls.destroy();
    if (board) board.destroy();
    controls = null;
    board = null;
    board_root.replaceChildren();
    summary.replaceChildren();
    panel.replaceChildren();
    viewer.hidden = true;
  }

  // Imports the record as a private finished room and opens it with its analysis asked for.
  async function analyse_record(record, button) {
    button.disabled = true;
    try {
      const response = await fetch('/api/games/import', {method: 'POST', headers: {'Content-Type': 'text/plain'}, body: record});
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        notify(answer.error ? error_text(answer.error.code, answer.error.message) :
                              t('play_on.failed', {status: String(response.status)}));
        return;
      }
      if (app) app.analyse_room = answer.room;
      const hash = `#/room/${answer.room}`;
      if (app && app.navigate) app.navigate(hash);
      else location.hash = hash;
    } catch {
      notify(t('play_on.unreachable'));
    } finally {
      button.disabled = false;
    }
  }

  async function show_replay(data, sequence) {
    clear_replay();
    const players = data.players || [];
    const sides = data.sides || [];
    summary.replaceChildren(el('h2', {}, game_title(data.game)),
                            el('p', {class: 'muted import-about'}, [
                              data.options || t('room.standard_rules'),
                              players_text(data.game, players),
                            ].filter(Boolean).join(' · ')),
                            el('p', {class: 'import-result'}, outcome_text(data)));
    viewer.hidden = false;
    viewer.scrollIntoView({block: 'start'});
    const ctx = {game: data.game, options: data.options, sides, seatNames: players, act: () => {}};
    const mounted = await mount_board(board_root, ctx);
    if (destroyed || sequence !== generation) {
      mounted.destroy();
      return;
    }
    board = mounted;
    const steps = data.steps;
    let shown = steps.length - 1;  // the turns the position shown follows
    const record_text = text.value;
    const play_on = data.incomplete ? null :
        play_on_panel({record: () => record_text, turns: () => shown, game: data.game, app});
    controls = new MoveList({
      game: data.game,
      live: false,
      on_view: (index) => {
        const at = index === null ? steps.length - 1 : index;
        shown = at;
        if (play_on) play_on.update();
        const info = {mySeat: null, canAct: false, event: null, replay: true};
        board.update(replay_position(steps, at, sides), info);
      },
    });
    controls.set_turns(replay_turns(steps));
    // A finished record: analysed in a room of its own (imported, private), which asks for the analysis.
    const analyse = data.finished && !data.incomplete ?
        el('button', {id: 'import-analyse', type: 'button', onclick: () => analyse_record(record_text, analyse)},
           t('analysis.ask')) :
        null;
    // A line a block: a long one wraps under its own start, indented, rather than being cut.
    const lines = String(data.record || '').replace(/\n$/, '').split('\n');
    panel.replaceChildren(controls.node, ...(analyse ? [analyse] : []), ...(play_on ? [play_on.node] : []),
                          el('pre', {id: 'moves', class: 'moves', tabindex: '0', 'aria-label': t('room.record_label')},
                             lines.map((line) => el('span', {class: 'moves-line'}, line || ' '))));
    controls.go(0, true);
  }

  root.append(
      el('div', {class: 'import'}, viewer,
         el('section', {class: 'card'}, el('h1', {}, t('import.title')),
            el('p', {class: 'muted'}, t('import.intro')),
            form)));
  document.title = t('import.tab_title');

  return () => {
    destroyed = true;
    if (controls) controls.destroy();
    if (board) board.destroy();
  };
}
