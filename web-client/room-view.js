// The room page's widgets that only draw: the two seats (name, presence, clock, turn marker) and the
// texts derived from a state. They hold no protocol logic; room.js feeds them.

import {el, format_clock} from './ui.js';

// Seat rows in #players; update() redraws names and presence, tick() only the clocks.
export class PlayersPanel {
  constructor() {
    this.rows_ = [0, 1].map((seat) => {
      const row = {
        dot: el('span', {class: 'online-dot', 'aria-hidden': 'true'}),
        name: el('span', {class: 'player-name'}),
        bot: el('span', {class: 'bot-badge', title: 'computer opponent', hidden: true}, 'computer'),
        side: el('span', {class: 'player-side'}),
        marker: el('span', {class: 'to-move-marker'}, 'to move'),
        won: el('span', {class: 'won-marker', hidden: true}, 'winner'),
        clock: el('span', {class: 'clock', role: 'timer', 'aria-live': 'off'}),
      };
      row.node =
          el('div', {class: 'player', 'data-seat': String(seat)}, row.dot,
             el('div', {class: 'player-who'}, row.name, row.bot, row.side), row.marker, row.won, row.clock);
      return row;
    });
    this.node = el('div', {id: 'players', class: 'players'}, this.rows_.map((r) => r.node));
    this.clocks_ = null;
    this.clocks_at_ = 0;
    this.live_ = false;
  }

  update(state, my_seat) {
    const position = state.position || {};
    const live = position.status === 'live';
    for (const [seat, row] of this.rows_.entries()) {
      const info = (state.seats || [])[seat];
      row.name.textContent = info ? info.name : 'Free seat';
      row.name.classList.toggle('free', !info);
      // A computer opponent (player id `bot:L`): always there, so no presence to watch.
      const bot = Boolean(info && /^bot:/.test(info.id || ''));
      row.bot.hidden = !bot;
      row.node.classList.toggle('bot', bot);
      row.side.textContent = `${(state.sides || [])[seat] || ''}${seat === my_seat ? ' · you' : ''}`;
      const online = Boolean(info && info.online);
      row.dot.title = info ? (online ? 'online' : 'offline') : '';
      row.node.dataset.online = info ? String(online) : '';
      row.node.classList.toggle('online', online);
      row.node.classList.toggle('me', seat === my_seat);
      const to_move = live && position.to_move === seat;
      row.node.classList.toggle('to-move', to_move);
      row.marker.hidden = !to_move;
      const won = Boolean(position.result && position.result.winner === seat);
      row.node.classList.toggle('winner', won);
      row.won.hidden = !won;
    }
    this.clocks_ = position.clocks || null;
    this.clocks_at_ = performance.now();
    this.live_ = live;
    this.tick();
  }

  // The running clock counts down locally between events; the server's figures replace it at each event.
  tick() {
    for (const [seat, row] of this.rows_.entries()) {
      if (!this.clocks_) {
        row.clock.hidden = true;
        continue;
      }
      row.clock.hidden = false;
      let ms = this.clocks_.ms[seat];
      const running = this.live_ && this.clocks_.running === seat;
      if (running) ms -= performance.now() - this.clocks_at_;
      row.clock.textContent = format_clock(ms);
      row.clock.classList.toggle('running', running);
      row.clock.classList.toggle('low', ms < 20000);
    }
  }
}

// The line under the board: whose turn, or why nothing happens.
export function turn_text(state, my_seat) {
  const position = state.position || {};
  const seats = state.seats || [];
  const name = (seat) => (seats[seat] ? seats[seat].name : `Seat ${seat + 1}`);
  if (position.status === 'finished') {
    return position.result ? `Game over: ${result_text(state)}` : 'Game over';
  }
  if (position.status !== 'live') {
    return my_seat === null ? 'Waiting for players.' : 'Waiting for an opponent: share the invitation link.';
  }
  const letter = (state.sides || [])[position.to_move];
  const side = letter ? ` (${letter})` : '';
  if (position.to_move === my_seat) {
    if (position.mid_turn) return `Your turn${side}: play on or end your turn.`;
    return `Your turn${side}.`;
  }
  return `${name(position.to_move)}${side} to move.`;
}

export function result_text(state) {
  const result = (state.position || {}).result;
  if (!result) return '';
  const seats = state.seats || [];
  let who = '';
  if (result.winner === 0 || result.winner === 1) {
    const seat = seats[result.winner];
    who = seat ? `${seat.name} wins` : `Seat ${result.winner + 1} wins`;
  } else if (result.reason === 'aborted' || result.reason === 'abort') {
    who = 'Aborted';
  } else {
    who = 'Draw';
  }
  const detail = [result.text, result.detail].filter(Boolean).join(' — ');
  return detail ? `${who} (${detail})` : who;
}

// A record download name: cinq-tablut-ROOM.txt.
export function record_filename(state) { return `cinq-${state.game}-${state.room}.txt`; }
