// The client's words in the reader's language. Each language is one catalog, web-client/i18n/CODE.js (a
// default export mapping keys to texts), and one line in kLanguages; every text a person reads is looked up
// by key with t(). A text may hold parameters ({name}) and, where a count decides the wording, be an object of
// plural forms chosen by Intl.PluralRules ({one: '{count} game', other: '{count} games'}). Numbers, dates,
// times and durations go through Intl in the same language. The record notation is the games' own and is
// never translated.
//
// The language: the one chosen with the header's switch (kept in localStorage, and in the account's
// settings when there is one), else the first of the browser's languages that has a catalog, else English.
// <html lang> follows it.

export const kLanguages = [
  {code: 'en', name: 'English'},
  {code: 'fr', name: 'Français'},
];
export const kDefaultLanguage = 'en';
const kStorageKey = 'cinq.language';

let current = kDefaultLanguage;
let catalog = {};
let fallback = {};  // English: what a key missing from another catalog shows (a test keeps them whole)
let plurals = new Intl.PluralRules(kDefaultLanguage);

// The catalog of `code`, as a module beside this one.
async function load_catalog(code) {
  return (await import(`./i18n/${code}.js`)).default;
}

// The language a visit starts in: `stored` if it has a catalog, else the first of `preferred` (the
// browser's languages, "fr-CA" matching "fr") that has one, else English.
export function pick_language(stored, preferred) {
  const known = new Set(kLanguages.map(({code}) => code));
  if (stored && known.has(stored)) return stored;
  for (const tag of preferred || []) {
    const code = String(tag).toLowerCase().split('-')[0];
    if (known.has(code)) return code;
  }
  return kDefaultLanguage;
}

function stored_language() {
  try {
    return localStorage.getItem(kStorageKey);
  } catch {
    return null;  // storage refused (a private window's policy): the browser's languages decide
  }
}

// Installs the catalogs of `code` (and English beneath it); `catalogs` is for tests that hold them already.
export function use_language(code, catalogs) {
  current = catalogs[code] ? code : kDefaultLanguage;
  // Copies: each game's words are merged in later (load_game_words), the loaded modules stay as they are.
  catalog = {...catalogs[current]};
  fallback = current === kDefaultLanguage ? catalog : {...catalogs[kDefaultLanguage]};
  plurals = new Intl.PluralRules(current);
  if (typeof document !== 'undefined') document.documentElement.lang = current;
}

// Chooses the visit's language and loads its catalog: the page awaits this before it draws anything.
export async function start_language() {
  const code = pick_language(stored_language(), typeof navigator !== 'undefined' ? navigator.languages : []);
  const catalogs = {[kDefaultLanguage]: await load_catalog(kDefaultLanguage)};
  if (code !== kDefaultLanguage) catalogs[code] = await load_catalog(code);
  use_language(code, catalogs);
  return current;
}

// Each game's own words (title, sides, options, what its board says) live in the game's own places,
// web-client/boards/CODE/GAME.js, one flat default export of keys prefixed by the game's name
// ('tablut.side.A'), so that no file outside a game's places names the games. Loads those of `games` (the
// game table's names) in the reader's language and in English beneath it, once the table is known; a game
// without a file in a language (a game newer than its translation) keeps the server's English words.
export async function load_game_words(games) {
  const codes = current === kDefaultLanguage ? [kDefaultLanguage] : [kDefaultLanguage, current];
  const loaded = await Promise.all(codes.map(async (code) => [code, await Promise.all((games || []).map(
      (game) => import(`./boards/${code}/${game}.js`).then((module) => module.default, () => ({}))))]));
  add_words(Object.fromEntries(loaded.map(([code, catalogs]) => [code, Object.assign({}, ...catalogs)])));
}

// Adds texts by language ({en: {...}, fr: {...}}) to the catalogs in use: a game's words, or a test's.
export function add_words(by_code) {
  Object.assign(fallback, by_code[kDefaultLanguage] || {});
  if (current !== kDefaultLanguage) Object.assign(catalog, by_code[current] || {});
}

// Keeps `code` as the reader's choice (the page reloads to draw everything in it). False when the browser
// refuses to keep it (storage blocked): a reload would then not change the language.
export function remember_language(code) {
  try {
    localStorage.setItem(kStorageKey, code);
    return localStorage.getItem(kStorageKey) === code;
  } catch {
    return false;
  }
}

export function language() { return current; }

// The language chosen with the header's switch in this browser, null when none (the browser's decided).
export function chosen_language() { return stored_language(); }

// Whether `key` has a text in the reader's language or in English.
export function has_text(key) { return key in catalog || key in fallback; }

// The text of `key` with `params` put in. A plural text picks its form by `params.count` (Intl's category,
// then `other`). A key no catalog has shows as itself, so that a gap is seen rather than hidden.
export function t(key, params = {}) {
  let text = key in catalog ? catalog[key] : fallback[key];
  if (text === undefined) return key;
  if (typeof text === 'object') {
    const count = Number(params.count ?? 0);
    text = text[count === 0 && 'zero' in text ? 'zero' : plurals.select(count)] ?? text.other;
  }
  return text.replace(/\{([a-z_]+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === 'number' ? number(value) : String(value);
  });
}

export function number(value, options) { return new Intl.NumberFormat(current, options).format(value); }

// A date and time as the reader writes them ("29/11/2026 21:12" in French).
export function date_time(ms, options = {dateStyle: 'short', timeStyle: 'short'}) {
  return new Intl.DateTimeFormat(current, options).format(new Date(ms));
}

export function date(ms, options = {dateStyle: 'medium'}) {
  return new Intl.DateTimeFormat(current, options).format(new Date(ms));
}

// "in 3 hours", "2 days ago": the nearest whole unit.
export function relative_time(ms_from_now) {
  const format = new Intl.RelativeTimeFormat(current, {numeric: 'auto'});
  const abs = Math.abs(ms_from_now);
  for (const [unit, size] of kUnits) {
    if (abs >= size || unit === 'second') return format.format(Math.round(ms_from_now / size), unit);
  }
  return format.format(0, 'second');
}

const kUnits = [['day', 86400000], ['hour', 3600000], ['minute', 60000], ['second', 1000]];

// A length of time in words, its two largest units ("2 days, 3 hours", "2 jours et 3 heures"; "45 seconds").
export function duration(ms) {
  const parts = [];
  let rest = Math.max(0, Math.floor(ms / 1000)) * 1000;
  for (const [unit, size] of kUnits) {
    const whole = Math.floor(rest / size);
    rest -= whole * size;
    if (whole > 0 || (unit === 'second' && parts.length === 0)) parts.push([unit, whole]);
  }
  const shown = parts.slice(0, 2).map(([unit, value]) =>
      new Intl.NumberFormat(current, {style: 'unit', unit, unitDisplay: 'long'}).format(value));
  return new Intl.ListFormat(current, {style: 'long', type: 'unit'}).format(shown);
}
