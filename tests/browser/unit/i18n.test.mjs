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
// errors.js with its imports (i18n.js, words.js) as data URLs, i18n.js's the one above: the same module
// (a module is one per URL), so the language the tests choose is the one errors.js reads.
function module_url(relative, imports = {}) {
  let source = readFileSync(path.join(kWeb, relative), 'utf8');
  for (const [name, url] of Object.entries(imports)) source = source.replaceAll(`from './${name}'`, `from "${url}"`);
  return `data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`;
}
async function load_errors() {
  const i18n_url = module_url('i18n.js');
  const words_url = module_url('words.js', {'i18n.js': i18n_url});
  return import(module_url('errors.js', {'i18n.js': i18n_url, 'words.js': words_url}));
}
const catalogs = {};
for (const {code} of i18n.kLanguages) catalogs[code] = (await load(`i18n/${code}.js`)).default;
const kCodes = new Set(i18n.kLanguages.map(({code}) => code));

// Each game's own words by language: boards/CODE/GAME.js ({code: {game: catalog}}), the games being those
// with an English file.
const kGameNames = readdirSync(path.join(kWeb, 'boards', i18n.kDefaultLanguage))
                       .filter((file) => file.endsWith('.js')).map((file) => file.slice(0, -3)).sort();
const game_catalogs = {};
for (const {code} of i18n.kLanguages) {
  game_catalogs[code] = {};
  for (const file of readdirSync(path.join(kWeb, 'boards', code)).filter((name) => name.endsWith('.js'))) {
    game_catalogs[code][file.slice(0, -3)] = (await load(`boards/${code}/${file}`)).default;
  }
}
// Every English text a key may name: the client's catalog and the games' own.
const kEnglish = Object.assign({}, catalogs[i18n.kDefaultLanguage], ...Object.values(game_catalogs[i18n.kDefaultLanguage]));

// Every client source but the catalogs (i18n/ and the games' boards/CODE/), as text.
function sources(dir = kWeb) {
  const found = [];
  for (const entry of readdirSync(dir, {withFileTypes: true})) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'i18n' && !kCodes.has(entry.name)) found.push(...sources(full));
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
  for (const key of named) {
    assert.ok(key in kEnglish, `the code looks up '${key}', which neither en.js nor the games' en/ files have`);
  }
  // A key built in the code (t(`side.${letter}`)) is named by its prefix: `side.${...}`.
  const prefixes = [...code.matchAll(/`([a-z0-9_.-]+\.)\$\{/g)].map((m) => m[1]);
  for (const key of Object.keys(english)) {
    const used = named.has(key) || code.includes(`'${key}'`) || code.includes(`"${key}"`) ||
        prefixes.some((prefix) => key.startsWith(prefix));
    assert.ok(used, `en.js has '${key}', which no code looks up`);
  }
});

test('every language has each game\'s words (boards/CODE/GAME.js): the English keys, no other, same parameters', () => {
  assert.ok(kGameNames.length > 0, 'boards/en/ holds the games\' English words');
  for (const [code, by_game] of Object.entries(game_catalogs)) {
    assert.deepEqual(Object.keys(by_game).sort(), kGameNames, `the games of boards/${code}/`);
    for (const game of kGameNames) {
      const english = game_catalogs[i18n.kDefaultLanguage][game];
      const catalog = by_game[game];
      assert.deepEqual(Object.keys(catalog).sort(), Object.keys(english).sort(), `the keys of boards/${code}/${game}.js`);
      for (const [key, text] of Object.entries(catalog)) {
        assert.ok(key.startsWith(`${game}.`), `boards/${code}/${game}.js: '${key}' starts with the game's name`);
        assert.ok(!(key in catalogs[code]), `boards/${code}/${game}.js: '${key}' is in i18n/${code}.js too`);
        assert.deepEqual(parameters(text), parameters(english[key]), `boards/${code}/${game}.js ${key}: its parameters`);
        if (typeof text === 'object') assert.ok('other' in text, `boards/${code}/${game}.js ${key} has an 'other' form`);
        else assert.equal(typeof text, 'string', `boards/${code}/${game}.js ${key}`);
      }
    }
  }
});

// Whether `code` names `key`: written out, or by a template prefix (`prefix.${`).
function names(code, key) {
  if (code.includes(`'${key}'`) || code.includes(`"${key}"`)) return true;
  return [...code.matchAll(/`([a-z0-9_.-]+\.)\$\{/g)].some((m) => key.startsWith(m[1]));
}

// The rules' error codes with their parameters' names (rules/errors.inc: CINQ_ERROR(code, "names")).
const kRuleCodes = new Map(
    [...readFileSync(path.join(kWeb, '../rules/errors.inc'), 'utf8').matchAll(/^CINQ_ERROR\((\w+), "([a-z_ ]*)"\)/gm)]
        .map((m) => [m[1], m[2].split(' ').filter(Boolean).sort()]));

test('every catalog says every code the rules may give (rules.CODE), with the code\'s parameters, and no other', () => {
  assert.ok(kRuleCodes.size > 100, 'rules/errors.inc lists the codes');
  for (const [code, catalog] of Object.entries(catalogs)) {
    const said = Object.keys(catalog).filter((key) => key.startsWith('rules.')).map((key) => key.slice(6)).sort();
    assert.deepEqual(said, [...kRuleCodes.keys()].sort(), `the rules.* keys of ${code}.js`);
    for (const [rule, names] of kRuleCodes) {
      assert.deepEqual(parameters(catalog[`rules.${rule}`]), names, `${code}.js rules.${rule}: its parameters`);
    }
  }
});

test('a refusal of the rules is said in the reader\'s language; an unknown code keeps the server\'s message', async () => {
  const errors = await load_errors();
  i18n.use_language('fr', catalogs);
  const refusal = {code: 'illegal', message: '\'z9 a1\': \'z9\' is not a square (a1 to i9, lower case)',
    reason_code: 'not_a_square', params: {item: 'z9 a1', token: 'z9', first: 'a1', last: 'i9'}};
  assert.equal(errors.error_text(refusal.code, refusal.message, refusal),
      'Ce coup n\'est pas permis ici\u00a0: «\u00a0z9 a1\u00a0»\u00a0: «\u00a0z9\u00a0» n\'est pas une case (de a1 à i9, en minuscules)');
  const unknown = {...refusal, reason_code: 'from_a_newer_server'};
  assert.equal(errors.error_text(unknown.code, unknown.message, unknown), 'Ce coup n\'est pas permis ici.');
  assert.equal(errors.rules_reason_text(unknown), null);
  i18n.use_language('en', catalogs);
  assert.equal(errors.rules_reason_text(refusal), '\'z9 a1\': \'z9\' is not a square (a1 to i9, lower case)');
});

test('every key of a game\'s words is looked up: by its board module, or by words.js without the game\'s name', () => {
  const words = readFileSync(path.join(kWeb, 'words.js'), 'utf8');
  for (const game of kGameNames) {
    const board = readFileSync(path.join(kWeb, 'boards', `${game}.js`), 'utf8');
    for (const key of Object.keys(game_catalogs[i18n.kDefaultLanguage][game])) {
      const used = names(board, key) || names(words, key.slice(game.length + 1));
      assert.ok(used, `boards/en/${game}.js has '${key}', which neither boards/${game}.js nor words.js looks up`);
    }
  }
});

test('the games\' words join the catalogs in use, the language\'s over English', () => {
  i18n.use_language('fr', {en: {'x.a': 'A'}, fr: {'x.a': 'à'}});
  i18n.add_words({en: {'g.side.A': 'Attackers', 'g.title': 'G'}, fr: {'g.side.A': 'Attaquants'}});
  assert.deepEqual(['x.a', 'g.side.A', 'g.title'].map((key) => i18n.t(key)), ['à', 'Attaquants', 'G']);
  assert.ok(i18n.has_text('g.title'));
  assert.ok(!i18n.has_text('g.about'));
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
