// The client's words for the games: what each game is, its sides in words, and results written out
// ("Ben (Defenders) wins — Ada resigned"), in the reader's language. Pure functions without DOM, importing
// only i18n.js, so that node's unit tests (tests/browser/unit/words.test.mjs) load them; ui.js re-exports
// what the pages use. The games' names and sides come from the server's game table (set_games), in English;
// each game's own catalogs (web-client/boards/CODE/GAME.js, keys 'GAME.title', 'GAME.side.LETTER'...) give
// them in the reader's language, the table's words standing in where a catalog has no text. The result
// reasons are docs/notation.md's ("Results").

import {has_text, t} from './i18n.js';

// The games as the server describes them (GET /api/games/table, docs/protocol.md "The games"): the client's
// one list of the games, in the server's order, set once before the first page (app.js) with set_games.
// Each: {name, title, about, sides: [{letter, name}], plural (the side names are groups: "the Attackers
// win"), numbered_players (a result names player 1 or 2, who swap sides between rounds), options: [{key,
// default, hint, ...}], options_hint, results: {REASON: {win, win_bare, draw}}: the game's own sentences for a
// result, where its wording differs from the one below (its scores' units)}.
export const kGames = [];

export function set_games(games) { kGames.splice(0, kGames.length, ...(games || [])); }

export function game_entry(game) { return kGames.find((g) => g.name === game) || null; }

// `game`'s own text `suffix` ('title', 'side.A'...) from its catalog, else `fallback` (the table's words).
function game_text(game, suffix, fallback, params) {
  const key = `${game}.${suffix}`;
  return has_text(key) ? t(key, params) : fallback;
}

export function game_title(game) {
  const entry = game_entry(game);
  return entry ? game_text(game, 'title', entry.title) : game;
}

// Whether `game`'s results name players by number (Bi-litaire's players swap roles between rounds).
function numbered(game) { return Boolean(game_entry(game) && game_entry(game).numbered_players); }

export function game_about(game) {
  return game_entry(game) ? game_text(game, 'about', game_entry(game).about || '') : '';
}

// Whether a game's sides are groups in the reader's language ('the Attackers win', 'les Bleus gagnent'): the
// game's catalog says 'plural' or 'singular' (its `side_number`), else the table's `plural` says it for English.
function plural_sides(game) {
  const entry = game_entry(game);
  return game_text(game, 'side_number', entry && entry.plural ? 'plural' : 'singular') === 'plural';
}

// The side letters by seat, when no state says them (lists and summaries carry no `sides`).
export function game_letters(game) {
  const entry = game_entry(game);
  return entry ? entry.sides.map((side) => side.letter) : [];
}

// A side in words: side_name('tablut', 'A') -> 'Attackers'; a letter the table does not know stays as it is.
export function side_name(game, letter) {
  const entry = game_entry(game);
  const side = entry && entry.sides.find((s) => s.letter === letter);
  return side ? game_text(game, `side.${letter}`, side.name || letter) : letter || '';
}

// A side in words with its letter beside it, as records write it: side_label('batik', 'C') -> 'Light (C)'.
export function side_label(game, letter) {
  if (!letter) return '';
  const name = side_name(game, letter);
  return name !== letter ? `${name} (${letter})` : letter;
}

// The side letter a seat plays now. A seat keeps its side for the whole game, except where players are
// numbered (Bi-litaire), who swap sides for the second round: the view says which player holds side 0 (the
// marbles: `marble_player`, 1 or 2; player 1 is seat 0).
export function seat_side(state, seat) {
  if (seat !== 0 && seat !== 1) return '';
  const game = state && state.game;
  const view = state && state.position && state.position.view;
  if (numbered(game)) {
    // Without a view (a lobby list) the role of the round is unknown: the player's number says enough.
    if (!view || (view.marble_player !== 1 && view.marble_player !== 2)) return '';
    const letters = game_letters(game);
    return view.marble_player === seat + 1 ? letters[0] : letters[1];
  }
  const sides = (state && state.sides) || game_letters(game);
  return sides[seat] || '';
}

// A seat's side in words and letter ('Light (C)'). Bi-litaire's players are numbered (a result names the
// player, not the role) and their role of the round follows: 'Player 1 · Marble player (M)'.
export function seat_label(state, seat) {
  const label = side_label(state && state.game, seat_side(state, seat));
  if (state && numbered(state.game)) {
    return label ? t('seat.player_side', {number: seat + 1, side: label}) : t('seat.player', {number: seat + 1});
  }
  return label;
}

// A finished game's record result text ('D resign', 'draw agreement', '2 score 21-17', 'aborted'), as lists
// and "My games" carry it, read back into the POSITION's result shape: {winner: seat|null, reason, detail}.
// The winner is a side letter, or Bi-litaire's player number. null for a text it does not know.
export function parse_result_text(game, text) {
  const words = String(text || '').trim().replace(/^#=\s*/, '').split(/\s+/);
  if (!words[0]) return null;
  if (words[0] === 'aborted') return {winner: null, reason: 'aborted', detail: words.slice(1).join(' '), text};
  if (words.length < 2) return null;
  const [token, reason, ...rest] = words;
  const detail = rest.join(' ');
  if (token === 'draw') return {winner: null, reason, detail, text};
  let seat = -1;
  if (numbered(game)) {
    seat = token === '1' ? 0 : token === '2' ? 1 : -1;
  } else {
    seat = game_letters(game).indexOf(token);
  }
  return seat < 0 ? null : {winner: seat, reason, detail, text};
}

// A result in words, from the POSITION's result {winner, reason, detail} and the players' names by seat
// (a name may be missing: the side stands for it). `game`'s sides name the seats, as the record does.
//   "Ben (Defenders) wins — Ada resigned", "Ada (Attackers) wins — the king escaped to a corner",
//   "Draw by agreement", "Aborted", "Ben (Red) wins 2–1".
export function result_sentence(game, result, names = []) {
  if (!result) return '';
  const reason = result.reason || '';
  const detail = result.detail || '';
  const score = /^(\d+)-(\d+)$/.exec(detail);
  const figures = score ? [Number(score[1]), Number(score[2])] : null;
  const letters = game_letters(game);
  const plural = plural_sides(game);
  // A seat's side in words: Bi-litaire's players by number, the other games' sides by name.
  const side_of = (seat) => (numbered(game) ? t('seat.player', {number: seat + 1}) : side_name(game, letters[seat]));
  const name_of = (seat) => (names[seat] ? String(names[seat]) : '');
  // How many a seat's player stands for, to agree a verb with it (the plural form of a text at 2): a named
  // player is one, a side without a name may be a group ("the Attackers").
  const count_of = (seat) => (!name_of(seat) && plural && !numbered(game) ? 2 : 1);
  // The side as the subject or object of a sentence when no name is known: "the Attackers", "Blue".
  const who = (seat) => name_of(seat) || t('result.side', {side: side_of(seat), count: count_of(seat)});

  if (reason === 'aborted') return detail ? t('result.aborted_detail', {detail}) : t('result.aborted');
  const winner = result.winner;
  if (winner !== 0 && winner !== 1) return draw_sentence(game, reason, figures, detail);

  const loser = 1 - winner;
  let head = '';
  if (name_of(winner)) {
    head = t('result.wins_named', {name: name_of(winner), side: side_of(winner)});
  } else if (letters[winner] && !numbered(game)) {
    head = t('result.wins_side', {side: side_of(winner), letter: letters[winner], count: count_of(winner)});
  } else {
    head = t('result.wins', {side: side_of(winner), count: count_of(winner)});
  }
  const form = figures ? 'win' : 'win_bare';
  const values = {head, mine: figures && figures[winner], theirs: figures && figures[loser]};
  const own = game_wording(game, reason)[form];
  if (own) return game_text(game, `ending.${reason}.${form}`, fill(own, values), values);
  const loser_values = {head, loser: who(loser), count: count_of(loser)};
  switch (reason) {
    case 'resign':
      return t('result.resign', loser_values);
    case 'time':
      return t('result.time', {head});
    case 'abandon':
      return t('result.abandon', loser_values);
    case 'escape':
      return t('result.escape', {head});
    case 'capture':
      return t('result.capture', {head});
    case 'blocked':
      return t('result.blocked', loser_values);
    case 'score':
      return t('result.score', {head});
    case 'overflow':
      return t('result.overflow', loser_values);
    case 'exhausted':
      return t('result.exhausted', loser_values);
    default:
      return reason ? t('result.other', {head, reason}) : head;
  }
}

// The game's own sentences for a result of `reason` ({win, win_bare, draw}; the game table's `results`), in
// English: the game's catalog has them as 'GAME.ending.REASON.FORM' in the reader's language.
function game_wording(game, reason) {
  const entry = game_entry(game);
  return (entry && entry.results && entry.results[reason]) || {};
}

// A sentence of the game table's with its places filled: {head}, {mine}, {theirs}, {each}.
function fill(sentence, values) {
  return sentence.replace(/\{(\w+)\}/g, (place, key) => (values[key] ?? place));
}

function draw_sentence(game, reason, figures, detail) {
  const own = game_wording(game, reason).draw;
  if (own && figures) return game_text(game, `ending.${reason}.draw`, fill(own, {each: figures[0]}), {each: figures[0]});
  switch (reason) {
    case 'agreement':
      return t('result.draw_agreement');
    case 'repetition':
      return t('result.draw_repetition');
    case 'limit':
      return figures ? t('result.draw_limit_score', {first: figures[0], second: figures[1]}) : t('result.draw_limit');
    case 'blocked':
      return t('result.draw_blocked');
    case 'score':
      return detail ? t('result.draw_detail', {detail}) : t('result.draw');
    default:
      return reason ? t('result.draw_other', {reason}) : t('result.draw');
  }
}

// How a finished game went for a seated player, as a word for pages' attributes and styles, the same in every
// language: 'won', 'lost', 'draw', 'aborted', or '' (no result, or not a player of it).
export function outcome_kind(result, my_seat) {
  if (!result) return '';
  if (result.reason === 'aborted') return 'aborted';
  if (result.winner !== 0 && result.winner !== 1) return 'draw';
  if (my_seat !== 0 && my_seat !== 1) return '';
  return result.winner === my_seat ? 'won' : 'lost';
}

// The same in words: 'You won', 'You lost', 'Draw' or 'Aborted'.
export function outcome_for(result, my_seat) {
  const kind = outcome_kind(result, my_seat);
  return kind ? t(`outcome.${kind}`) : '';
}
