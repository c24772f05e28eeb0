// The how-to-play pages (web-client/help/GAME.js in English, help/CODE/GAME.js in another language) on their
// own (node --test): every game with an English page has one in each other language of the client, and that
// page is the English one translated, section for section: the same record, the same sections with the same
// paragraphs and lists, the same figures (the same steps), and the same notation (`code` marks) in each, since
// the notation is the games' own and is never translated.
import assert from 'node:assert/strict';
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import {fileURLToPath} from 'node:url';

const kWeb = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../web-client');

// web-client/ has no package.json saying its .js files are modules: import each source as one.
async function load(relative) {
  const source = readFileSync(path.join(kWeb, relative), 'utf8');
  return import(`data:text/javascript;charset=utf-8,${encodeURIComponent(source)}`);
}

const {kDefaultLanguage, kLanguages} = await load('i18n.js');
const kOthers = kLanguages.map(({code}) => code).filter((code) => code !== kDefaultLanguage);
const kGames = readdirSync(path.join(kWeb, 'help')).filter((name) => name.endsWith('.js')).map((name) => name.slice(0, -3));

// The `code` marks of a text, sorted (a sentence in another language may put them in another order).
const notation = (text) => [...String(text).matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();

// A section's text as its shape: 'p' for a paragraph, ['li', ...] per list item, each with its notation.
const shape = (item) => (item && item.list ? {list: item.list.map(notation)} : {p: notation(item)});

test('the English help pages are there, one per game', () => {
  assert.ok(kGames.length >= 5, `help pages: ${kGames.join(', ')}`);
  assert.ok(kOthers.length >= 1, 'a language besides English');
});

for (const code of kOthers) {
  test(`every game's help page is in ${code}, its sections, figures and notation as in English`, async () => {
    for (const game of kGames) {
      const relative = `help/${code}/${game}.js`;
      assert.ok(existsSync(path.join(kWeb, relative)), `${game} has an English help page and no ${relative}`);
      const english = (await load(`help/${game}.js`)).default;
      const page = (await load(relative)).default;
      assert.equal(page.record, english.record, `${relative}: the record of the figures`);
      assert.equal(page.sections.length, english.sections.length, `${relative}: the number of sections`);
      english.sections.forEach((section, i) => {
        const other = page.sections[i];
        const where = `${relative}, section ${i + 1} (${section.title})`;
        assert.ok(typeof other.title === 'string' && other.title.trim(), `${where}: a title`);
        assert.deepEqual(other.text.map(shape), section.text.map(shape),
                         `${where}: the same paragraphs and lists, with the same notation`);
        assert.deepEqual((other.figures || []).map((f) => f.step), (section.figures || []).map((f) => f.step),
                         `${where}: the same figures`);
        (section.figures || []).forEach((figure, k) => {
          assert.ok(other.figures[k].caption.trim(), `${where}: figure ${k + 1} has a caption`);
          assert.deepEqual(notation(other.figures[k].caption), notation(figure.caption),
                           `${where}: figure ${k + 1}'s caption, the same notation`);
        });
      });
    }
  });
}

test('the French help pages put a no-break space before : ; ! ? and inside « »', async () => {
  for (const game of kGames) {
    const page = (await load(`help/fr/${game}.js`)).default;
    const texts = page.sections.flatMap((s) => [s.title, ...s.text.flatMap((item) => (item.list ? item.list : [item])),
                                                ...(s.figures || []).map((f) => f.caption)]);
    for (const text of texts) {
      const prose = text.replace(/`[^`]+`/g, '``');
      for (const match of prose.matchAll(/(.)([:;!?»])/g)) {
        assert.ok(/[\u00a0\u202f]/.test(match[1]), `help/fr/${game}.js: "${match[0]}" in: ${text}`);
      }
      for (const match of prose.matchAll(/«(.)/g)) {
        assert.ok(/[\u00a0\u202f]/.test(match[1]), `help/fr/${game}.js: "${match[0]}" in: ${text}`);
      }
    }
  }
});
