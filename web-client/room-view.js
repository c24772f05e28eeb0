// The room page's widgets that only draw: the two seats (name, presence, clock, turn marker) and the
// texts derived from a state. They hold no protocol logic; room.js feeds them.

import {date_time, t} from './i18n.js';
import {rating_change_text, ratings_by_seat} from './ratings.js';
import {copy_text, el, format_clock, player_href, rating_badge} from './ui.js';
import {result_sentence, seat_label, seat_side, side_label} from './words.js';

// Seat rows in #players; update() redraws names and presence, tick() only the clocks.
export class PlayersPanel {
  constructor() {
    this.rows_ = [0, 1].map((seat) => {
      const row = {
        dot: el('span', {class: 'online-dot', 'aria-hidden': 'true'}),
        name: el('span', {class: 'player-name'}),
        rating: el('span', {class: 'player-rating'}),  // an account's rating before the game ('1500?')
        change: el('span', {class: 'player-rating-change', hidden: true}),  // a rated game's end
        bot: el('span', {class: 'bot-badge', title: t('room.bot_title'), hidden: true}, t('room.bot')),
        side: el('span', {class: 'player-side'}),
        marker: el('span', {class: 'to-move-marker'}, t('room.to_move')),
        won: el('span', {class: 'won-marker', hidden: true}, t('room.winner')),
        clock: el('span', {class: 'clock', role: 'timer', 'aria-live': 'off'}),
        // A correspondence game: the time the seat to move has left, counted down on its card.
        deadline: el('span', {class: 'deadline-left', role: 'timer', 'aria-live': 'off', hidden: true}),
      };
      row.node =
          el('div', {class: 'player', 'data-seat': String(seat)}, row.dot,
             el('div', {class: 'player-who'}, el('div', {class: 'player-line'}, row.name, row.rating), row.bot,
                row.side, row.change),
             row.marker, row.won, row.clock, row.deadline);
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
      // An account's name links to its page (#/player/NAME); the text stays the name alone.
      if (info && info.username) {
        row.name.replaceChildren(el('a', {class: 'player-link', href: player_href(info.username)}, info.name));
      } else {
        row.name.textContent = info ? info.name : t('room.free_seat');
      }
      row.name.classList.toggle('free', !info);
      // Once a rated game is over the badge shows the rating it left (the `ratings` entry's `after`).
      const entry = (ratings_by_seat(state.ratings) || [])[seat];
      const rating = entry && typeof entry.after === 'number' ?
          {rating: entry.after, deviation: entry.deviation, provisional: Boolean(entry.provisional)} :
          info && info.rating;
      row.rating.replaceChildren(...[rating_badge(rating)].filter(Boolean));
      const change = rating_change_text(entry);
      row.change.hidden = !change;
      row.change.textContent = change ? t('room.rating_change', {change}) : '';
      // A computer opponent (player id `bot:L`): always there, so no presence to watch.
      const bot = Boolean(info && /^bot:/.test(info.id || ''));
      row.bot.hidden = !bot;
      row.node.classList.toggle('bot', bot);
      // The side in words with its letter ('Defenders (D)'), Bi-litaire's role of the round included.
      row.side.textContent = `${seat_label(state, seat)}${seat === my_seat ? t('room.side_you') : ''}`;
      const online = Boolean(info && info.online);
      row.dot.title = info ? t(online ? 'room.online' : 'room.offline') : '';
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
    // The deadline is wall time (Unix ms): counted against this computer's clock.
    this.deadline_ = live && typeof position.deadline_ms === 'number' ? position.deadline_ms : null;
    this.deadline_seat_ = live ? position.to_move : null;
    this.deadline_text_ = null;
    this.tick();
  }

  // The running clock counts down locally between events; the server's figures replace it at each event.
  tick() {
    this.tick_deadline_();
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

  // The correspondence countdown on the card of the seat to move: redrawn when its text changes (each
  // minute, each second in the last hour).
  tick_deadline_() {
    const deadline = this.deadline_ ?? null;
    const text = deadline === null ? '' : time_left_text(deadline - Date.now());
    if (text === this.deadline_text_) return;
    this.deadline_text_ = text;
    for (const [seat, row] of this.rows_.entries()) {
      const shown = Boolean(text) && seat === this.deadline_seat_;
      row.deadline.hidden = !shown;
      row.deadline.textContent = shown ? text : '';
      row.deadline.title = shown ? t('room.move_by', {date: date_time(deadline)}) : '';
      row.deadline.classList.toggle('low', shown && deadline - Date.now() < 3600 * 1000);
    }
  }
}

// The time left to move in words: '2 days 4 h left', '3 h 12 min left', '12 min 05 s left' (seconds in the
// last hour), 'time is up'.
export function time_left_text(ms) {
  if (!(ms > 0)) return t('room.time_up');
  const s = Math.floor(ms / 1000);
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = s % 60;
  if (days > 0) return t(hours ? 'room.left.days_hours' : 'room.left.days', {count: days, hours});
  if (hours > 0) return t('room.left.hours', {hours, minutes});
  return t('room.left.minutes', {minutes, seconds: String(seconds).padStart(2, '0')});
}

// The line under the board: whose turn, or why nothing happens.
export function turn_text(state, my_seat) {
  const position = state.position || {};
  const seats = state.seats || [];
  const name = (seat) => (seats[seat] ? seats[seat].name : t('room.seat_n', {n: seat + 1}));
  if (position.status === 'finished') {
    return position.result ? t('room.turn.over_result', {result: result_text(state)}) : t('room.turn.over');
  }
  if (position.status !== 'live') {
    return t(my_seat === null ? 'room.turn.waiting_players' : 'room.turn.waiting_opponent');
  }
  // The side in words and letter: "Your turn — Light (C)." (Bi-litaire: the role of the round).
  const label = side_label(state.game, seat_side(state, position.to_move));
  const side = label ? t('room.turn.side', {side: label}) : '';
  if (position.to_move === my_seat) {
    // boards: "end your turn" only where the rules allow it (not after a Kopf oder Knopf penalty).
    const next = t(state.can_end_turn ? 'room.turn.play_on_or_end' : 'room.turn.play_on');
    if (position.mid_turn) return t('room.turn.yours_mid', {side, next});
    return t('room.turn.yours', {side});
  }
  return t('room.turn.other', {name: name(position.to_move), side});
}

// The result written out: "Ben (Defenders) wins — Ada resigned", "Draw by agreement", "Aborted".
export function result_text(state) {
  const result = (state.position || {}).result;
  if (!result) return '';
  const names = (state.seats || []).map((seat) => (seat ? seat.name : ''));
  const sentence = result_sentence(state.game, result, names);
  // Hints taken against the computer, each player's count.
  const hints = (state.position || {}).hints || [];
  const taken = [0, 1].filter((s) => hints[s] > 0)
      .map((s) => t('room.hints_taken', {name: names[s] || t('room.seat_n', {n: s + 1}), count: hints[s]}));
  return taken.length ? `${sentence} (${taken.join(', ')})` : sentence;
}

// The seat a link opens, as the link itself says it (`?seat=S&token=T`), else null.
export function link_seat(link) {
  const query = /\?(.*)$/.exec(typeof link === 'string' ? link : '');
  const seat = query ? new URLSearchParams(query[1]).get('seat') : null;
  return seat === '0' || seat === '1' ? Number(seat) : null;
}

// A correspondence room's private seat links (the state's `links`, or the one `seat_link` gave), each with
// its side and a copy button. `links` is [link0, link1] by seat (null where not given) or [{seat, link}...];
// the server writes them from the site's root (`/#/room/ID?seat=S&token=T`). The seat is the one the link
// names: a server that listed a seated player's own link alone ([link1]) must not make it seat 0's.
export function seat_link_items(state, links, my_seat) {
  const items = [];
  const seats = (state && state.seats) || [];
  for (const [index, entry] of (links || []).entries()) {
    const link = entry && typeof entry === 'object' ? entry.link : entry;
    if (!link) continue;
    const named = link_seat(link);
    const seat = named !== null ? named : entry && typeof entry === 'object' ? entry.seat : index;
    if (seat !== 0 && seat !== 1) continue;
    const url = new URL(link, location.href).href;
    const side = seat_label(state, seat);
    const holder = seats[seat];
    // Whose link it is: mine, the opponent's to send (a free seat), or a seat someone else holds.
    const who = seat === my_seat ? t('room.link.mine', {side}) :
        holder && my_seat !== null && my_seat !== undefined ? t('room.link.holder', {name: holder.name, side}) :
                                                              t('room.link.opponent', {side});
    // The link on one line, shortened in the middle by CSS (its end, the token, stays visible); the whole
    // link is the href, the title and what Copy copies.
    items.push(el(
        'li', {class: 'seat-link', 'data-seat': String(seat), 'data-mine': String(seat === my_seat)},
        el('span', {class: 'seat-link-who'}, who),
        el('a', {href: url, class: 'seat-link-url', title: url}, url),
        el('button', {type: 'button', class: 'copy-seat-link', onclick: () => copy_text(url, t('room.copied_link'))},
           t('room.copy_link'))));
  }
  return items;
}

// The seat links as a block, saying what to do with them: a correspondence game by link waits until the
// opponent opens theirs, and one's own link plays the seat from another browser.
export function seat_links_block(state, links, my_seat) {
  const items = seat_link_items(state, links, my_seat);
  if (!items.length) return null;
  const seats = (state && state.seats) || [];
  const to_send = items.some((item) => item.dataset.mine !== 'true' && !seats[Number(item.dataset.seat)]);
  return el(
      'div', {class: 'seat-links-block'},
      el('p', {class: 'seat-links-say'},
         t(to_send ? 'room.links.send' : 'room.links.own')),
      el('ul', {class: 'seat-links-list'}, items));
}

// A rated game's end in words, from the state's `ratings`: 'Ada 1500 → 1662? (+162) · Ben 1500 → 1338? (−162)',
// or '' before (or without) it.
export function ratings_text(state) {
  const entries = ratings_by_seat(state && state.ratings);
  if (!entries) return '';
  const seats = state.seats || [];
  return entries.map((entry, seat) => {
    const change = rating_change_text(entry);
    if (!change) return '';
    const name = seats[seat] ? seats[seat].name : t('room.seat_n', {n: seat + 1});
    return t('room.rating_entry', {name, change});
  }).filter(Boolean).join(' · ');
}

// A record download name: cinq-tablut-ROOM.txt.
export function record_filename(state) { return `cinq-${state.game}-${state.room}.txt`; }
