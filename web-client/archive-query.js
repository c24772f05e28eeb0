// The archive's search (#/archive): the form's values, the page's hash (#/archive?player=ada&page=2, so that a
// search can be linked, reloaded and gone back to) and the REST query (GET /api/games?...). Any of the
// archive's parameters makes /api/games an archive search of finished games, and without one it is the live
// room list: the REST query therefore always carries `page`. Pure functions without imports or DOM, so that
// node's unit tests (tests/browser/unit/archive-query.test.mjs) load this file alone.

// The search's fields, in the order the query writes them.
export const kArchiveFields = ['player', 'game', 'result', 'rated', 'from', 'to'];
export const kResults = ['win', 'loss', 'draw'];
export const kPerPage = 20;

const kUsername = /^[A-Za-z0-9_-]{3,20}$/;
const kDate = /^(\d{4})-(\d{2})-(\d{2})$/;

// A calendar day written YYYY-MM-DD that exists (no 2026-02-30).
export function is_day(text) {
  const match = kDate.exec(String(text || ''));
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

// The values worth sending: trimmed, empty ones dropped, `rated` as 'true'/'false' (from a boolean, or the
// form's 'true'/'false'/''), `result` one of kResults. Fields the search does not know are dropped.
export function clean_values(values = {}) {
  const out = {};
  for (const field of kArchiveFields) {
    let value = values[field];
    if (value === undefined || value === null) continue;
    if (field === 'rated') {
      if (value === true || value === 'true') out.rated = 'true';
      if (value === false || value === 'false') out.rated = 'false';
      continue;
    }
    value = String(value).trim();
    if (!value) continue;
    if (field === 'result' && !kResults.includes(value)) continue;
    out[field] = value;
  }
  return out;
}

// What is wrong with the values (an empty list: nothing), as catalog keys for archive.js to put in words
// (this file has no imports). `result` is about the player named.
export function archive_problems(values = {}) {
  const v = clean_values(values);
  const problems = [];
  if (v.player !== undefined && !kUsername.test(v.player)) problems.push('account.archive.bad_player');
  if (v.result !== undefined && v.player === undefined) problems.push('account.archive.result_needs_player');
  if (v.from !== undefined && !is_day(v.from)) problems.push('account.archive.bad_from');
  if (v.to !== undefined && !is_day(v.to)) problems.push('account.archive.bad_to');
  if (is_day(v.from) && is_day(v.to) && v.from > v.to) problems.push('account.archive.from_after_to');
  return problems;
}

// A page number from text or a number: a whole number from 1, else 1.
export function page_number(page) {
  const n = Number(page);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

function query_of(values, page, with_page) {
  const v = clean_values(values);
  const params = new URLSearchParams();
  for (const field of kArchiveFields) {
    if (v[field] !== undefined) params.set(field, v[field]);
  }
  if (with_page) params.set('page', String(page_number(page)));
  return params.toString();
}

// The REST query of a search: the fields given, then `page` (always there: see above).
export function archive_query(values, page = 1) { return query_of(values, page, true); }

export function archive_api_url(values, page = 1) { return `/api/games?${archive_query(values, page)}`; }

// The page's hash for a search: '#/archive', '#/archive?player=ada', '#/archive?player=ada&page=2'.
export function archive_hash(values, page = 1) {
  const query = query_of(values, page, page_number(page) > 1);
  return query ? `#/archive?${query}` : '#/archive';
}

// The search a hash (or its query part) holds: {values, page}. Unknown or malformed parameters are dropped.
export function parse_archive_hash(hash) {
  const text = String(hash || '');
  const at = text.indexOf('?');
  const params = new URLSearchParams(at >= 0 ? text.slice(at + 1) : text.startsWith('#') ? '' : text);
  const raw = {};
  for (const field of kArchiveFields) {
    if (params.has(field)) raw[field] = params.get(field);
  }
  return {values: clean_values(raw), page: page_number(params.get('page'))};
}

// How many pages `total` results make (at least 1, so that "page 1 of 1" reads right for none).
export function page_count(total, per_page = kPerPage) {
  const size = Number(per_page) > 0 ? Number(per_page) : kPerPage;
  return Math.max(1, Math.ceil((Number(total) || 0) / size));
}
