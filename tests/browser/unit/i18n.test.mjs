// web-client/i18n.js and its catalogs on their own (node --test): every catalog holds exactly the English
// catalog's keys with the same parameters, every key the client's code names is in it and every key in it is
// named somewhere; texts take their parameters and plural forms; the language is chosen as the header says.
import assert from 'node:assert/strict';
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const kWeb = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../web-client');

// web-client/ has no package.json saying its .js files are modules: import each source as one.
async function load(relative) {
  const source = readFileSync(path.join(kWeb, relative), 'utf8');
  return import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
}

const i18n = await load('i18n.js');
const catalogs = {};
for (const {code} of i18n.kLanguages) catalogs[code] = (await load(`i18n/${code}.js`)).default;

// Every client source but the catalogs, as text.
function sources(dir = kWeb) {
  const found = [];
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'i18n') found.push(...sources(full));
    if (entry.isFile() && /\.(js|html)$/.test(entry.name)) found.push(readFileSync(full, 'utf8'));
  }
  return found;
}

function parameters(text) {
  const forms = typeof text === 'object' ? Object.values(text) : [text];
  return [...new Set(forms.flatMap((form) => [...form.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1])))].sort();
}

test('every catalog has the English keys, no other, with the same parameters and an `other` plural form', () => {
  const english = catalogs[i18n.kDefaultLanguage];
  for (const [code, catalog] of Object.entries(catalogs)) {
    assert.deepEqual(Object.keys(catalog).sort(), Object.keys(english).sort(), `the keys of ${code}.js`);
    for (const [key, text] of Object.entries(catalog)) {
      assert.deepEqual(parameters(text), parameters(english[key]), `${code}.js ${key}: its parameters`);
      if (typeof text === 'object') assert.ok('other' in text, `${code}.js ${key} has an 'other' form`);
      else assert.equal(typeof text, 'string', `${code}.js ${key}`);
    }
  }
});

test('every key the code looks up is in the catalog, and every key of the catalog is looked up', () => {
  const code = sources().join('\n');
  const english = catalogs[i18n.kDefaultLanguage];
  // t('key' ...) and t("key" ...): a key written out.
  const named = new Set([...code.matchAll(/\bt\(\s*['"]([a-z0-9_.-]+)['"]/g)].map((m) => m[1]));
  for (const key of named) assert.ok(key in english, `the code looks up '${key}', which en.js lacks`);
  // A key built in the code (t(`side.${letter}`)) is named by its prefix: `side.${...}`.
  const prefixes = [...code.matchAll(/`([a-z0-9_.-]+\.)\$\{/g)].map((m) => m[1]);
  for (const key of Object.keys(english)) {
    const used = named.has(key) || code.includes(`'${key}'`) || code.includes(`"${key}"`) ||
        prefixes.some((prefix) => key.startsWith(prefix));
    assert.ok(used, `en.js has '${key}', which no code looks up`);
  }
});

test('a text takes its parameters, numbers written in the language', () => {
  i18n.use_language('en', {en: {'x.p': 'Hello {name}, {count} of {total}'}});
  assert.equal(i18n.t('x.p', {name: 'Ada', count: 3, total: 12000}), 'Hello Ada, 3 of 12,000');
  i18n.use_language('fr', {en: {}, fr: {'x.p': 'Bonjour {name}, {count} sur {total}'}});
  assert.equal(i18n.t('x.p', {name: 'Ada', count: 3, total: 12000}), 'Bonjour Ada, 3 sur 12\u202f000');
  // A parameter not given stays visible; a key no catalog has shows as itself.
  assert.equal(i18n.t('x.p', {name: 'Ada'}), 'Bonjour Ada, {count} sur {total}');
  assert.equal(i18n.t('no.such.key'), 'no.such.key');
});

test('plural forms follow the language: French counts 0 and 1 as one, English only 1', () => {
  const games = {one: '{count} game', other: '{count} games'};
  const parties = {one: '{count} partie', other: '{count} parties'};
  i18n.use_language('en', {en: {'x.n': games}});
  assert.deepEqual([0, 1, 2].map((count) => i18n.t('x.n', {count})), ['0 games', '1 game', '2 games']);
  i18n.use_language('fr', {en: {'x.n': games}, fr: {'x.n': parties}});
  assert.deepEqual([0, 1, 2].map((count) => i18n.t('x.n', {count})), ['0 partie', '1 partie', '2 parties']);
  // A key missing from French falls back to English (the first test keeps this from happening).
  i18n.use_language('fr', {en: {'x.n': games}, fr: {}});
  assert.equal(i18n.t('x.n', {count: 2}), '2 games');
});

test('durations and relative times in words, in the language', () => {
  i18n.use_language('en', catalogs);
  assert.equal(i18n.duration((2 * 24 + 3) * 3600000 + 5 * 60000), '2 days, 3 hours');
  assert.equal(i18n.duration(45000), '45 seconds');
  assert.equal(i18n.duration(0), '0 seconds');
  assert.equal(i18n.relative_time(3 * 3600000), 'in 3 hours');
  i18n.use_language('fr', catalogs);
  // French puts a no-break space between a number and its unit.
  assert.equal(i18n.duration((2 * 24 + 3) * 3600000), '2\u00a0jours et 3\u00a0heures');
  assert.equal(i18n.duration(60000).replace(/\s/g, ' '), '1 minute');
  assert.equal(i18n.relative_time(-2 * 86400000), 'avant-hier');
});

test('the language: the one kept, else the first of the browser\'s that has a catalog, else English', () => {
  assert.equal(i18n.pick_language('fr', ['en-US']), 'fr');
  assert.equal(i18n.pick_language(null, ['de-DE', 'fr-CA', 'en']), 'fr');
  assert.equal(i18n.pick_language('xx', ['de']), 'en');
  assert.equal(i18n.pick_language(null, []), 'en');
  // Every language offered has a catalog and a name of its own.
  for (const {code, name} of i18n.kLanguages) {
    assert.ok(catalogs[code], code);
    assert.ok(name.length > 1, code);
  }
});
