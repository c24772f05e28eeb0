// Ratings and finished games in words: a rating with its provisional mark ("1500?"), a change ("+162"), the
// pools, and how a finished game (an archive or profile GAME) went for one player. Pure functions without
// imports or DOM, so that node's unit tests (tests/browser/unit/ratings.test.mjs) load this file alone.

// The words of the texts below: English (the texts beside each key, as en.js has them) until the page gives
// its catalog's t() with use_words (account.js does, before anything is drawn); without imports, this file
// cannot look the catalog up itself.
let words = (key, params, english) => english;
export function use_words(t) { words = (key, params) => t(key, params); }

// A RATING is {rating, deviation, provisional} (a seat's `rating` in a room or a list, a profile's line).

// '1623', or '1500?' while the rating is provisional (too few games to trust it).
export function format_rating(rating) {
  if (!rating || typeof rating.rating !== 'number' || !Number.isFinite(rating.rating)) return '';
  return `${Math.round(rating.rating)}${rating.provisional ? '?' : ''}`;
}

// 'Rating 1500 ± 350, provisional': a rating's tooltip and accessible name.
export function rating_title(rating) {
  if (!rating || typeof rating.rating !== 'number') return '';
  const deviation = typeof rating.deviation === 'number' ? ` ± ${Math.round(rating.deviation)}` : '';
  const value = `${Math.round(rating.rating)}${deviation}`;
  if (rating.provisional) {
    return words('account.rating_title_provisional', {rating: value}, `Rating ${value}, provisional`);
  }
  return words('account.rating_title', {rating: value}, `Rating ${value}`);
}

// A rating change as signed whole points: '+162', '−12' (a minus sign, U+2212), '±0'.
export function format_change(before, after) {
  const delta = Math.round(after) - Math.round(before);
  if (delta === 0) return '±0';
  return delta > 0 ? `+${delta}` : `\u2212${-delta}`;
}

// A rated game's end for one seat, from a `ratings` entry {before, after, deviation, provisional}:
// '1500 → 1662? (+162)'.
export function rating_change_text(entry) {
  if (!entry || typeof entry.before !== 'number' || typeof entry.after !== 'number') return '';
  const after = format_rating({rating: entry.after, provisional: entry.provisional});
  return `${Math.round(entry.before)} \u2192 ${after} (${format_change(entry.before, entry.after)})`;
}

// The `ratings` of a room's state or message as an array by seat: the message's `seats`, or the state's
// `ratings` given either as that array or as the message itself. null when there is none.
export function ratings_by_seat(ratings) {
  if (Array.isArray(ratings)) return ratings;
  if (ratings && Array.isArray(ratings.seats)) return ratings.seats;
  return null;
}

export const kPools = ['live', 'correspondence'];

export function pool_label(pool) {
  if (pool === 'correspondence') return words('account.pool.correspondence', {}, 'Correspondence');
  return pool === 'live' ? words('account.pool.live', {}, 'Live') : String(pool || '');
}

// The seat `username` held in a GAME ({seats: [{name, username?}...]}), or -1.
export function seat_of(game, username) {
  const seats = (game && game.seats) || [];
  const wanted = String(username || '').toLowerCase();
  return seats.findIndex((seat) => Boolean(seat && seat.username && seat.username.toLowerCase() === wanted));
}

// How a finished GAME went for `username`: 'win', 'loss', 'draw', 'aborted', or '' when the player did not
// play it (or the game says nothing of its end). `winner` is the winning seat or null (a draw, or an abort:
// the result text says which; `draw`, when the server gives it, says it too).
export function outcome_of(game, username) {
  const seat = seat_of(game, username);
  if (seat < 0) return '';
  if (/^\s*(#=\s*)?aborted/.test(String(game.result || ''))) return 'aborted';
  if (game.winner === 0 || game.winner === 1) return game.winner === seat ? 'win' : 'loss';
  return game.draw === false ? '' : 'draw';
}

export function outcome_label(outcome) {
  const english = {win: 'Won', loss: 'Lost', draw: 'Draw', aborted: 'Aborted'}[outcome];
  return english ? words(`account.outcome.${outcome}`, {}, english) : '';
}
