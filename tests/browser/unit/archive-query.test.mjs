// web-client/archive-query.js on its own (node --test): the archive's search as a REST query (always with
// `page`: without any parameter /api/games is the live room list), as the page's hash and back, and what the
// form says about wrong values.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: import the source as one.
const source = readFileSync(new URL('../../../web-client/archive-query.js', import.meta.url), 'utf8');
const q = await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);

test('the REST query: the fields given in a fixed order, empty ones left out, always a page', () => {
  assert.equal(q.archive_query({}), 'page=1');
  assert.equal(q.archive_api_url({}), '/api/games?page=1');
  assert.equal(q.archive_query({game: 'tablut', player: ' ada_1 '}, 2), 'player=ada_1&game=tablut&page=2');
  assert.equal(
      q.archive_query(
          {player: 'ada', game: 'baltek', result: 'win', rated: 'true', from: '2026-11-01', to: '2026-11-30'}, 3),
      'player=ada&game=baltek&result=win&rated=true&from=2026-11-01&to=2026-11-30&page=3');
  assert.equal(q.archive_query({player: '', game: '', result: '', rated: '', from: '', to: ''}), 'page=1');
  // `rated` from a boolean or the form's words; anything else (the form's "any") is left out.
  assert.equal(q.archive_query({rated: false}), 'rated=false&page=1');
  assert.equal(q.archive_query({rated: true}), 'rated=true&page=1');
  assert.equal(q.archive_query({rated: 'any'}), 'page=1');
  // An unknown result or field is not sent; a bad page is page 1.
  assert.equal(q.archive_query({result: 'maybe', colour: 'red'}, 0), 'page=1');
  assert.equal(q.archive_query({}, '2'), 'page=2');
  assert.equal(q.archive_query({}, 1.5), 'page=1');
});

test('values are written as URL parameters', () => {
  assert.equal(q.archive_query({player: 'a&b=c'}), 'player=a%26b%3Dc&page=1');
});

test('the hash: page 1 unsaid, read back to the same search', () => {
  assert.equal(q.archive_hash({}), '#/archive');
  assert.equal(q.archive_hash({}, 1), '#/archive');
  assert.equal(q.archive_hash({}, 2), '#/archive?page=2');
  assert.equal(q.archive_hash({player: 'ada', game: 'tablut'}), '#/archive?player=ada&game=tablut');
  const search = {player: 'ada', game: 'tablut', result: 'loss', rated: 'false', from: '2026-01-01', to: '2026-12-31'};
  for (const page of [1, 4]) {
    assert.deepEqual(q.parse_archive_hash(q.archive_hash(search, page)), {values: search, page});
  }
  assert.deepEqual(q.parse_archive_hash('#/archive'), {values: {}, page: 1});
  assert.deepEqual(q.parse_archive_hash('#/archive?page=x&result=nope&other=1&game=batik'),
                   {values: {game: 'batik'}, page: 1});
  // The query alone reads the same.
  assert.deepEqual(q.parse_archive_hash('player=ben&page=2'), {values: {player: 'ben'}, page: 2});
});

test('what the form says about wrong values', () => {
  assert.deepEqual(q.archive_problems({}), []);
  assert.deepEqual(q.archive_problems({player: 'ada_1', result: 'win', from: '2026-02-28', to: '2026-03-01'}), []);
  assert.equal(q.archive_problems({player: 'a'}).length, 1, 'too short a user name');
  assert.equal(q.archive_problems({player: 'no spaces'}).length, 1);
  assert.equal(q.archive_problems({result: 'draw'}).length, 1, 'a result needs a player');
  assert.equal(q.archive_problems({from: '2026-02-30'}).length, 1, 'no such day');
  assert.equal(q.archive_problems({to: '26-1-1'}).length, 1);
  assert.equal(q.archive_problems({from: '2026-05-02', to: '2026-05-01'}).length, 1, 'from after to');
  assert.ok(q.is_day('2024-02-29'));
  assert.ok(!q.is_day('2025-02-29'));
});

test('pages', () => {
  assert.equal(q.page_count(0), 1);
  assert.equal(q.page_count(20), 1);
  assert.equal(q.page_count(21), 2);
  assert.equal(q.page_count(41, 20), 3);
  assert.equal(q.page_count(5, 0), 1, 'a missing per_page means 20');
});
