// Small DOM and formatting helpers shared by every page of the shell. No game rules nor list of the games
// live here: the games, their titles, sides and option hints are the server's game table, held by words.js
// and re-exported here.

import {load_game_words, t} from './i18n.js';
import {format_rating, rating_title} from './ratings.js';
import {sound} from './sound.js';
import {game_about, game_title, kGames, seat_label, seat_side, set_games, side_label, side_name} from './words.js';

export {game_about, game_title, kGames, seat_label, seat_side, side_label, side_name};

// The header's sound switch speaks the reader's language (sound.js has no imports of its own).
sound.use_texts(t);

// Fetches the game table (GET /api/games/table) into kGames; the shell awaits it before its first page.
export async function load_games() {
  const response = await fetch('/api/games/table');
  if (!response.ok) throw new Error(t('ui.table_failed', {status: String(response.status)}));
  const games = (await response.json()).games;
  // The games' own words in the reader's language, before anything shows a title or a side.
  await load_game_words((games || []).map((game) => game.name));
  set_games(games);
}

// Correspondence paces offered (a new room, playing on from a position): days per move.
export const kCorrespondenceDays = [1, 2, 3, 5, 7, 14];

// The computer's levels (bots/bot.h): 0 plays at random, each level above searches longer.
export const kBotLevels = [0, 1, 2, 3, 4, 5];
export const bot_level_label = (level) => (level === 0 ? t('bot.level_random') : String(level));

// The computer's level a game against it starts at: the last one chosen (kept in this browser), else 2, an
// opponent that plays with a purpose without crushing a beginner.
const kLevelKey = 'cinq.botLevel';
const kDefaultLevel = 2;
export function chosen_level() {
  try {
    const level = Number(localStorage.getItem(kLevelKey));
    return localStorage.getItem(kLevelKey) !== null && kBotLevels.includes(level) ? level : kDefaultLevel;
  } catch {
    return kDefaultLevel;
  }
}
export function remember_level(level) {
  try {
    localStorage.setItem(kLevelKey, String(level));
  } catch {
    // A browser that keeps nothing: the default next time.
  }
}

// The clocks offered on the create form: minutes + increment seconds.
export const kClocks = ['none', '3+2', '5+3', '10+5', '15+10', '30+0'];

// A "How to play" link to a game's help page (#/help/GAME), for the lobby and the room page.
export function help_link(game, text = t('ui.how_to_play')) {
  return el('a', {href: `#/help/${game}`, class: 'help-link', 'data-help': game}, text);
}

// '5+3' -> {base_ms, increment_ms}; 'none' -> null (no clock: correspondence pace).
export function parse_clock_choice(choice) {
  const match = /^(\d+)\+(\d+)$/.exec(choice || '');
  if (!match) return null;
  return {base_ms: Number(match[1]) * 60000, increment_ms: Number(match[2]) * 1000};
}

export function clock_label(clock) {
  if (clock && clock.days) return t('clock.days_per_move', {count: clock.days});
  if (!clock) return t('clock.none');
  const minutes = clock.base_ms / 60000;
  const base = Number.isInteger(minutes) ? String(minutes) : format_clock(clock.base_ms);
  return `${base}+${Math.round(clock.increment_ms / 1000)}`;
}

// mm:ss, or h:mm:ss from an hour up. Rounds up so a clock never shows 0:00 while time is left.
export function format_clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const pad = (n) => String(n).padStart(2, '0');
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

// Numbers as the protocol writes them: no trailing zeros (0.125, 3.25, 7). Rounding to 9 places first
// removes the binary noise that from + i * step accumulates.
export function format_number(x) { return String(Number(x.toFixed(9))); }

// `legal` (beside a state's position or an event's patch) holds texts, groups [prefix, "w1 w2 ..."] standing
// for "prefix w1", "prefix w2", ..., and evenly spaced runs folded into {prefix, from, to, step}; boards get
// plain strings.
export function expand_legal(legal) {
  const out = [];
  for (const entry of legal || []) {
    if (typeof entry === 'string') {
      out.push(entry);
      continue;
    }
    if (Array.isArray(entry)) {
      for (const word of String(entry[1]).split(' ')) out.push(`${entry[0]} ${word}`);
      continue;
    }
    const {prefix, from, to, step} = entry;
    if (!(step > 0)) continue;
    const count = Math.floor((to - from) / step + 1e-9);
    for (let i = 0; i <= count; ++i) out.push(`${prefix} ${format_number(from + i * step)}`);
  }
  return out;
}

// el('button', {id: 'x', class: 'primary', onclick: fn}, 'text', child...)
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      node.className = value;
    } else if (key in node && typeof value !== 'string') {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? '' : value);
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function show(node, visible) {
  if (node) node.hidden = !visible;
}

// A short-lived message in #notice (server errors answering my commands, copy confirmations).
export function notify(text, kind = 'error') {
  const area = document.getElementById('notice');
  if (!area) return;
  const item =
      el('div', {class: `notice-item notice-${kind}`, role: kind === 'error' ? 'alert' : 'status'}, text);
  area.append(item);
  setTimeout(() => item.remove(), 5000);
}

export async function copy_text(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    notify(t('ui.copied', {what}), 'info');
  } catch {
    // Clipboard access needs a secure context; fall back to a selectable prompt-free copy.
    const area = el('textarea', {class: 'copy-fallback'}, text);
    document.body.append(area);
    area.select();
    const ok = document.execCommand && document.execCommand('copy');
    area.remove();
    notify(ok ? t('ui.copied', {what}) : t('ui.copy_failed', {what: what.toLowerCase()}), ok ? 'info' : 'error');
  }
}

export function download_text(filename, text) {
  const url = URL.createObjectURL(new Blob([text], {type: 'text/plain;charset=utf-8'}));
  const link = el('a', {href: url, download: filename});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A player's page: #/player/NAME.
export function player_href(username) { return `#/player/${encodeURIComponent(username)}`; }

// A seat's player as the lists show them: the name, a link to the player's page when the seat is an
// account's (it has a `username`), and the rating beside it ("1500?") when the seat has one.
// `seat`: {name, username?, rating?}; `fallback`: the text for an empty seat.
export function player_label(seat, fallback = t('ui.free_seat')) {
  if (!seat) return el('span', {class: 'player-label free'}, fallback);
  const name = seat.username ?
      el('a', {class: 'player-link', href: player_href(seat.username), 'data-username': seat.username}, seat.name || seat.username) :
      el('span', {class: 'player-plain'}, seat.name || '');
  const badge = rating_badge(seat.rating);
  return el('span', {class: 'player-label'}, name, badge ? ' ' : null, badge);
}

// '1500?' in a small badge (with the rating's deviation as its title), or null without a rating.
export function rating_badge(rating) {
  const text = format_rating(rating);
  if (!text) return null;
  return el('span', {class: 'rating-badge', title: rating_title(rating), 'data-provisional': String(Boolean(rating.provisional))},
            text);
}

export function room_url(room) { return `${location.origin}${location.pathname}#/room/${room}`; }
