// The room page (#/room/ID): joins the room, applies state/events/event in version order (a gap means a
// re-join with `since`), mounts the game's board and offers the commands a seat allows.
// Protocol v2: a `state` carries the whole position, an event that changes it a merge patch (patch.js);
// `legal`/`can_end_turn` come beside them, to the seat to move only, and the board gets them back inside
// the position it is handed, as before.

import {mount_board} from './board-host.js';
import {make_try} from './compose.js';  // boards: a turn composed with `try`
import {MailPanel, seat_token_of} from './mail.js';  // mail: a correspondence seat's "Play by mail" panel
import {error_text} from './errors.js';
import {date_time, t} from './i18n.js';
import {apply_merge_patch} from './patch.js';
import {replay_failure_text} from './import.js';
import {mount_social} from './social.js';  // social: chat, sounds, the hidden tab's alert
import {MoveList, record_turns, seat_of_side, turn_label} from './movelist.js';
import {AnalysisPanel} from './analysis-view.js';  // a finished game's analysis
import {fetch_replay} from './replay.js';
import {replay_position, ReplayCache} from './replay.js';
import * as ui from './ui.js';
import {play_on_panel} from './play-on.js';  // a finished game played on from its replay
import {PlayersPanel, ratings_text, record_filename, result_text, seat_links_block, turn_text} from './room-view.js';
import {clock_label, copy_text, download_text, el, expand_legal, game_title, help_link, notify, room_url, show} from './ui.js';

// How long "Confirm resign" waits for its second click before it stands down.
const kResignConfirmMs = 5000;
// The room log keeps this many announcements on screen.
const kLogLines = 4;

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
  // Earlier positions, looked at from the move list: one replay of the record per record text.
  const replays = new ReplayCache();
  let viewed = null;  // {index, turn} while the board shows an earlier position, else null
  let resign_armed = null;  // the timer of a first click on Resign, waiting for the second
  let first_move = null;  // {ms, at}: the first-move countdown as last received, and when
  let record_fetch = 0;  // sequence number: only the latest record fetch is shown
  let destroyed = false;
  const seat_names = ['', ''];  // shared with the board's ctx and kept current
  // Boards: `try` answers, for the board's ctx (the game's sides say a refusal's reason).
  const tries = make_try(conn, room_id, () => state && state.game);

  // --- DOM
  const button = (id, text, onclick, cls = '') =>
      el('button', {id, type: 'button', class: cls, hidden: true, onclick}, text);
  const title = el('h1', {class: 'room-title'}, t('room.title'));
  const subtitle = el('p', {class: 'room-subtitle muted'});
  // A tournament's game (its room id is the game's: `TOURNAMENT-ROUND-BOARD`, or `TOURNAMENT-aN` in an
  // arena): a way back to the tournament's page.
  const tournament_of = /^([A-Za-z0-9]+)-(?:\d+-\d+|a\d+)$/.exec(room_id);
  const tournament_link = tournament_of
      ? el('a', {id: 'room-tournament', class: 'room-tournament', href: `#/tournament/${tournament_of[1]}`},
           t('room.tournament_link'))
      : null;
  // Correspondence: the two private seat links, shown to the creator (only the creator's state has them).
  const seat_links = el('div', {class: 'seat-links', hidden: true});
  // mail: the seat's mail settings and seat address, beside the seat links (a server with mail only).
  const mail = new MailPanel(room_id);
  // What became of a seat link opened here, or of my seat: held by an account (log in to play it), held by
  // a guest in another browser (take it here?), or taken from this browser by another one.
  const seat_notice = el('div', {id: 'seat-notice', class: 'seat-notice', role: 'status', hidden: true});
  let claim = null;  // {seat, token}: the seat link opened here, while its seat is asked about
  const spectators = el('span', {id: 'spectators', class: 'spectators', title: t('room.spectators')}, '0');
  const spectators_word = el('span', {class: 'spectators-word'}, t('room.watching', {count: 0}));
  const board_root = el('div', {id: 'board', class: 'board-host'});
  const players = new PlayersPanel();
  const turn_info = el('p', {id: 'turn-info', class: 'turn-info', 'aria-live': 'polite'});
  const result = el('div', {id: 'result', class: 'result', role: 'status', hidden: true});
  // A rated game's end: each player's rating before and after (the `ratings` message, or the state's).
  const rating_change = el('p', {id: 'rating-change', class: 'rating-change', role: 'status', hidden: true});
  const sit = button('sit', t('room.sit'), () => take_seat(), 'primary');
  const end_turn = button('end-turn', t('room.end_turn'), () => act([], true), 'primary');
  const draw = button('draw', t('room.draw.offer'), () => command('draw'));
  const decline_draw = button('decline-draw', t('room.draw.decline'), () => command('decline_draw'));
  const resign = button('resign', t('room.resign'), () => resign_clicked(), 'danger');
  const takeback = button('takeback', t('room.takeback'), () => command('takeback'));
  const accept_takeback = button('accept-takeback', t('room.takeback_accept'), () => command('takeback'), 'primary');
  const decline_takeback = button('decline-takeback', t('room.takeback_decline'), () => command('decline_takeback'));
  // Against the computer, in a casual game: the bot's best turn for the position (counted in the result).
  const hint = button('hint', t('room.hint'), () => command('hint'));
  const hint_line = el('p', {id: 'hint-line', class: 'hint-line', role: 'status', hidden: true});
  // The first-move countdown ("Ada must move within 25 s"), in place of clocks that do not run yet.
  const first_move_line = el('p', {id: 'first-move', class: 'first-move', role: 'timer', hidden: true});
  // Announcements (draw offers, takebacks, aborts, resignations, time), newest last, near the board.
  const room_log =
      el('ol', {id: 'room-log', class: 'room-log', 'aria-live': 'polite', 'aria-label': t('room.news')});
  // The move list: every turn a button showing the position after it; after the game, the replay too.
  const movelist = new MoveList({game: '', on_view: (index, turn) => view_position(index, turn)});
  // After the game: its analysis, the evaluation graph under the move list, the best turn on the board.
  const analysis = new AnalysisPanel({
    conn, room_id,
    on_select: (index) => movelist.go(index),
    on_best: (index, record, best) => show_best(index, record, best),
  });
  analysis.on_marks = (marks) => movelist.set_marks(marks);
  if (app.analyse_room === room_id) {  // opened by the import page's "Analyse the game"
    app.analyse_room = null;
    analysis.ask_at_once = true;
  }
  // Over the board while it shows an earlier position: what it shows, and the way back.
  const back_to_live = el(
      'button',
      {id: 'back-to-live', type: 'button', class: 'primary', onclick: () => movelist.go(movelist.count)},
      t('room.back_to_game'));
  const history_caption = el('span', {class: 'history-caption'});
  const history_banner =
      el('div', {id: 'history-banner', class: 'history-banner', role: 'status', hidden: true},
         history_caption, back_to_live);
  const abort = button('abort', t('room.abort'), () => command('abort'));
  const leave = button('leave', t('room.leave'), () => command('leave'));
  const rematch = button('rematch', t('room.rematch'), () => command('rematch'), 'primary');
  const rematch_link = el('a', {id: 'rematch-link', class: 'button-link', hidden: true}, t('room.rematch_link'));
  // After a game: someone else for the same game and options (a seek: the lobby shows it waiting), or,
  // against the computer, the same level again at once.
  const new_opponent = button('new-opponent', t('room.new_opponent'), () => seek_again());
  const play_again = button('play-computer-again', t('room.play_computer_again'), () => computer_again(), 'primary');
  let pending_again = null;  // the ref of the create "Play the computer again" sent
  const invite_link = el('a', {id: 'invite-link', href: room_url(room_id)}, room_url(room_id));
  const invite = el(
      'div', {id: 'invite', class: 'invite'}, el('span', {class: 'label'}, t('room.invitation')), invite_link,
      el('button',
         {id: 'copy-invite', type: 'button', onclick: () => copy_text(room_url(room_id), t('room.copied_link'))},
         t('room.copy_link')));
  const moves = el('pre', {id: 'moves', class: 'moves', tabindex: '0', 'aria-label': t('room.record_label')});
  const copy_record =
      el('button',
         {id: 'copy-record', type: 'button', onclick: () => copy_text(moves.textContent, t('room.copied_record'))},
         t('room.copy'));
  const download_record =
      el('button', {
        id: 'download-record',
        type: 'button',
        onclick: () =>
            download_text(record_filename(state || {game: 'game', room: room_id}), moves.textContent)
      },
         t('room.download'));
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
         el('div', {class: 'room-layout'},
            // The seat links and the mail panel (correspondence) under the title, the head's whole width.
            el('div', {class: 'room-head'}, el('div', {class: 'room-head-main'}, title, subtitle, ...(tournament_link ? [tournament_link] : [])),
               el('span', {class: 'spectators-wrap'}, spectators, ' ', spectators_word), seat_notice, seat_links,
               mail.node),
            el('div', {class: 'room-board'}, history_banner, board_root),
            // The log after the buttons, so that an answer to an offer stays near the board on a phone.
            el('div', {class: 'room-panel'}, players.node, first_move_line, turn_info, result, rating_change,
               hint_line,
               el('div', {class: 'room-actions'}, sit, end_turn, hint, accept_takeback, decline_takeback, draw,
                  decline_draw, takeback, resign, abort, leave, rematch, rematch_link, play_again, new_opponent),
               room_log, movelist.node),
            el('div', {class: 'room-extra'}, invite,
               el('div', {class: 'record'},
                  el('div', {class: 'record-head'}, el('h2', {}, t('room.record')), copy_record, download_record),
                  moves))));
  // A finished game's replay: play on from the position shown (made once the game is over).
  let play_on = null;
  const play_on_slot = el('div', {class: 'play-on-slot', hidden: true});
  movelist.node.after(play_on_slot);
  play_on_slot.before(analysis.node);
  const missing =
      el('div', {class: 'card missing', hidden: true}, el('h1', {}, t('room.missing')),
         el('p', {}, t('room.missing_why')),
         el('a', {href: '#/'}, t('room.back_to_lobby')));
  root.append(container, missing);
  const social = mount_social(app, room_id, container, {state: () => state, my_seat: () => my_seat(), can_act: () => can_act()});

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
    if (conn.send({type, room: room_id}) === null) notify(t('shell.not_connected'));
  }
  // Resign takes two clicks: the first turns the button into "Confirm resign" for a few seconds.
  function resign_clicked() {
    if (resign_armed !== null) {
      disarm_resign();
      command('resign');
    } else {
      resign_armed = setTimeout(() => {
        resign_armed = null;
        render();
      }, kResignConfirmMs);
    }
    render();
  }
  function disarm_resign() {
    clearTimeout(resign_armed);
    resign_armed = null;
  }
  function act(actions, end) {
    const message = {type: 'act', room: room_id, actions};
    if (end) message.end_turn = true;
    if (conn.send(message) === null) notify(t('room.move_not_sent'));
  }
  // A seek for the same game and options (and clock, when a live one), then the lobby, which shows it.
  function seek_again() {
    if (!state) return;
    const live_clock = state.clock && !state.clock.days ? state.clock : null;
    const seek = {type: 'seek', game: state.game, options: state.options || '', clock: live_clock};
    if (state.rated && conn.username) seek.rated = true;
    app.seek_sent = seek;
    if (conn.send(seek) === null) {
      notify(t('shell.not_connected'));
      return;
    }
    app.navigate('#/');
  }
  // The same game against the computer at the same level, on the same side; the new room opens at once.
  function computer_again() {
    if (!state) return;
    const bot = (state.seats || []).find((s) => s && /^bot:\d+$/.test(s.id || ''));
    if (!bot) return;
    const message = {
      type: 'create', game: state.game, options: state.options || '', bot: Number(bot.id.slice(4)),
      clock: state.clock && !state.clock.days ? state.clock : null,
    };
    if (my_seat() !== null) message.seat = my_seat();
    pending_again = conn.send(message);
    if (pending_again === null) notify(t('shell.not_connected'));
  }
  function take_seat() {
    if (!state) return;
    const seat = (state.seats || []).findIndex((s) => !s);
    if (seat < 0) return;
    if (conn.send({type: 'sit', room: room_id, seat}) === null)
      notify(t('shell.not_connected'));
  }
  function join() {
    const message = {type: 'join', room: room_id};
    if (state) {
      message.since = state.version;
      message.epoch = state.epoch;  // the room's numbering: another one answers with the whole state
    }
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
    movelist.game = state.game;
    movelist.set_turns(record_turns(state.record));
    note_clocks();
    // The room's last notes (draw offers, takebacks, seats moved, the end), as the server keeps them: a
    // reloaded page shows them again, at the time they happened. A server without them: a standing offer is
    // news to a page that opens the room.
    const position = state.position || {};
    const standing = (seat) => seat === 0 || seat === 1;
    if (Array.isArray(state.notes)) {
      room_log.replaceChildren();
      for (const note of state.notes) {
        const text = note_text(note);
        if (text) announce(text, note.at_ms);
      }
    } else {
      if (standing(position.draw_offer)) announce(log_text('draw_offer', position.draw_offer));
      if (standing(position.takeback_offer)) announce(takeback_asked_text(position.takeback_offer));
    }
    social.on_state(state);
    ensure_board();
    if (state.links) (app.seat_links || (app.seat_links = {}))[room_id] = state.links;
    if (app.pending_sit && app.pending_sit.room === room_id) {
      const pending = app.pending_sit;
      app.pending_sit = null;
      if (pending.seat_token !== undefined) {  // a seat link: take (or move to this browser) that seat
        // mail: the token acts for the seat over HTTP (a `seated` event brings no links).
        const opened = {seat: pending.seat, token: pending.seat_token};
        (app.seat_tokens || (app.seat_tokens = {}))[room_id] = opened;
        if (my_seat() !== pending.seat) {
          claim = {seat: pending.seat, token: pending.seat_token};
          conn.send({type: 'sit', room: room_id, seat: pending.seat, seat_token: pending.seat_token});
        }
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
    // Numbered in another life of the room (reloaded, moved to another node): only a state can follow.
    if (ev.epoch !== undefined && ev.epoch !== state.epoch) return false;
    if (ev.version <= state.version) return true;  // already applied (a duplicate after a resync)
    if (ev.version !== state.version + 1) return false;
    if (ev.patch !== undefined && !state.position) return false;  // nothing to patch: take a whole state
    state.version = ev.version;
    const before = state.position || {};
    const seats = state.seats || (state.seats = [null, null]);
    switch (ev.kind) {
      case 'seated':
        seats[ev.seat] = {id: ev.player.id, name: ev.player.name, online: true};
        // An account's seat: its user name (a link to its page) and rating, when the event says them.
        if (ev.player.username) seats[ev.seat].username = ev.player.username;
        if (ev.player.rating) seats[ev.seat].rating = ev.player.rating;
        if (ev.player.id === conn.player_id) claim = null;  // the link's seat is mine now
        break;
      case 'left':
        seats[ev.seat] = null;
        break;
      case 'renamed':  // the seat's player is called something else now (the record keeps the old name)
        if (seats[ev.seat]) {
          seats[ev.seat].name = ev.name;
          if (ev.username) seats[ev.seat].username = ev.username;
        }
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
      note_clocks();
    }
    if (ev.kind === 'play') {
      // Counted for the browser tests: the play events this page applied (the version also moves for
      // presence and spectator counts).
      container.dataset.plays = String(Number(container.dataset.plays || 0) + 1);
      // Shown at once; the record fetched below replaces it with the turns as the record writes them.
      movelist.add_play({
        seat: ev.seat,
        actions: ev.actions || [],
        new_turn: !before.mid_turn,
        section: before.round || 1,
        sides: state.sides,
      });
    }
    if (ev.kind === 'takeback') movelist.remove_last();
    announce_event(ev, before);
    if (ev.kind === 'play') hint_line.hidden = true;  // a hint is for the position it was asked in
    if (ev.kind === 'hint' && ev.seat === my_seat()) {
      hint_line.textContent = t('room.hint_shown', {turn: ev.turn});
      hint_line.hidden = false;
    }
    if (ev.kind === 'play' || ev.kind === 'finished' || ev.kind === 'started' || ev.kind === 'takeback' ||
        ev.kind === 'hint') {
      last_event = ev.kind === 'play' ? ev : null;
      refresh_record();
    }
    social.on_event(ev);
    return true;
  }

  // --- the room log: what happened beside the moves, in words
  // A seat as the log names it: "You", or the player's name with the side in words ("Ada (Attackers)").
  function who(seat) {
    if (seat === my_seat()) return t('room.you');
    const info = ((state && state.seats) || [])[seat];
    const name = info ? info.name : t('room.seat_n', {n: seat + 1});
    const letter = typeof ui.seat_side === 'function' ? ui.seat_side(state, seat) : (state.sides || [])[seat];
    const side = typeof ui.side_name === 'function' ? ui.side_name(state.game, letter) : letter;
    return side ? t('room.name_side', {name, side}) : name;
  }
  // What `seat` did, in words: the sentence for me ("You offered a draw.") or for a player named by who().
  function log_text(what, seat, params = {}) {
    if (seat === my_seat()) return t(`room.log.${what}.you`, params);
    return t(`room.log.${what}.other`, {who: who(seat), ...params});
  }
  function takeback_asked_text(seat) { return log_text('takeback_offer', seat); }

  // A note of the state (the server's last note events) in words, or '' for one the log does not show.
  function note_text(note) {
    switch (note.kind) {
      case 'draw_offer':
      case 'draw_declined':
      case 'takeback_offer':
      case 'takeback_declined':
      case 'takeback':
        return log_text(note.kind, note.seat);
      case 'seated':
        return note.replaces ? seat_moved_text(note) : '';
      case 'finished':
        return finish_text(note.result || (state.position || {}).result, {});
      default:
        return '';
    }
  }
  // A seat taken with its link from the browser that held it.
  function seat_moved_text(ev) {
    const side = ui.seat_label ? ui.seat_label(state, ev.seat) : t('room.seat_n', {n: ev.seat + 1});
    if (ev.replaces && ev.replaces.id === conn.player_id) return t('room.log.my_seat_moved', {side});
    return t('room.log.seat_moved', {side, name: ev.player ? ev.player.name : t('room.a_player')});
  }

  function announce_event(ev, before) {
    const after = state.position || {};
    switch (ev.kind) {
      case 'hint':
        announce(log_text('hint', ev.seat, {turn: ev.turn}));
        break;
      case 'seated':
        if (ev.replaces) {
          announce(seat_moved_text(ev));
          if (ev.replaces.id === conn.player_id) show_notice(seat_moved_text(ev));
          else if (ev.player && ev.player.id === conn.player_id) hide_notice();
        }
        break;
      case 'draw_offer':
      case 'draw_declined':
      case 'takeback_offer':
      case 'takeback_declined':
      case 'takeback':
        announce(log_text(ev.kind, ev.seat));
        break;
      case 'play':
        // A move answers a draw offer with a no (docs/protocol.md: an offer stands until the opponent
        // answers or completes a turn).
        if (before.draw_offer === 1 - ev.seat && (after.draw_offer ?? null) === null)
          announce(log_text('draw_lapsed', ev.seat));
        break;
      case 'finished':
        announce(finish_text(ev.result || after.result, before));
        break;
      default:
        break;
    }
  }

  // How a game ended, for the log: who resigned, ran out of time or did not move; a board's ending is the
  // result's own text.
  function finish_text(result, before) {
    if (!result) return t('room.log.over');
    const loser = result.winner === 0 || result.winner === 1 ? 1 - result.winner : null;
    switch (result.reason) {
      case 'resign':
        return loser === null ? t('room.log.resign_none') : log_text('resign', loser);
      case 'time':
        return loser === null ? t('room.log.time_none') : log_text('time', loser);
      case 'abandon':
        return loser === null ? t('room.log.abandon_none') : log_text('abandon', loser);
      case 'agreement':
        return t('room.log.agreement');
      case 'aborted':
      case 'abort':
        if (/first move/.test(result.detail || '') && (before.to_move === 0 || before.to_move === 1))
          return log_text('no_first_move', before.to_move);
        if (result.detail === 'too short to rate') return t('room.log.too_short_to_rate');
        if (result.detail === 'closed by a moderator') return t('room.log.closed_by_moderator');
        return t('room.log.aborted');
      default:
        return t('room.log.game_over', {result: result_text(state)});
    }
  }

  function announce(text, at_ms = null) {
    const last = room_log.lastElementChild;
    if (last && last.dataset.text === text) return;  // a resync tells a standing offer again
    const time = date_time(at_ms ?? Date.now(), {hour: '2-digit', minute: '2-digit'});
    room_log.append(
        el('li', {class: 'room-log-line', 'data-text': text},
           el('span', {class: 'room-log-time muted'}, time), ' ', text));
    while (room_log.children.length > kLogLines) room_log.firstElementChild.remove();
  }

  // The first-move countdown as the last position gave it: it counts down locally between messages.
  function note_clocks() {
    const clocks = state.position && state.position.clocks;
    // It applies while no clock runs (docs/protocol.md): a running clock means the first moves are made.
    const counting = clocks && typeof clocks.first_move_ms === 'number' && (clocks.running ?? null) === null;
    const ms = counting ? clocks.first_move_ms : null;
    first_move = ms === null ? null : {ms, at: performance.now()};
    tick_first_move();
  }

  function tick_first_move() {
    const position = (state && state.position) || {};
    const seat = position.to_move;
    if (!first_move || position.status !== 'live' || (seat !== 0 && seat !== 1)) {
      first_move_line.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((first_move.ms - (performance.now() - first_move.at)) / 1000));
    first_move_line.hidden = false;
    first_move_line.classList.toggle('low', left <= 10);
    first_move_line.textContent = log_text('first_move', seat, {left});
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
      movelist.set_turns(record_turns(text));
      update_board();  // the last turn as the record writes it (annotations included)
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
      try: (actions) => tries.try(actions),  // boards: compose a turn before sending it
    };
    board_pending = mount_board(board_root, ctx).then((mounted) => {
      board_pending = null;
      if (destroyed) {
        mounted.destroy();
        return;
      }
      board = mounted;
      render();  // boards: the buttons depend on the board too (owns_end_turn)
    });
  }

  // Batik's folded drops expand to thousands of texts: expand each list once.
  let expanded = {from: null, texts: []};
  function expanded_legal() {
    if (expanded.from !== state.legal) expanded = {from: state.legal, texts: expand_legal(state.legal)};
    return expanded.texts;
  }

  // The last turn of the record, for the boards to mark ({seat, actions}, or null before the first turn):
  // the record's, so a reloaded page marks it as the page that saw it played.
  function last_turn() {
    const last = movelist.last_turn;
    if (!last) return null;
    const seat = last.seat ?? seat_of_side(state.game, state.sides, last.side, last.section);
    return {seat, actions: [...last.items]};
  }

  function update_board() {
    if (!board || !state || !state.position) return;
    if (viewed !== null) return;  // the board shows an earlier position: the game waits until it is back
    // `side` for the boards, as replay_position gives it: the state's sides[to_move].
    const to_move = state.position.to_move;
    const side = to_move === null || to_move === undefined ? null : (state.sides || [])[to_move] || null;
    const position = {
      ...state.position,
      side,
      legal: expanded_legal(),
      can_end_turn: state.can_end_turn,
      last_turn: last_turn(),
    };
    try {
      board.update(position, {mySeat: my_seat(), canAct: can_act(), event: last_event, replay: false});
    } catch (err) {
      console.error('cinq: board update failed', err);
    }
  }

  // The move list asks for the position after `index` turns (null: the game as it stands). Earlier
  // positions come from a replay of the record (POST /api/replay, once per record text).
  async function view_position(index, turn) {
    viewed = index === null ? null : {index, turn};
    analysis.show_turn(index);
    render_history();
    if (index === null) {
      last_event = null;  // the board comes back from another position: no move to animate
      update_board();
      return;
    }
    if (!state || !state.record) return;
    const {data, error} = await replays.get(state.record);
    if (destroyed || !viewed || viewed.index !== index) return;
    if (error || index >= data.steps.length) {
      if (error) notify(t('room.position_failed', {reason: replay_failure_text(error)}));
      movelist.go(movelist.count);
      return;
    }
    if (!board) return;
    try {
      board.update(replay_position(data.steps, index, data.sides || state.sides),
                   {mySeat: my_seat(), canAct: false, event: null, replay: true});
    } catch (err) {
      console.error('cinq: board update failed', err);
    }
  }

  // The analysis's best turn in place of turn `index`: the record with it replayed, its last step shown.
  async function show_best(index, record, best) {
    const {data, error} = await fetch_replay(record);
    if (destroyed) return;
    if (error || !board || index >= data.steps.length + 1) {
      if (error) notify(t('room.position_failed', {reason: replay_failure_text(error)}));
      return;
    }
    viewed = {index: index - 1, turn: null, best};
    render_history();
    history_caption.textContent = t('analysis.best_shown', {best});
    try {
      board.update(replay_position(data.steps, data.steps.length - 1, data.sides || state.sides),
                   {mySeat: my_seat(), canAct: false, event: null, replay: true});
    } catch (err) {
      console.error('cinq: board update failed', err);
    }
  }

  // Says over the board that it shows an earlier position, and how to come back.
  function render_history() {
    const finished = state && state.position && state.position.status === 'finished';
    if (play_on) play_on.update();
    history_banner.hidden = viewed === null;
    board_root.classList.toggle('board-old', viewed !== null);
    container.dataset.viewing = viewed === null ? '' : String(viewed.index);
    if (viewed === null) return;
    const turn = viewed.turn ? turn_label(viewed.turn) : null;
    const caption = `room.history.${finished ? 'replay' : 'earlier'}_${turn ? 'after' : 'start'}`;
    history_caption.textContent = t(caption, {turn});
    back_to_live.textContent = finished ? t('room.last_position') : t('room.back_to_game');
    back_to_live.title = t('room.history_keys');
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
    if (!title.nextElementSibling?.matches('.help-link')) title.after(help_link(state.game));  // words: help
    subtitle.textContent = [
      state.options || t('room.standard_rules'), clock_label(state.clock), ...(state.rated ? [t('room.rated')] : []),
      state.private ? t('room.private') : t('room.public'),
      ...(position.deadline_ms ? [t('room.subtitle_move_by', {date: date_time(position.deadline_ms)})] : [])
    ].join(' · ');
    const links = state.links || (app.seat_links && app.seat_links[room_id]);  // state.links: kept on reload
    const links_block = links ? seat_links_block(state, links, me) : null;
    seat_links.hidden = !links_block;
    seat_links.replaceChildren(...(links_block ? [links_block] : []));
    mail.update({state, seat: me, token: me === null ? null : seat_token(me, links)});
    spectators.textContent = String(state.spectators || 0);
    spectators_word.textContent = t('room.watching', {count: state.spectators || 0});
    players.update(state, me);
    turn_info.textContent = turn_text(state, me);
    turn_info.hidden = finished;  // the result below says it, in words
    document.title = `${can_act() ? '● ' : ''}${t('room.tab_title', {game: game_title(state.game)})}`;
    social.render();

    result.hidden = !finished;
    result.textContent = finished ? result_text(state) : '';
    const changes = ratings_text(state);
    rating_change.hidden = !changes;
    rating_change.textContent = changes ? t('room.ratings', {changes}) : '';
    container.dataset.rated = String(Boolean(state.rated));

    const free_seat = (state.seats || []).some((s) => !s);
    // A free seat of a game under way (an imported one) is taken with its link only: no button for it.
    show(sit, free_seat && me === null && position.status === 'open');
    // boards: a board with its own turn bar (owns_end_turn) ends the turn there.
    show(end_turn, can_act() && state.can_end_turn && !(board && board.owns_end_turn));
    show(resign, live && me !== null);
    if (!(live && me !== null)) disarm_resign();
    resign.textContent = resign_armed !== null ? t('room.resign_confirm') : t('room.resign');
    resign.classList.toggle('armed', resign_armed !== null);
    resign.title = resign_armed !== null ? t('room.resign_confirm_title') : '';
    // Takeback by agreement: asked by the player who completed the last turn, before the opponent plays on
    // (never by mail, nor against the computer: the server refuses those, so the button is not offered).
    const takeback_by = position.takeback_offer;
    const last = movelist.last_turn;
    const last_seat =
        last ? last.seat ?? seat_of_side(state.game, state.sides, last.side, last.section) : null;
    const by_mail = Boolean(state.clock && state.clock.days);
    const vs_bot = (state.seats || []).some((s) => s && /^bot:/.test(s.id || ''));
    invite.hidden = vs_bot;  // nobody to invite to a game against the computer
    const may_ask = live && me !== null && !by_mail && !vs_bot && last_seat === me &&
        position.to_move === other && !position.mid_turn;
    show(takeback, may_ask || (live && me !== null && takeback_by === me));
    takeback.textContent = takeback_by === me && me !== null ? t('room.takeback_asked') : t('room.takeback');
    takeback.disabled = takeback_by === me && me !== null;
    show(accept_takeback, live && me !== null && takeback_by === other);
    show(decline_takeback, live && me !== null && takeback_by === other);
    const offered_by = position.draw_offer;
    show(draw, live && me !== null);
    draw.textContent = offered_by === other && other !== null ? t('room.draw.accept') :
        offered_by === me && me !== null                      ? t('room.draw.offered') :
                                                                t('room.draw.offer');
    draw.disabled = offered_by === me && me !== null;
    show(decline_draw, live && me !== null && offered_by === other);
    // Abort stands until the second seat has begun its first turn (the server has the last word).
    const first_round = (position.turn || 0) <= 1 && !(position.to_move === 1 && position.mid_turn);
    show(abort, live && me !== null && first_round);
    show(leave, position.status === 'open' && me !== null);
    const asked = state.rematch_asked || [false, false];
    show(rematch, finished && me !== null && !state.rematch);
    rematch.textContent =
        asked[me] ? t('room.rematch_offered') : asked[other] ? t('room.rematch_accept') : t('room.rematch');
    rematch.disabled = Boolean(asked[me]);
    rematch_link.hidden = !state.rematch;
    show(new_opponent, finished && me !== null);
    show(play_again, finished && me !== null && vs_bot);
    // Hints: the seat to move, against the computer, in a casual game (the server has the last word).
    show(hint, live && me !== null && vs_bot && !state.rated && position.to_move === me && !position.mid_turn);
    if (!live) hint_line.hidden = true;
    analysis.update({finished, record: state.record, turns: movelist.turns});
    if (state.rematch) rematch_link.href = `#/room/${state.rematch}`;

    tick_first_move();
    movelist.live = !finished;
    render_play_on(finished);
    render_history();
    update_board();
  }

  // After the game: "Play on from here", from the position the replay shows (the last one unless an
  // earlier one is looked at).
  function render_play_on(finished) {
    play_on_slot.hidden = !finished;
    if (!finished) return;
    if (!play_on) {
      play_on = play_on_panel({
        record: () => (state && state.record) || moves.textContent,
        turns: () => (viewed !== null ? viewed.index : movelist.count),
        game: state.game,
        app,
      });
      play_on_slot.replaceChildren(play_on.node);
    }
    play_on.update();
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

  // mail: the token of my seat, from its link (the state's, the one `seat_link` gave, or the one opened).
  function seat_token(seat, links) {
    const token = seat_token_of(links, seat);
    if (token) return token;
    const opened = app.seat_tokens && app.seat_tokens[room_id];
    return opened && opened.seat === seat ? opened.token : null;
  }

  // --- the seat notice
  function show_notice(text, ...controls) {
    seat_notice.replaceChildren(el('p', {class: 'seat-notice-text'}, text),
                                ...(controls.length ? [el('div', {class: 'seat-notice-actions'}, controls)] : []));
    seat_notice.hidden = false;
  }
  function hide_notice() {
    seat_notice.hidden = true;
    seat_notice.replaceChildren();
  }
  // A seat link opened here whose seat someone else holds: an account's is its owner's alone (log in to
  // play it; meanwhile this page watches); a guest's moves here only if this player says so.
  function claim_refused(error) {
    const {seat, token} = claim;
    const side = ui.seat_label ? ui.seat_label(state || {}, seat) : t('room.seat_n', {n: seat + 1});
    const holder = ((state && state.seats) || [])[seat];
    if (error.code === 'seat_owned') {
      const account = (holder && holder.username) || (/the account (\S+):/.exec(error.message || '') || [])[1] ||
          (holder && holder.name) || t('room.its_owner');
      claim = null;
      show_notice(t('room.seat_owned', {side, account}),
                  el('a', {href: '#/account', class: 'button-link', id: 'seat-notice-login'}, t('room.log_in')));
      return;
    }
    const name = holder ? holder.name : t('room.another_player');
    show_notice(t('room.seat_held', {side, name}),
                el('button', {
                  type: 'button', id: 'seat-notice-take', class: 'primary', onclick: () => {
                    hide_notice();
                    claim = null;
                    if (conn.send({type: 'sit', room: room_id, seat, seat_token: token, take: true}) === null)
                      notify(t('shell.not_connected'));
                  }
                }, t('room.take_it_here')),
                el('button', {
                  type: 'button', id: 'seat-notice-watch', onclick: () => {
                    hide_notice();
                    claim = null;
                  }
                }, t('room.just_watch')));
  }

  // --- subscriptions
  const mine = (message) => message.room === room_id;
  subscriptions.push(conn.on('state', (message) => {
    if (mine(message)) apply_state(message);
    if (pending_again !== null && !mine(message)) {  // the new room's state answers the create
      pending_again = null;
      app.navigate(`#/room/${message.room}`);
    }
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
    if (tries.owns(error)) return;  // boards: the composer reports its own `try` errors
    const about_join = join_ref !== null && error.ref === join_ref;
    if (!mine(error) && !about_join) return;
    if (social.takes_error(error)) return;  // social: the chat shows its own errors
    if (error.code === 'no_room' && (about_join || !state)) {
      resyncing = false;
      load_stored();
      return;
    }
    if (about_join) resyncing = false;
    if (error.code === 'storage') join();
    if ((error.code === 'seat_owned' || error.code === 'seat_held') && claim) return claim_refused(error);
    notify(error_text(error.code, error.message, error, state && state.game));
  }));
  subscriptions.push(conn.on('welcome', () => render()));
  // A rated game ended: the ratings before and after, by seat (a later state carries them as `ratings`).
  subscriptions.push(conn.on('ratings', (message) => {
    if (!mine(message) || !state) return;
    state.ratings = message.seats || [];
    render();
  }));
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
  const clock_timer = setInterval(() => {
    players.tick();
    tick_first_move();
  }, 250);

  return () => {
    destroyed = true;
    if (app.room && app.room.id === room_id) app.room = null;
    clearInterval(clock_timer);
    for (const unsubscribe of subscriptions) unsubscribe();
    tries.dispose();  // boards
    if (state && my_seat() === null && conn.ready) conn.send({type: 'leave', room: room_id});
    disarm_resign();
    movelist.destroy();
    analysis.destroy();
    if (board) board.destroy();
    social.destroy();
    mail.destroy();
  };
}
