// The client's words for the games: what each game is, its sides in words, and results written out
// ("Ben (Defenders) wins — Ada resigned"). Pure functions without imports or DOM, so that node's unit tests
// (tests/browser/unit/words.test.mjs) load this file alone; ui.js re-exports what the pages use.
// The names come from docs/rules/GAME.md and the result reasons from docs/notation.md ("Results").

// `about`: the lobby's one line on what the game is. `sides`: each side letter in words, in the order of
// the server's `sides` (seat 0 plays the first). `plural`: the side names are groups ("the Attackers win").
export const kGameWords = {
  tablut: {
    about: 'A Norse siege game: the Defenders lead their king to a corner, the Attackers try to surround ' +
        'him.',
    sides: {A: 'Attackers', D: 'Defenders'},
    plural: true,
  },
  baltek: {
    about: 'Football on a board: two teams of six footballers run, pass and shoot, three actions a turn.',
    sides: {B: 'Blue', R: 'Red'},
  },
  batik: {
    about: 'Pieces dropped into a frame fall and settle; whoever makes one stick out above the rim loses.',
    sides: {C: 'Light', F: 'Dark'},
  },
  'kopf-oder-knopf': {
    about: 'Buttons on holes: pairs of your buttons strike along their line; the first to remove 10 wins.',
    sides: {R: 'Red', B: 'Blue'},
  },
  'bi-litaire': {
    about: 'Solitaire for two: one player jumps marbles, the other moves the trays; two rounds with the ' +
        'roles swapped, and fewer marbles left wins.',
    sides: {M: 'Marble player', T: 'Tray player'},
  },
};

export function game_about(game) { return (kGameWords[game] && kGameWords[game].about) || ''; }

// The side letters by seat, when no state says them (lists and summaries carry no `sides`).
export function game_letters(game) {
  const words = kGameWords[game];
  return words ? Object.keys(words.sides) : [];
}

// A side in words: side_name('tablut', 'A') -> 'Attackers'; a letter the table does not know stays as it is.
export function side_name(game, letter) {
  const words = kGameWords[game];
  return (words && words.sides[letter]) || letter || '';
}

// A side in words with its letter beside it, as records write it: side_label('batik', 'C') -> 'Light (C)'.
export function side_label(game, letter) {
  if (!letter) return '';
  const name = side_name(game, letter);
  return name !== letter ? `${name} (${letter})` : letter;
}

// The side letter a seat plays now. A seat keeps its side for the whole game, except in Bi-litaire, where the
// two players swap the marble (M) and tray (T) roles for the second round: the view says which player holds
// the marbles (`marble_player`, 1 or 2; player 1 is seat 0).
export function seat_side(state, seat) {
  if (seat !== 0 && seat !== 1) return '';
  const game = state && state.game;
  const view = state && state.position && state.position.view;
  if (game === 'bi-litaire') {
    // Without a view (a lobby list) the role of the round is unknown: the player's number says enough.
    if (!view || (view.marble_player !== 1 && view.marble_player !== 2)) return '';
    return view.marble_player === seat + 1 ? 'M' : 'T';
  }
  const sides = (state && state.sides) || game_letters(game);
  return sides[seat] || '';
}

// A seat's side in words and letter ('Light (C)'). Bi-litaire's players are numbered (a result names the
// player, not the role) and their role of the round follows: 'Player 1 · Marble player (M)'.
export function seat_label(state, seat) {
  const label = side_label(state && state.game, seat_side(state, seat));
  if (state && state.game === 'bi-litaire') return label ? `Player ${seat + 1} · ${label}` : `Player ${seat + 1}`;
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
  if (game === 'bi-litaire') {
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
  const plural = Boolean(kGameWords[game] && kGameWords[game].plural);
  // A seat's side in words: Bi-litaire's players by number, the other games' sides by name.
  const side_of = (seat) => (game === 'bi-litaire' ? `Player ${seat + 1}` : side_name(game, letters[seat]));
  const name_of = (seat) => (names[seat] ? String(names[seat]) : '');
  // The side as the subject or object of a sentence when no name is known: "the Attackers", "Blue".
  const side_ref = (seat) => (plural ? `the ${side_of(seat)}` : side_of(seat));
  const who = (seat) => name_of(seat) || side_ref(seat);

  if (reason === 'aborted') return detail ? `Aborted — ${detail}` : 'Aborted';
  const winner = result.winner;
  if (winner !== 0 && winner !== 1) return draw_sentence(game, reason, figures, detail);

  const loser = 1 - winner;
  let subject = '';
  let verb = 'wins';
  if (name_of(winner)) {
    subject = `${name_of(winner)} (${side_of(winner)})`;
  } else {
    const side = side_of(winner);
    subject = plural ? `The ${side}` : side;
    if (letters[winner] && game !== 'bi-litaire') subject += ` (${letters[winner]})`;
    if (plural) verb = 'win';
  }
  const head = `${subject} ${verb}`;
  const against = (mine, theirs) => `${mine} against ${theirs}`;
  switch (reason) {
    case 'resign':
      return `${head} — ${who(loser)} resigned`;
    case 'time':
      return `${head} on time`;
    case 'abandon':
      return `${head} — ${who(loser)} abandoned the game`;
    case 'escape':
      return `${head} — the king escaped to a corner`;
    case 'capture':
      return `${head} — the king was captured`;
    case 'blocked':
      if (game === 'kopf-oder-knopf') {
        return figures ? `${head} — both sides were blocked; ${
                             against(figures[winner], figures[loser])} buttons removed` :
                         `${head} — both sides were blocked`;
      }
      return `${head} — ${who(loser)} had no legal move`;
    case 'score':
      if (game === 'baltek') return figures ? `${head} ${figures[winner]}–${figures[loser]}` : `${head} on goals`;
      if (game === 'kopf-oder-knopf') {
        return figures ? `${head} — ${against(figures[winner], figures[loser])} buttons removed` :
                         `${head} — the target of buttons removed was reached`;
      }
      if (game === 'bi-litaire') {
        return figures ? `${head} — ${against(figures[winner], figures[loser])} marbles left` :
                         `${head} — fewer marbles left`;
      }
      return `${head} on points`;
    case 'overflow':
      return `${head} — a piece ${who(loser)} dropped stuck out above the rim`;
    case 'exhausted':
      return `${head} — ${who(loser)} had no piece left to drop`;
    default:
      return reason ? `${head} (${reason})` : head;
  }
}

function draw_sentence(game, reason, figures, detail) {
  switch (reason) {
    case 'agreement':
      return 'Draw by agreement';
    case 'repetition':
      return 'Draw by repetition — the same position for the third time';
    case 'limit':
      return figures ? `Draw — the turn limit was reached at ${figures[0]}–${figures[1]}` :
                       'Draw — the turn limit was reached';
    case 'blocked':
      return figures ? `Draw — both sides were blocked with ${figures[0]} buttons removed each` :
                       'Draw — both sides were blocked';
    case 'score':
      if (game === 'bi-litaire' && figures) return `Draw — ${figures[0]} marbles left in each round`;
      return detail ? `Draw — ${detail}` : 'Draw';
    default:
      return reason ? `Draw (${reason})` : 'Draw';
  }
}

// How a finished game went for a seated player: 'You won', 'You lost', 'Draw' or 'Aborted'.
export function outcome_for(result, my_seat) {
  if (!result) return '';
  if (result.reason === 'aborted') return 'Aborted';
  if (result.winner !== 0 && result.winner !== 1) return 'Draw';
  if (my_seat !== 0 && my_seat !== 1) return '';
  return result.winner === my_seat ? 'You won' : 'You lost';
}
