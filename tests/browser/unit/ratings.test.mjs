// web-client/ratings.js on its own (node --test): ratings as the pages write them ("1500?" while
// provisional), rating changes, and how a finished game went for a player.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: import the source as one.
const source = readFileSync(new URL('../../../web-client/ratings.js', import.meta.url), 'utf8');
const r = await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);

test('a rating: whole points, "?" while provisional', () => {
  assert.equal(r.format_rating({rating: 1500, deviation: 350, provisional: true}), '1500?');
  assert.equal(r.format_rating({rating: 1662.6, deviation: 80, provisional: false}), '1663');
  assert.equal(r.format_rating(null), '');
  assert.equal(r.format_rating({}), '');
  assert.equal(r.rating_title({rating: 1500, deviation: 350, provisional: true}), 'Rating 1500 ± 350, provisional');
});

test('a change: signed whole points, and a rated game\'s end per seat', () => {
  assert.equal(r.format_change(1500, 1662.3), '+162');
  assert.equal(r.format_change(1500, 1337.7), '\u2212162');
  assert.equal(r.format_change(1500.2, 1499.9), '±0');
  assert.equal(r.rating_change_text({before: 1500.0, after: 1662.3, deviation: 290.3, provisional: true}),
               '1500 \u2192 1662? (+162)');
  assert.equal(r.rating_change_text({before: 1600, after: 1590, provisional: false}), '1600 \u2192 1590 (\u221210)');
  assert.equal(r.rating_change_text(null), '');
  const seats = [{before: 1, after: 2}, {before: 3, after: 4}];
  assert.equal(r.ratings_by_seat(seats), seats);
  assert.equal(r.ratings_by_seat({type: 'ratings', room: 'x', seats}), seats);
  assert.equal(r.ratings_by_seat(undefined), null);
});

test('how a finished game went for a player', () => {
  const game = {
    id: 'g1', game: 'tablut', result: 'D resign', winner: 1,
    seats: [{name: 'Ada', username: 'ada_1'}, {name: 'Ben', username: 'Ben_2'}],
  };
  assert.equal(r.outcome_of(game, 'ada_1'), 'loss');
  assert.equal(r.outcome_of(game, 'ben_2'), 'win', 'user names compare without case');
  assert.equal(r.outcome_of(game, 'cleo'), '');
  assert.equal(r.outcome_of({...game, winner: null, result: 'draw agreement'}, 'ada_1'), 'draw');
  assert.equal(r.outcome_of({...game, winner: null, result: 'aborted'}, 'ada_1'), 'aborted');
  // The server's `draw` beside `winner`: a game without a winner that is no draw says nothing.
  assert.equal(r.outcome_of({...game, winner: null, draw: true, result: 'draw agreement'}, 'ada_1'), 'draw');
  assert.equal(r.outcome_of({...game, winner: null, draw: false, result: 'unknown'}, 'ada_1'), '');
  // A guest's seat has no user name.
  assert.equal(r.seat_of({seats: [{name: 'Guest-1'}, null]}, 'Guest-1'), -1);
  assert.equal(r.outcome_label('win'), 'Won');
  assert.equal(r.pool_label('correspondence'), 'Correspondence');
});
