// web-client/words.js on its own (node --test; run.sh runs it before the browser tests): sides named in
// words with their letter, results written out from the server's result (and from a list's result text),
// and how a finished game went for a seated player.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {test} from 'node:test';

// words.js imports i18n.js: both from their files (node reads them as modules), so that they share it.
const kWeb = new URL('../../../web-client/', import.meta.url);
const i18n = await import(new URL('i18n.js', kWeb));
const words = await import(new URL('words.js', kWeb));
// The games as the server describes them: `cinq games --json` prints the table GET /api/games/table serves.
const kTable = JSON.parse(execFileSync(process.env.CINQ_BINARY, ['games', '--json'], {encoding: 'utf8'})).games;
// The catalogs of a language: the client's (i18n/CODE.js) and each game's own (boards/CODE/GAME.js).
async function catalogs(code) {
  const games = await Promise.all(kTable.map(async ({name}) => {
    const file = new URL(`boards/${code}/${name}.js`, kWeb);
    return existsSync(file) ? (await import(file)).default : {};
  }));
  return {main: (await import(new URL(`i18n/${code}.js`, kWeb))).default, games: Object.assign({}, ...games)};
}
const kEnglish = await catalogs('en');
const kFrench = await catalogs('fr');
function use(code) {
  const texts = {en: kEnglish, fr: kFrench};
  i18n.use_language(code, Object.fromEntries(Object.entries(texts).map(([key, value]) => [key, value.main])));
  i18n.add_words(Object.fromEntries(Object.entries(texts).map(([key, value]) => [key, value.games])));
}
// English, as the browser tests read it.
use('en');
words.set_games(kTable);
const {outcome_for, parse_result_text, result_sentence, seat_label, seat_side, side_label, side_name} = words;

// Each game's own words to check are in its test module (tests/browser/games/NAME.mjs).
const kModules = await Promise.all(words.kGames.map(async ({name}) => [name, await import(`../games/${name}.mjs`)]));

test('every game names its two sides in words, as docs/rules does, the letter beside them', () => {
  for (const [game, {sideLabels}] of kModules) {
    assert.deepEqual(words.game_letters(game).map((letter) => side_label(game, letter)), sideLabels, game);
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
  for (const [game, {resultSentences}] of kModules) {
    assert.ok(resultSentences.length > 0, `games/${game}.mjs has result sentences`);
    for (const [result, text, names = ['Ada', 'Ben']] of resultSentences) {
      assert.equal(result_sentence(game, result, names), text, game);
    }
  }
  assert.equal(result_sentence('tablut', null, ['Ada', 'Ben']), '');
});

test('a list\'s result text reads back into a result, and says whether I won', () => {
  assert.deepEqual(parse_result_text('tablut', 'D resign'),
                   {winner: 1, reason: 'resign', detail: '', text: 'D resign'});
  assert.deepEqual(parse_result_text('bi-litaire', '2 score 21-17'),
                   {winner: 1, reason: 'score', detail: '21-17', text: '2 score 21-17'});
  // Every game's side letters (or player numbers) name the winner.
  for (const {name, sides, numbered_players} of words.kGames) {
    assert.equal(parse_result_text(name, `${numbered_players ? '1' : sides[0].letter} score 10-7`).winner, 0, name);
    assert.equal(parse_result_text(name, `${numbered_players ? '2' : sides[1].letter} resign`).winner, 1, name);
  }
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

test('in French: the games\' own words, and sentences whose verbs agree with a side that is a group', () => {
  use('fr');
  try {
    assert.equal(side_label('tablut', 'A'), 'Attaquants (A)');
    assert.equal(words.game_title('tablut'), 'Tablut');
    assert.equal(result_sentence('tablut', {winner: 1, reason: 'resign'}, ['Ada', 'Ben']),
                 'Ben (Défenseurs) gagne — Ada a abandonné');
    assert.equal(result_sentence('tablut', {winner: 0, reason: 'resign'}),
                 'Les Attaquants (A) gagnent — les Défenseurs ont abandonné');
    assert.equal(result_sentence('tablut', {winner: 1, reason: 'escape'}),
                 'Les Défenseurs (D) gagnent — le roi s\'est échappé dans un coin');
    assert.equal(result_sentence('batik', {winner: 0, reason: 'overflow'}),
                 'Clair (C) gagne — une pièce jouée par Foncé dépassait du bord du tableau de jeu');
    assert.equal(result_sentence('bi-litaire', {winner: 1, reason: 'score', detail: '21-17'}),
                 'Joueur 2 gagne — 17 billes restantes contre 21');
    assert.equal(result_sentence('tablut', {winner: null, reason: 'agreement'}), 'Nulle par accord mutuel');
    const round = {game: 'bi-litaire', sides: ['M', 'T'], position: {view: {round: 2, marble_player: 2}}};
    assert.equal(seat_label(round, 0), 'Joueur 1 · Joueur de plateaux (T)');
    assert.equal(outcome_for({winner: 0, reason: 'resign'}, 0), 'Vous avez gagné');
  } finally {
    use('en');
  }
});
