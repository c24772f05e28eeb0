// A rating-history chart as inline SVG, for a player's page (#/player/NAME): one chart per game, a line per
// pool (live, correspondence), time along the bottom and the rating up the side. No library: chart_model()
// does the arithmetic (pure: node's unit tests, tests/browser/unit/rating-chart.test.mjs, load this file
// alone) and render_chart() draws what it says (it touches `document` only when called).

const kSvg = 'http://www.w3.org/2000/svg';
const kDayMs = 24 * 3600 * 1000;

export const kChartSize = {
  width: 440,
  height: 200,
  margin: {top: 12, right: 14, bottom: 30, left: 46}
};

// A step of 1, 2, 2.5 or 5 times a power of ten that cuts `span` into about `count` parts.
export function nice_step(span, count = 4) {
  if (!(span > 0) || !(count > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 2.5, 5, 10]) {
    if (factor * power >= raw - 1e-9) return factor * power;
  }
  return 10 * power;
}

// The rating axis for ratings from `low` to `high`: whole steps around them with a little room above and
// below, at least 100 points tall (a flat history sits in the middle). {min, max, step, ticks}.
export function rating_axis(low, high, count = 4) {
  let lo = Math.min(low, high);
  let hi = Math.max(low, high);
  if (hi - lo < 100) {
    const middle = (lo + hi) / 2;
    lo = middle - 50;
    hi = middle + 50;
  }
  const step = nice_step(hi - lo, count);
  const min = Math.floor((lo - step * 0.25) / step) * step;
  const max = Math.ceil((hi + step * 0.25) / step) * step;
  const ticks = [];
  for (let value = min; value <= max + 1e-9; value += step) ticks.push(Number(value.toFixed(6)));
  return {min, max, step, ticks};
}

const round1 = (x) => Math.round(x * 10) / 10;

// An SVG path through points [{x, y}]: 'M x y L x y ...' (one decimal); '' for none.
export function path_of(points) {
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round1(p.x)} ${round1(p.y)}`).join(' ');
}

// The chart of one game's history: `history` is a profile's entries [{pool, at_ms, rating, deviation,
// game_id}] (any order; entries without a finite rating or time are left out). Returns null for no entry,
// else {width, height, plot: {left, top, right, bottom}, time: {min, max}, axis: rating_axis, ticks:
// [{value, y}], series: [{pool, points: [{x, y, rating, deviation, at_ms, game_id}], path}]}, series in the
// order of `pools`, then any other pool by name; times from left to right, ratings from bottom to top. A
// single moment (one game) stands in the middle: the time axis then spans a day either side.
// A series whose first entry says its `change` starts from the rating before that game (1500 for a new
// player): `start` {x, y, rating}, a little before the first game, where its line begins, so that one game
// draws a line from where the player stood rather than a lone dot.
export function chart_model(history, {size = kChartSize, pools = ['live', 'correspondence']} = {}) {
  const entries = (history || []).filter(
      (h) => h && Number.isFinite(h.rating) && Number.isFinite(h.at_ms));
  if (!entries.length) return null;
  const {width, height, margin} = size;
  const plot = {left: margin.left, top: margin.top, right: width - margin.right, bottom: height - margin.bottom};
  let t0 = Math.min(...entries.map((h) => h.at_ms));
  let t1 = Math.max(...entries.map((h) => h.at_ms));
  // The ratings before each pool's first game, a tenth of the span (a day for one moment) before it.
  const gap = t1 > t0 ? (t1 - t0) / 10 : kDayMs;
  const starts = new Map();
  for (const h of [...entries].sort((a, b) => a.at_ms - b.at_ms)) {
    const pool = h.pool || '';
    if (starts.has(pool)) continue;
    starts.set(pool, Number.isFinite(h.change) ? {rating: h.rating - h.change, at_ms: h.at_ms - gap} : null);
  }
  const begun = [...starts.values()].filter(Boolean);
  if (begun.length) {
    t0 = Math.min(t0, ...begun.map((s) => s.at_ms));
  } else if (t1 === t0) {
    t0 -= kDayMs;
    t1 += kDayMs;
  }
  const ratings = [...entries.map((h) => h.rating), ...begun.map((s) => s.rating)];
  const axis = rating_axis(Math.min(...ratings), Math.max(...ratings));
  const x = (t) => plot.left + ((t - t0) / (t1 - t0)) * (plot.right - plot.left);
  const y = (r) => plot.top + ((axis.max - r) / (axis.max - axis.min)) * (plot.bottom - plot.top);
  const names = [...new Set(entries.map((h) => h.pool || ''))].sort((a, b) => {
    const rank = (p) => (pools.includes(p) ? pools.indexOf(p) : pools.length);
    return rank(a) - rank(b) || a.localeCompare(b);
  });
  const series = names.map((pool) => {
    const points = entries.filter((h) => (h.pool || '') === pool)
                       .sort((a, b) => a.at_ms - b.at_ms)
                       .map((h) => ({
                         x: x(h.at_ms),
                         y: y(h.rating),
                         rating: h.rating,
                         deviation: h.deviation,
                         at_ms: h.at_ms,
                         game_id: h.game_id
                       }));
    const first = starts.get(pool);
    const start = first ? {x: x(first.at_ms), y: y(first.rating), rating: first.rating, at_ms: first.at_ms} : null;
    return {pool, points, start, path: path_of(start ? [start, ...points] : points)};
  });
  return {
    width,
    height,
    plot,
    time: {min: t0, max: t1},
    axis,
    ticks: axis.ticks.map((value) => ({value, y: y(value)})),
    series,
  };
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(kSvg, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// The chart as an <svg> (it scales to its box's width), or null for no history. `title`: its accessible name;
// `label(pool)` names a line; `date(ms)` writes a time (the axis' ends); `point_title(point, pool)` the
// tooltip of a game's point; `start_title(pool, rating)` the tooltip of a line's start. The defaults are English
// (this file has no imports): the player's page gives them all in the reader's language.
export function render_chart(model, {title = 'Rating history', label = (p) => p, date = (ms) => String(ms),
                                     point_title = null, start_title = null} = {}) {
  if (!model) return null;
  const {plot} = model;
  const root = svg('svg', {
    class: 'rating-chart',
    viewBox: `0 0 ${model.width} ${model.height}`,
    role: 'img',
    'aria-label': title,
    preserveAspectRatio: 'xMidYMid meet',
  });
  root.append(svg('title', {}, title));
  const grid = svg('g', {class: 'chart-grid'});
  for (const tick of model.ticks) {
    grid.append(svg('line', {x1: plot.left, x2: plot.right, y1: round1(tick.y), y2: round1(tick.y)}));
    grid.append(svg('text', {x: plot.left - 6, y: round1(tick.y), 'text-anchor': 'end', 'dominant-baseline': 'middle',
                             class: 'chart-label'},
                    String(Math.round(tick.value))));
  }
  root.append(grid);
  root.append(svg('line', {class: 'chart-axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom}));
  const bottom = plot.bottom + 20;
  root.append(svg('text', {x: plot.left, y: bottom, class: 'chart-label', 'text-anchor': 'start'},
                  date(model.time.min)));
  root.append(svg('text', {x: plot.right, y: bottom, class: 'chart-label', 'text-anchor': 'end'},
                  date(model.time.max)));
  for (const series of model.series) {
    const group = svg('g', {class: `chart-series chart-pool-${series.pool}`, 'data-pool': series.pool});
    if (series.points.length + (series.start ? 1 : 0) > 1) {
      group.append(svg('path', {class: 'chart-line', d: series.path}));
    }
    if (series.start) {
      const dot = svg('circle', {class: 'chart-start', cx: round1(series.start.x), cy: round1(series.start.y), r: 3.5});
      const text = start_title ? start_title(series.pool, series.start.rating) :
                                 `${label(series.pool)}: started at ${Math.round(series.start.rating)}`;
      dot.append(svg('title', {}, text));
      group.append(dot);
    }
    for (const point of series.points) {
      const dot = svg('circle', {class: 'chart-point', cx: round1(point.x), cy: round1(point.y), r: 4.5});
      const text = point_title ? point_title(point, series.pool) : `${label(series.pool)}: ${Math.round(point.rating)}`;
      dot.append(svg('title', {}, text));
      group.append(dot);
    }
    root.append(group);
  }
  return root;
}
