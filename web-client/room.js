// The room page (#/room/ID): joins the room, applies state/events/event in version order (a gap means a
// re-join with `since`), mounts the game's board and offers the commands a seat allows.
// Protocol v2: a `state` carries the whole position, an event that changes it a merge patch (patch.js);
// `legal`/`can_end_turn` come beside them, to the seat to move only, and the board gets them back inside
// the position it is handed, as before.

import {mount_board} from './board-host.js';
import {apply_merge_patch} from './patch.js';
import {fetch_replay, replay_position, ReplayControls} from './replay.js';
import {PlayersPanel, record_filename, result_text, turn_text} from './room-view.js';
import {clock_label, copy_text, download_text, el, expand_legal, game_title, notify, room_url, show} from './ui.js';

export function render_room(root, app, room_id) {
  const {conn} = app;
  app.current_room = room_id;
  const subscriptions = [];
  // The room as last applied (null until the first state): the `state` message with its events applied,
  // `legal` and `can_end_turn` kept at its top level as the protocol sends them.
  let state = null;
  let resyncing = false;
  let join_ref = null;
  let board = null;
  let board_pending = null;  // the board module is loading
  let last_event = null;
  let replay = null;  // {steps, controls} once the game is over
  let replay_loading = false;
  let record_fetch = 0;  // sequence number: only the latest record fetch is shown
  let destroyed = false;
  const seat_names = ['', ''];  // shared with the board's ctx and kept current

  // --- DOM
  const button = (id, text, onclick, cls = '') =>
      el('button', {id, type: 'button', class: cls, hidden: true, onclick}, text);
  const title = el('h1', {class: 'room-title'}, 'Room');
  const subtitle = el('p', {class: 'room-subtitle muted'});
  // Correspondence: the two private seat links, shown to the creator (only the creator's state has them).
  const seat_links = el('p', {class: 'seat-links muted', hidden: true});
  const spectators = el('span', {id: 'spectators', class: 'spectators', title: 'Spectators'}, '0');
  const board_root = el('div', {id: 'board', class: 'board-host'});
  const players = new PlayersPanel();
  const turn_info = el('p', {id: 'turn-info', class: 'turn-info', 'aria-live': 'polite'});
  const result = el('div', {id: 'result', class: 'result', role: 'status', hidden: true});
  const sit = button('sit', 'Take the free seat', () => take_seat(), 'primary');
  const end_turn = button('end-turn', 'End turn', () => act([], true), 'primary');
  const draw = button('draw', 'Offer draw', () => command('draw'));
  const decline_draw = button('decline-draw', 'Decline draw', () => command('decline_draw'));
  const resign = button('resign', 'Resign', () => command('resign'), 'danger');
  const abort = button('abort', 'Abort', () => command('abort'));
  const leave = button('leave', 'Leave seat', () => command('leave'));
  const rematch = button('rematch', 'Rematch', () => command('rematch'), 'primary');
  const rematch_link = el('a', {id: 'rematch-link', class: 'button-link', hidden: true}, 'Go to the rematch');
  const invite_link = el('a', {id: 'invite-link', href: room_url(room_id)}, room_url(room_id));
  const invite = el(
      'div', {id: 'invite', class: 'invite'}, el('span', {class: 'label'}, 'Invitation link'), invite_link,
      el('button', {id: 'copy-invite', type: 'button', onclick: () => copy_text(room_url(room_id), 'Link')},
         'Copy link'));
  const moves = el('pre', {id: 'moves', class: 'moves', tabindex: '0', 'aria-label': 'Game record'});
  const copy_record =
      el('button', {id: 'copy-record', type: 'button', onclick: () => copy_text(moves.textContent, 'Record')},
         'Copy');
  const download_record =
      el('button', {
        id: 'download-record',
        type: 'button',
        onclick: () =>
            download_text(record_filename(state || {game: 'game', room: room_id}), moves.textContent)
      },
         'Download .txt');
  const replay_box = el('div', {class: 'replay-box', hidden: true});
  const container =
      el('div', {
        id: 'room',
        class: 'room',
        'data-room': room_id,
        'data-version': '',
        'data-status': '',
        'data-to-move': '',
        'data-my-seat': ''
      },
         el('div', {class: 'room-head'}, el('div', {}, title, subtitle, seat_links),
            el('span', {class: 'spectators-wrap'}, spectators, ' watching')),
         el('div', {class: 'room-layout'}, el('div', {class: 'room-board'}, board_root),
            el('div', {class: 'room-panel'}, players.node, turn_info, result,
               el('div', {class: 'room-actions'}, sit, end_turn, draw, decline_draw, resign, abort, leave,
                  rematch, rematch_link),
               replay_box),
            el('div', {class: 'room-extra'}, invite,
               el('div', {class: 'record'},
                  el('div', {class: 'record-head'}, el('h2', {}, 'Record'), copy_record, download_record),
                  moves))));
  const missing =
      el('div', {class: 'card missing', hidden: true}, el('h1', {}, 'No such room'),
         el('p', {}, 'The link may be wrong, or the room is gone. '),
         el('a', {href: '#/'}, 'Back to the lobby'));
  root.append(container, missing);

  // --- who am I here
  const my_seat = () => {
    if (!state || !conn.player_id) return null;
    const seat = (state.seats || []).findIndex((s) => s && s.id === conn.player_id);
    return seat >= 0 ? seat : null;
  };
  const can_act = () => {
    const position = state && state.position;
    return Boolean(
        position && position.status === 'live' && position.to_move !== null &&
        position.to_move === my_seat());
  };

  // --- commands
  function command(type) {
    if (conn.send({type, room: room_id}) === null) notify('Not connected: try again in a moment.');
  }
  function act(actions, end) {
    const message = {type: 'act', room: room_id, actions};
    if (end) message.end_turn = true;
    if (conn.send(message) === null) notify('Not connected: the move was not sent.');
  }
  function take_seat() {
    if (!state) return;
    const seat = (state.seats || []).findIndex((s) => !s);
    if (seat < 0) return;
    if (conn.send({type: 'sit', room: room_id, seat}) === null)
      notify('Not connected: try again in a moment.');
  }
  function join() {
    const message = {type: 'join', room: room_id};
    if (state) message.since = state.version;
    join_ref = conn.send(message);
    resyncing = join_ref !== null;
  }

  // --- applying what the server says
  function apply_state(next) {
    state = structuredClone(next);
    set_legal(state, next);
    resyncing = false;
    last_event = null;
    if (state.record !== undefined) moves.textContent = state.record;
    ensure_board();
    if (state.links) (app.seat_links || (app.seat_links = {}))[room_id] = state.links;
    if (app.pending_sit && app.pending_sit.room === room_id) {
      const pending = app.pending_sit;
      app.pending_sit = null;
      if (pending.seat_token !== undefined) {  // a seat link: take (or move to this browser) that seat
        if (my_seat() !== pending.seat)
          conn.send({type: 'sit', room: room_id, seat: pending.seat, seat_token: pending.seat_token});
      } else if (my_seat() === null) {
        take_seat();
      }
    }
    render();
  }

  // What the seat may play, from a message that carries a position or a patch: none unless it says so.
  function set_legal(into, message) {
    into.legal = Array.isArray(message.legal) ? message.legal : [];
    into.can_end_turn = Boolean(message.can_end_turn);
  }

  // Returns false when the event cannot be applied in order (the caller resyncs).
  function apply_event(ev) {
    if (!state) return false;
    if (ev.version <= state.version) return true;  // already applied (a duplicate after a resync)
    if (ev.version !== state.version + 1) return false;
    if (ev.patch !== undefined && !state.position) return false;  // nothing to patch: take a whole state
    state.version = ev.version;
    const seats = state.seats || (state.seats = [null, null]);
    switch (ev.kind) {
      case 'seated':
        seats[ev.seat] = {id: ev.player.id, name: ev.player.name, online: true};
        break;
      case 'left':
        seats[ev.seat] = null;
        break;
      case 'presence':
        if (seats[ev.seat]) seats[ev.seat].online = ev.online;
        break;
      case 'spectators':
        state.spectators = ev.count;
        break;
      case 'rematch_offer':
        state.rematch_asked = state.rematch_asked || [false, false];
        state.rematch_asked[ev.seat] = true;
        break;
      case 'rematch':
        state.rematch = ev.rematch;
        if (my_seat() !== null) app.navigate(`#/room/${ev.rematch}`);
        break;
      default:
        break;
    }
    if (ev.patch !== undefined) {
      state.position = apply_merge_patch(state.position, ev.patch);
      set_legal(state, ev);
    }
    if (ev.kind === 'play' || ev.kind === 'finished' || ev.kind === 'started') {
      last_event = ev.kind === 'play' ? ev : null;
      refresh_record();
    }
    return true;
  }

  // `answer`: the `events` message they come in, whose `legal` stands after the last of them.
  function apply_events(events, answer = null) {
    if (!events.every((ev) => apply_event(ev))) {
      join();
    } else if (answer && answer.legal !== undefined) {
      set_legal(state, answer);
    }
    render();
  }

  async function refresh_record() {
    const sequence = ++record_fetch;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(room_id)}/record`);
      if (!response.ok) return;
      const text = await response.text();
      if (sequence !== record_fetch || destroyed) return;
      moves.textContent = text;
      if (state) state.record = text;
      moves.scrollTop = moves.scrollHeight;
      maybe_load_replay();
    } catch {
      // The next event fetches it again.
    }
  }

  // --- the board
  function ensure_board() {
    if (board || board_pending) return;
    const ctx = {
      game: state.game,
      options: state.options,
      sides: state.sides,
      seatNames: seat_names,
      act: (actions, end_turn) => act(actions, end_turn),
    };
    board_pending = mount_board(board_root, ctx).then((mounted) => {
      board_pending = null;
      if (destroyed) {
        mounted.destroy();
        return;
      }
      board = mounted;
      update_board();
    });
  }

  // Batik's folded drops expand to thousands of texts: expand each list once.
  let expanded = {from: null, texts: []};
  function expanded_legal() {
    if (expanded.from !== state.legal) expanded = {from: state.legal, texts: expand_legal(state.legal)};
    return expanded.texts;
  }

  function update_board() {
    if (!board || !state || !state.position) return;
    if (replay && replay.index !== null) return;  // the replay owns the board
    // `side` for the boards, as replay_position gives it: the state's sides[to_move].
    const to_move = state.position.to_move;
    const side = to_move === null || to_move === undefined ? null : (state.sides || [])[to_move] || null;
    const position = {...state.position, side, legal: expanded_legal(), can_end_turn: state.can_end_turn};
    try {
      board.update(position, {mySeat: my_seat(), canAct: can_act(), event: last_event, replay: false});
    } catch (err) {
      console.error('cinq: board update failed', err);
    }
  }

  function maybe_load_replay() {
    if (!state || state.position.status !== 'finished' || replay || replay_loading || !state.record) return;
    // The record in hand may predate the last turn: wait for the one that carries the result line.
    if (!/^#=/m.test(state.record)) return;
    replay_loading = true;
    fetch_replay(state.record).then(({data, error}) => {
      replay_loading = false;
      if (destroyed) return;
      if (error) {
        notify(`Replay unavailable: ${error.message}`);
        return;
      }
      const controls = new ReplayControls((index, step) => {
        replay.index = index;
        if (board) {
          board.update(
              replay_position(step, data.sides || state.sides),
              {mySeat: my_seat(), canAct: false, event: null, replay: true});
        }
      });
      replay = {data, controls, index: null};
      replay_box.replaceChildren(el('h2', {}, 'Replay'), controls.node);
      replay_box.hidden = false;
      controls.set_steps(data.steps);
    });
  }

  // --- drawing the page from the state
  function render() {
    if (!state) return;
    const position = state.position || {};
    const me = my_seat();
    const live = position.status === 'live';
    const finished = position.status === 'finished';
    const other = me === null ? null : 1 - me;
    seat_names.splice(0, 2, ...[0, 1].map((s) => (state.seats[s] ? state.seats[s].name : '')));

    container.dataset.version = String(state.version);
    container.dataset.status = position.status || '';
    container.dataset.toMove =
        live && position.to_move !== null && position.to_move !== undefined ? String(position.to_move) : '';
    container.dataset.mySeat = me === null ? '' : String(me);

    title.textContent = game_title(state.game);
    subtitle.textContent = [
      state.options || 'standard rules', clock_label(state.clock), state.private ? 'private' : 'public',
      ...(position.deadline_ms ? [`move by ${new Date(position.deadline_ms).toLocaleString()}`] : [])
    ].join(' · ');
    const links = app.seat_links && app.seat_links[room_id];
    seat_links.hidden = !links;
    if (links) {
      seat_links.replaceChildren(
          'Private seat links (send each player theirs; anyone holding one plays that seat): ',
          ...links.flatMap(
              (link, seat) =>
                  link ? [el('a', {href: link, 'data-seat': String(seat)}, `seat ${seat}`), ' '] : []));
    }
    spectators.textContent = String(state.spectators || 0);
    players.update(state, me);
    turn_info.textContent = turn_text(state, me);
    document.title = `${can_act() ? '● ' : ''}${game_title(state.game)} — Cinq`;

    result.hidden = !finished;
    result.textContent = finished ? result_text(state) : '';

    const free_seat = (state.seats || []).some((s) => !s);
    show(sit, free_seat && me === null && !finished);
    show(end_turn, can_act() && state.can_end_turn);
    show(resign, live && me !== null);
    const offered_by = position.draw_offer;
    show(draw, live && me !== null);
    draw.textContent = offered_by === other && other !== null ? 'Accept draw' :
        offered_by === me && me !== null                      ? 'Draw offered' :
                                                                'Offer draw';
    draw.disabled = offered_by === me && me !== null;
    show(decline_draw, live && me !== null && offered_by === other);
    // Abort stands until the second seat has begun its first turn (the server has the last word).
    const first_round = (position.turn || 0) <= 1 && !(position.to_move === 1 && position.mid_turn);
    show(abort, live && me !== null && first_round);
    show(leave, position.status === 'open' && me !== null);
    const asked = state.rematch_asked || [false, false];
    show(rematch, finished && me !== null && !state.rematch);
    rematch.textContent = asked[me] ? 'Rematch offered' : asked[other] ? 'Accept rematch' : 'Rematch';
    rematch.disabled = Boolean(asked[me]);
    rematch_link.hidden = !state.rematch;
    if (state.rematch) rematch_link.href = `#/room/${state.rematch}`;

    update_board();
    maybe_load_replay();
  }

  // A room the server no longer holds live may still be stored (a finished game): show it read-only.
  async function load_stored() {
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(room_id)}`);
      if (response.ok && !destroyed) {
        apply_state({...(await response.json()), room: room_id});
        return;
      }
    } catch {
      // Fall through: nothing to show.
    }
    if (destroyed || state) return;
    container.hidden = true;
    missing.hidden = false;
  }

  // --- subscriptions
  const mine = (message) => message.room === room_id;
  subscriptions.push(conn.on('state', (message) => {
    if (mine(message)) apply_state(message);
  }));
  subscriptions.push(conn.on('events', (message) => {
    if (!mine(message) || !state) return;
    resyncing = false;
    apply_events(message.events || [], message);
  }));
  subscriptions.push(conn.on('event', (message) => {
    if (!mine(message) || !state || resyncing) return;
    apply_events([message]);
  }));
  subscriptions.push(conn.on('error', (error) => {
    const about_join = join_ref !== null && error.ref === join_ref;
    if (!mine(error) && !about_join) return;
    if (error.code === 'no_room' && (about_join || !state)) {
      resyncing = false;
      load_stored();
      return;
    }
    if (about_join) resyncing = false;
    if (error.code === 'storage') join();
    notify(error.message || error.code);
  }));
  subscriptions.push(conn.on('welcome', () => render()));
  subscriptions.push(conn.on('seat_link', (message) => {  // my correspondence seat, taken from the lobby
    if (message.room !== room_id) return;
    const links = [];
    links[message.seat] = message.link;
    (app.seat_links || (app.seat_links = {}))[room_id] = links;
    render();
  }));

  // For browser tests and debugging (window.cinqApp.room.state): the room as this page holds it.
  app.room = {id: room_id, get state() { return state; }};

  const cached = app.states.get(room_id);
  if (cached) apply_state(cached);
  subscriptions.push(conn.on_ready(() => join()));
  const clock_timer = setInterval(() => players.tick(), 250);

  return () => {
    destroyed = true;
    if (app.room && app.room.id === room_id) app.room = null;
    clearInterval(clock_timer);
    for (const unsubscribe of subscriptions) unsubscribe();
    if (state && my_seat() === null && conn.ready) conn.send({type: 'leave', room: room_id});
    if (replay) replay.controls.destroy();
    if (board) board.destroy();
  };
}
