// web-client/rating-chart.js on its own (node --test; run.sh runs it after the browser tests): the arithmetic
// of a player's rating-history chart — the rating axis' steps, where each game's point goes, the line through
// them per pool — without a browser (render_chart, which draws the model, is seen by accounts.test.mjs).
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

// web-client/ has no package.json saying its .js files are modules: import the source as one.
const source = readFileSync(new URL('../../../web-client/rating-chart.js', import.meta.url), 'utf8');
const {chart_model, kChartSize, nice_step, path_of, rating_axis} =
    await import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);

const kDay = 24 * 3600 * 1000;
const size = {width: 500, height: 200, margin: {top: 10, right: 10, bottom: 30, left: 40}};
// The plot of `size`: x from 40 to 490, y from 10 (top) to 170 (bottom).

test('steps are 1, 2, 2.5 or 5 times a power of ten', () => {
  assert.equal(nice_step(400, 4), 100);
  assert.equal(nice_step(170, 4), 50);
  assert.equal(nice_step(90, 4), 25);
  assert.equal(nice_step(7, 4), 2);
  assert.equal(nice_step(0, 4), 1);
});

test('the rating axis holds the ratings with room around them, in whole steps, at least 100 points tall', () => {
  const axis = rating_axis(1420, 1680);
  assert.equal(axis.step, 100);
  assert.equal(axis.min, 1300);
  assert.equal(axis.max, 1800);
  assert.deepEqual(axis.ticks, [1300, 1400, 1500, 1600, 1700, 1800]);
  assert.ok(axis.min < 1420 && axis.max > 1680);
  // A flat history: 100 points around it, the rating in the middle.
  const flat = rating_axis(1500, 1500);
  assert.ok(flat.max - flat.min >= 100, `${flat.min}..${flat.max}`);
  assert.equal((flat.min + flat.max) / 2, 1500);
  for (const tick of flat.ticks) assert.equal(tick % flat.step, 0);
});

test('no history, no chart', () => {
  assert.equal(chart_model([]), null);
  assert.equal(chart_model(null), null);
  assert.equal(chart_model([{pool: 'live', at_ms: NaN, rating: 1500}]), null);
});

test('points: time from left to right, rating from bottom to top, a line per pool in time order', () => {
  const t = Date.UTC(2026, 10, 1);
  const history = [
    {game: 'tablut', pool: 'live', game_id: 'g3', at_ms: t + 2 * kDay, rating: 1700, deviation: 200},
    {game: 'tablut', pool: 'live', game_id: 'g1', at_ms: t, rating: 1500, deviation: 350},
    {game: 'tablut', pool: 'correspondence', game_id: 'g2', at_ms: t + kDay, rating: 1400, deviation: 300},
  ];
  const model = chart_model(history, {size});
  assert.deepEqual(model.plot, {left: 40, top: 10, right: 490, bottom: 170});
  assert.deepEqual(model.time, {min: t, max: t + 2 * kDay});
  assert.deepEqual(model.series.map((s) => s.pool), ['live', 'correspondence'], 'live first');
  const live = model.series[0];
  assert.deepEqual(live.points.map((p) => p.game_id), ['g1', 'g3'], 'in time order');
  // The first game at the left edge, the last at the right; the middle one half way.
  assert.equal(live.points[0].x, 40);
  assert.equal(live.points[1].x, 490);
  assert.equal(model.series[1].points[0].x, 265);
  // Ratings 1400..1700: the axis runs 1300..1800 (step 100): 1500 is 3/5 of the way down from the top.
  assert.equal(model.axis.min, 1300);
  assert.equal(model.axis.max, 1800);
  assert.equal(live.points[0].y, 10 + 160 * (300 / 500));
  assert.equal(live.points[1].y, 10 + 160 * (100 / 500));
  assert.ok(live.points[1].y < live.points[0].y, 'a higher rating is drawn higher');
  assert.equal(live.path, 'M40 106 L490 42');
  assert.equal(model.series[1].path, 'M265 138', 'one point: a move only (the point is drawn as a dot)');
  // The grid's ticks: one per step, the top one at the top of the plot, the bottom one at its bottom.
  assert.equal(model.ticks.length, 6);
  assert.deepEqual(model.ticks[0], {value: 1300, y: 170});
  assert.deepEqual(model.ticks.at(-1), {value: 1800, y: 10});
});

test('one game: the point stands in the middle of a day either side', () => {
  const t = Date.UTC(2026, 10, 20, 12);
  const model = chart_model([{pool: 'live', at_ms: t, rating: 1662.3, deviation: 290}], {size});
  assert.deepEqual(model.time, {min: t - kDay, max: t + kDay});
  const [point] = model.series[0].points;
  assert.equal(point.x, 265);
  assert.ok(point.y > 10 && point.y < 170, `inside the plot: ${point.y}`);
  assert.equal(point.rating, 1662.3);
});

test('the default size, and paths with one decimal', () => {
  assert.ok(kChartSize.width > kChartSize.margin.left + kChartSize.margin.right);
  assert.equal(path_of([]), '');
  assert.equal(path_of([{x: 1.26, y: 2}, {x: 3, y: 4.04}]), 'M1.3 2 L3 4');
  const model = chart_model([{pool: 'live', at_ms: 1, rating: 1500}, {pool: 'live', at_ms: 2, rating: 1510}]);
  assert.equal(model.width, kChartSize.width);
  assert.equal(model.height, kChartSize.height);
});

test('a line starts at the rating before the first game (1500 for a new player), a little before it', () => {
  const model = chart_model([{pool: 'live', at_ms: 5 * kDay, rating: 1662, change: 162}], {size});
  const [series] = model.series;
  assert.equal(series.points.length, 1);
  assert.equal(series.start.rating, 1500);
  assert.ok(series.start.x < series.points[0].x, 'the start is left of the game');
  assert.ok(model.axis.min <= 1500 && model.axis.max >= 1662, `${model.axis.min}..${model.axis.max}`);
  assert.match(series.path, /^M\S+ \S+ L\S+ \S+$/, 'a line from the start to the game');
  // Without `change` nothing is invented.
  assert.equal(chart_model([{pool: 'live', at_ms: kDay, rating: 1600}], {size}).series[0].start, null);
});
