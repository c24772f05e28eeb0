// web-client/words.js on its own (node --test; run.sh runs it before the browser tests): sides named in
// words with their letter, results written out from the server's result (and from a list's result text),
// and how a finished game went for a seated player.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: import the source as one.
const source = readFileSync(new URL('../../../web-client/words.js', import.meta.url), 'utf8');
const words = await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
// The games as the server describes them: `cinq games --json` prints the table GET /api/games/table serves.
words.set_games(JSON.parse(execFileSync(process.env.CINQ_BINARY, ['games', '--json'], {encoding: 'utf8'})).games);
const {outcome_for, parse_result_text, result_sentence, seat_label, seat_side, side_label, side_name} = words;

test('every game names its two sides in words, as docs/rules does, the letter beside them', () => {
  const expected = {
    tablut: ['Attackers (A)', 'Defenders (D)'],
    baltek: ['Blue (B)', 'Red (R)'],
    batik: ['Light (C)', 'Dark (F)'],
    'kopf-oder-knopf': ['Red (R)', 'Blue (B)'],
    'bi-litaire': ['Marble player (M)', 'Tray player (T)'],
  };
  for (const [game, labels] of Object.entries(expected)) {
    assert.deepEqual(words.game_letters(game).map((letter) => side_label(game, letter)), labels, game);
    assert.ok(words.game_about(game).length > 20, `${game} has a line saying what it is`);
  }
  assert.equal(side_name('tablut', 'A'), 'Attackers');
  // A letter the table does not know stays as it is; nothing stays nothing.
  assert.equal(side_label('tablut', 'Q'), 'Q');
  assert.equal(side_label('tablut', ''), '');
  assert.equal(side_label('no-such-game', 'A'), 'A');
});

test('a seat keeps its side; in Bi-litaire the roles follow the round', () => {
  const tablut = {game: 'tablut', sides: ['A', 'D']};
  assert.equal(seat_label(tablut, 0), 'Attackers (A)');
  assert.equal(seat_label(tablut, 1), 'Defenders (D)');
  // Without a state's sides (a lobby list) the game's own order stands.
  assert.equal(seat_label({game: 'batik'}, 1), 'Dark (F)');
  const round = (marble_player) =>
      ({game: 'bi-litaire', sides: ['M', 'T'], position: {view: {round: marble_player, marble_player}}});
  assert.equal(seat_side(round(1), 0), 'M');
  assert.equal(seat_side(round(2), 0), 'T');
  assert.equal(seat_label(round(2), 0), 'Player 1 · Tray player (T)');
  assert.equal(seat_label(round(2), 1), 'Player 2 · Marble player (M)');
  assert.equal(seat_label({game: 'bi-litaire'}, 1), 'Player 2');
  assert.equal(seat_side(tablut, null), '');
});

test('results are written out: who won, with their side, and why', () => {
  const names = ['Ada', 'Ben'];
  const cases = [
    ['tablut', {winner: 1, reason: 'resign', detail: ''}, 'Ben (Defenders) wins — Ada resigned'],
    ['tablut', {winner: 1, reason: 'escape', detail: ''}, 'Ben (Defenders) wins — the king escaped to a corner'],
    ['tablut', {winner: 0, reason: 'capture', detail: ''}, 'Ada (Attackers) wins — the king was captured'],
    ['tablut', {winner: 0, reason: 'time', detail: ''}, 'Ada (Attackers) wins on time'],
    ['tablut', {winner: 0, reason: 'blocked', detail: ''}, 'Ada (Attackers) wins — Ben had no legal move'],
    ['tablut', {winner: null, reason: 'agreement', detail: ''}, 'Draw by agreement'],
    ['tablut', {winner: null, reason: 'repetition', detail: ''},
     'Draw by repetition — the same position for the third time'],
    ['tablut', {winner: null, reason: 'aborted', detail: ''}, 'Aborted'],
    ['tablut', {winner: null, reason: 'aborted', detail: 'no first move'}, 'Aborted — no first move'],
    ['baltek', {winner: 1, reason: 'score', detail: '1-2'}, 'Ben (Red) wins 2–1'],
    ['baltek', {winner: null, reason: 'limit', detail: '1-1'}, 'Draw — the turn limit was reached at 1–1'],
    ['batik', {winner: 0, reason: 'overflow', detail: ''},
     'Ada (Light) wins — a piece Ben dropped stuck out above the rim'],
    ['batik', {winner: 1, reason: 'exhausted', detail: ''}, 'Ben (Dark) wins — Ada had no piece left to drop'],
    ['kopf-oder-knopf', {winner: 1, reason: 'score', detail: '7-10'},
     'Ben (Blue) wins — 10 against 7 buttons removed'],
    ['kopf-oder-knopf', {winner: null, reason: 'blocked', detail: '6-6'},
     'Draw — both sides were blocked with 6 buttons removed each'],
    ['bi-litaire', {winner: 1, reason: 'score', detail: '21-17'},
     'Ben (Player 2) wins — 17 against 21 marbles left'],
    ['bi-litaire', {winner: null, reason: 'score', detail: '18-18'}, 'Draw — 18 marbles left in each round'],
  ];
  for (const [game, result, text] of cases) assert.equal(result_sentence(game, result, names), text);
  // Without names the sides speak: "The Defenders (D) win", "Blue (B) wins".
  assert.equal(result_sentence('tablut', {winner: 1, reason: 'resign'}, []),
               'The Defenders (D) win — the Attackers resigned');
  assert.equal(result_sentence('baltek', {winner: 0, reason: 'time'}, [null, null]), 'Blue (B) wins on time');
  assert.equal(result_sentence('tablut', null, names), '');
});

test('a list\'s result text reads back into a result, and says whether I won', () => {
  assert.deepEqual(parse_result_text('tablut', 'D resign'),
                   {winner: 1, reason: 'resign', detail: '', text: 'D resign'});
  assert.deepEqual(parse_result_text('bi-litaire', '2 score 21-17'),
                   {winner: 1, reason: 'score', detail: '21-17', text: '2 score 21-17'});
  assert.equal(parse_result_text('kopf-oder-knopf', 'R score 10-7').winner, 0);
  assert.equal(parse_result_text('tablut', 'draw agreement').winner, null);
  assert.equal(parse_result_text('tablut', 'aborted').reason, 'aborted');
  assert.equal(parse_result_text('tablut', 'Q resign'), null);
  assert.equal(parse_result_text('tablut', ''), null);

  const lost = parse_result_text('tablut', 'D resign');
  assert.equal(outcome_for(lost, 0), 'You lost');
  assert.equal(outcome_for(lost, 1), 'You won');
  assert.equal(outcome_for(parse_result_text('tablut', 'draw agreement'), 0), 'Draw');
  assert.equal(outcome_for(parse_result_text('tablut', 'aborted'), 1), 'Aborted');
});
