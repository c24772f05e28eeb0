// What a room gives beside the board: sounds (sound.js), the "your turn" alert of a hidden tab
// (attention.js) and the chat (chat.js). The room page reaches them through the few calls of
// mount_social(), so its own code stays about the game; app.js calls install_social() once for the header's
// switches and the watch on correspondence games.

import {install_attention, turn_alert, turn_alert_over} from './attention.js';
import {RoomChat} from './chat.js';
import {is_capture, pieces_counter, sound} from './sound.js';
import {el} from './ui.js';

// A live clock under this, for the player's own side, ticks once per turn.
const kLowTimeMs = 10000;
// The chime for "your turn" follows a capture's sound by this much, so both are heard.
const kChimeDelayMs = 220;

// Once per page: the header's sound switch and notification button, and the correspondence watch.
export function install_social(app) {
  const header = document.querySelector('.site-header') || document.body;
  const tools = el('span', {class: 'header-tools'}, sound.make_switch(document));
  header.insertBefore(tools, header.querySelector('.whoami-wrap'));
  install_attention(app, tools);
  // Browsers keep audio suspended until the user did something on the page: the first click or key does.
  const unlock = () => {
    sound.unlock();
    document.removeEventListener('pointerdown', unlock, true);
    document.removeEventListener('keydown', unlock, true);
  };
  document.addEventListener('pointerdown', unlock, true);
  document.addEventListener('keydown', unlock, true);
  // The switch changed in another tab: follow it.
  window.addEventListener('storage', () => sound.changed());
  // For browser tests (window.cinqSound.played: the sounds played, oldest first).
  window.cinqSound = sound;
}

// The room page's side of it. `container`: the room's element (the chat goes first in its .room-extra: after
// the board and the turn's controls on a phone). `room`: {state(), my_seat(), can_act()} read from room.js.
// Returns the hooks room.js calls: on_state(state), on_event(event) (after applying it), render(),
// takes_error(error) (true: the chat shows it) and destroy().
export function mount_social(app, room_id, container, room) {
  const chat = new RoomChat(app.conn, room_id);
  const extra = container.querySelector('.room-extra');
  if (extra) {
    extra.prepend(chat.node);
  } else {
    container.append(chat.node);
  }

  let seen = null;          // the position as of the last state or event: the "before" of the next event
  let could_act = null;     // whether the player could act at the last render (null before the first)
  let queued = {piece: null, turn: false};  // sounds to play once the current batch of events is applied
  let flush_timer = null;
  let clocks = null;        // the position's clocks object last seen, and when (performance.now())
  let clocks_at = 0;
  let low_turn = null;      // the turn that already ticked for low time
  let chat_fetch = 0;        // sequence number: only the latest chat fetch is shown
  let finished = false;     // the game was over at the last state or render

  const queue = (what) => {
    if (what === 'turn') {
      queued.turn = true;
    } else if (queued.piece !== 'capture') {
      queued.piece = what;
    }
    if (flush_timer === null) flush_timer = setTimeout(flush, 0);
  };
  // Several events may come at once (a catch-up after a reconnect): one sound for them. A plain move that
  // hands the player the turn sounds as the turn's chime alone; a capture is heard, then the chime.
  function flush() {
    flush_timer = null;
    const {piece, turn} = queued;
    queued = {piece: null, turn: false};
    if (piece === 'capture') {
      sound.play('capture');
      if (turn) setTimeout(() => sound.play('turn'), kChimeDelayMs);
    } else if (turn) {
      sound.play('turn');
    } else if (piece) {
      sound.play('move');
    }
  }

  function note_clocks(position) {
    if (position && position.clocks !== clocks) {
      clocks = position.clocks;
      clocks_at = performance.now();
    }
  }

  // The time left on the player's own live clock, or null: the running clock, or the time to make a first
  // move (first_move_ms, while no clock runs yet).
  function my_time_left() {
    const state = room.state();
    const position = state && state.position;
    const me = room.my_seat();
    if (!position || position.status !== 'live' || me === null || position.to_move !== me || !clocks) return null;
    const elapsed = performance.now() - clocks_at;
    if (clocks.running === me && Array.isArray(clocks.ms)) return clocks.ms[me] - elapsed;
    if (typeof clocks.first_move_ms === 'number') return clocks.first_move_ms - elapsed;
    return null;
  }

  const low_time_timer = setInterval(() => {
    const left = my_time_left();
    if (left === null || left <= 0 || left >= kLowTimeMs) return;
    const position = room.state().position;
    const turn = `${position.round ?? ''}:${position.turn}:${position.to_move}`;
    if (turn === low_turn) return;
    low_turn = turn;
    sound.play('low');
  }, 250);

  // The chat as stored (GET /api/games/{id}/chat): for a state without chat (a stored game read over HTTP),
  // and when the game ends, for the spectators' lines the players could not read until then.
  async function fetch_chat(replace) {
    const sequence = ++chat_fetch;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(room_id)}/chat`);
      if (!response.ok) return;
      const body = await response.json();
      if (sequence !== chat_fetch) return;
      const lines = Array.isArray(body) ? body : body.chat || [];
      if (replace) {
        chat.set_messages(lines);
      } else {
        chat.merge_messages(lines);
      }
    } catch {
      // Nothing more to show.
    }
  }

  // Chat lines are not events: a catch-up after a reconnect (`events`) does not bring those missed. The stored
  // chat does (the players' lines; the spectators' too once the game is over).
  const unsubscribe_ready = app.conn.on_ready((reconnected) => {
    if (reconnected) fetch_chat(false);
  });

  return {
    on_state(state) {
      seen = state.position || null;
      pieces_counter(state.game);  // loads the count the capture sound asks, before the first play
      note_clocks(seen);
      ++chat_fetch;
      if (Array.isArray(state.chat)) {
        chat.set_messages(state.chat);
      } else {
        fetch_chat(true);
      }
      finished = (state.position || {}).status === 'finished';
    },
    on_event(event) {
      const state = room.state();
      const before = seen;
      seen = state.position || null;
      note_clocks(seen);
      if (event.kind !== 'play' || !before || !seen) return;
      const opponent = (state.sides || [])[1 - event.seat];
      queue(is_capture(before.view, seen.view, opponent, pieces_counter(state.game)) ? 'capture' : 'move');
    },
    render() {
      const state = room.state();
      chat.update(state, room.my_seat());
      // A game against the computer has no one to talk to: no chat, nor its Mute opponent.
      chat.node.hidden = (state.seats || []).some((seat) => seat && /^bot:/.test(seat.id || ''));
      if (!finished && (state.position || {}).status === 'finished') {
        finished = true;
        if (room.my_seat() !== null) fetch_chat(false);
      }
      const can_act = room.can_act();
      if (could_act === false && can_act) {
        queue('turn');
        turn_alert(state, room.my_seat());
      } else if (could_act && !can_act) {
        turn_alert_over(room_id);
      }
      could_act = can_act;
    },
    takes_error: (error) => chat.takes_error(error),
    destroy() {
      clearInterval(low_time_timer);
      clearTimeout(flush_timer);
      turn_alert_over(room_id);
      unsubscribe_ready();
      chat.destroy();
    },
  };
}
