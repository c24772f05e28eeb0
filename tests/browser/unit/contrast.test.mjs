// Text contrast of the shell's stylesheets (web-client/style.css and help.css) and of the boards' sheets
// (web-client/boards/*.css), in the light and the dark colour scheme (node --test; no browser). Every rule
// that sets a text `color` is checked against its own background when it sets one, else against each
// surface text may stand on (--bg, --surface, --surface-2): WCAG AA asks 4.5:1 for normal text. The boards'
// SVG texts set `fill`, and what they stand on is drawn by the board's script: kBoardTexts names each text
// rule with its grounds. The browser tests lobby.test.mjs and contrast-boards.test.mjs measure the rendered
// pages as well.
import assert from 'node:assert/strict';
import {execFileSync} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

const kMinimum = 4.5;
const read = (name) => readFileSync(new URL(`../../../web-client/${name}`, import.meta.url), 'utf8');
const kSheets = ['style.css', 'help.css'];
// The games as the server describes them (`cinq games --json`): a board sheet each, boards/NAME.css.
const kGames = JSON.parse(execFileSync(process.env.CINQ_BINARY, ['games', '--json'], {encoding: 'utf8'})).games;
const kBoardSheets = kGames.map(({name}) => `${name}.css`);

function strip_comments(css) { return css.replace(/\/\*[\s\S]*?\*\//g, ''); }

// The rules as [{selector, declarations: Map}], nested blocks (@media) flattened; `dark` is true inside a
// prefers-color-scheme: dark block.
function parse_rules(css) {
  const rules = [];
  const text = strip_comments(css);
  const stack = [];
  let start = 0;
  for (let i = 0; i < text.length; ++i) {
    if (text[i] === '{') {
      stack.push({header: text.slice(start, i).trim(), body_start: i + 1});
      start = i + 1;
    } else if (text[i] === '}') {
      const block = stack.pop();
      const body = text.slice(block.body_start, i);
      if (!body.includes('{')) {
        const declarations = new Map();
        for (const part of body.split(';')) {
          const colon = part.indexOf(':');
          if (colon > 0) declarations.set(part.slice(0, colon).trim(), part.slice(colon + 1).trim());
        }
        const dark = stack.some((outer) => /prefers-color-scheme:\s*dark/.test(outer.header));
        rules.push({selector: block.header, declarations, dark});
      }
      start = i + 1;
    }
  }
  return rules;
}

// The custom properties of :root, light and dark (dark = light overridden by the dark block).
function variables(rules) {
  const light = new Map();
  const dark = new Map();
  for (const rule of rules) {
    if (rule.selector !== ':root') continue;
    for (const [key, value] of rule.declarations) {
      if (!key.startsWith('--')) continue;
      if (!rule.dark) light.set(key, value);
      dark.set(key, value);
    }
  }
  for (const [key, value] of light) if (!dark.has(key)) dark.set(key, value);
  return {light, dark};
}

// A colour value as [r, g, b], or null when it is not a plain opaque colour (transparent, inherit, rgba).
function resolve(value, vars, depth = 0) {
  const c = resolve_alpha(value, vars, depth);
  return c && c[3] === 1 ? c.slice(0, 3) : null;
}

// A colour value as [r, g, b, alpha] (hex, white, black, rgb(), rgba()), or null.
function resolve_alpha(value, vars, depth = 0) {
  if (!value || depth > 5) return null;
  const v = value.trim().replace(/\s*!important$/, '');
  const variable = /^var\((--[\w-]+)(?:,\s*(.+))?\)$/.exec(v);
  if (variable) return resolve_alpha(vars.get(variable[1]) ?? variable[2], vars, depth + 1);
  const rgb = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*(?:,\s*([\d.]+)\s*)?\)$/.exec(v);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
  const opaque = resolve_hex(v);
  return opaque ? [...opaque, 1] : null;
}

function resolve_hex(v) {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  }
  if (v === 'white') return [255, 255, 255];
  if (v === 'black') return [0, 0, 0];
  return null;
}

function luminance([r, g, b]) {
  const channel = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// What fails in one sheet: [selector, scheme, ratio]. `vars`: {light, dark} (variables, board_variables).
function failures(sheet, vars) {
  const out = [];
  for (const rule of parse_rules(read(sheet))) {
    const color = rule.declarations.get('color');
    if (!color || rule.selector === ':root') continue;
    const background = rule.declarations.get('background') ?? rule.declarations.get('background-color');
    for (const scheme of ['light', 'dark']) {
      if (rule.dark && scheme === 'light') continue;
      const v = vars[scheme];
      const fg = resolve(color, v);
      if (!fg) continue;
      const own = resolve(background, v);
      const grounds = own ? [own] : ['--bg', '--surface', '--surface-2'].map((name) => resolve(`var(${name})`, v));
      for (const bg of grounds) {
        const ratio = contrast(fg, bg);
        if (ratio < kMinimum) out.push(`${sheet}: ${rule.selector} (${scheme}) ${ratio.toFixed(2)}:1`);
      }
    }
  }
  return out;
}

test('contrast arithmetic agrees with WCAG\'s examples', () => {
  assert.equal(contrast([0, 0, 0], [255, 255, 255]).toFixed(1), '21.0');
  assert.equal(contrast([0x77, 0x77, 0x77], [255, 255, 255]).toFixed(2), '4.48');
});

test('every text colour of the shell has 4.5:1 on its background, light and dark', () => {
  const all_rules = kSheets.flatMap((sheet) => parse_rules(read(sheet)));
  const checked = all_rules.filter((rule) => rule.declarations.has('color')).length;
  assert.ok(checked > 20, `the sheets were read (${checked} rules with a colour)`);
  const failed = kSheets.flatMap((sheet) => failures(sheet, variables(all_rules)));
  assert.deepEqual(failed, [], `text below ${kMinimum}:1`);
});

test('the lobby\'s status texts and the connection banner, named: 4.5:1', () => {
  const vars = variables(parse_rules(read('style.css')));
  for (const scheme of ['light', 'dark']) {
    const v = vars[scheme];
    for (const surface of ['--surface', '--surface-2']) {
      const ratio = contrast(resolve('var(--warn)', v), resolve(`var(${surface})`, v));
      assert.ok(ratio >= kMinimum, `live status (--warn) on ${surface}, ${scheme}: ${ratio.toFixed(2)}`);
    }
    const banner = contrast([255, 255, 255], resolve('var(--warn-strong)', v) || resolve('var(--warn)', v));
    assert.ok(banner >= kMinimum, `banner, ${scheme}: ${banner.toFixed(2)}`);
  }
});

// --- the boards' sheets

const board_sheet = (name) => `boards/${name}`;
const normal = (selector) => selector.replace(/\s+/g, ' ').trim();

// The shell's variables with a board sheet's custom properties over them, wherever the sheet sets them (the
// boards scope theirs to their root, .board-NAME; their names carry the board's prefix).
function board_variables(rules, shell) {
  const light = new Map(shell.light);
  const dark = new Map(shell.dark);
  for (const dark_block of [false, true]) {
    for (const rule of rules) {
      if (rule.dark !== dark_block) continue;
      for (const [key, value] of rule.declarations) {
        if (!key.startsWith('--')) continue;
        if (!dark_block) light.set(key, value);
        dark.set(key, value);
      }
    }
  }
  return {light, dark};
}

// The value of `props` (the first one set) in the rules of `selector`, in `scheme`: a dark block's rule wins
// in the dark scheme, the last rule wins.
function declared(rules, selector, props, scheme) {
  let value = null;
  for (const dark of scheme === 'dark' ? [false, true] : [false]) {
    for (const rule of rules) {
      if (rule.dark !== dark || normal(rule.selector) !== normal(selector)) continue;
      for (const prop of props) {
        if (rule.declarations.has(prop)) {
          value = rule.declarations.get(prop);
          break;
        }
      }
    }
  }
  return value;
}

const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
const kGroundProps = ['fill', 'background', 'background-color'];

// Each board's texts and what each is drawn on (the board's script places them), by sheet: each game's test
// module's `boardTexts` (tests/browser/games/NAME.mjs), an array of entries. `text` is the rule giving
// the text's colour (`fill`, or `color` for HTML), `on` its grounds: 'page' (the shell's --bg: the SVG is
// transparent there), a selector whose fill or background is the ground, a colour or var(), {rule, prop}
// for another property, or {over, on}: a translucent layer over a ground. `halo`: the text is drawn with its
// stroke first (paint-order: stroke), the stroke being what the glyphs stand on. `inherits`: the colour when
// the rule sets none.
const kBoardTexts = Object.fromEntries(await Promise.all(kGames.map(
    async ({name}) => [`${name}.css`, (await import(`../games/${name}.mjs`)).boardTexts])));

// A ground of kBoardTexts as [r, g, b] in `scheme`, or throws when the sheet does not give it.
function ground(spec, rules, vars, scheme) {
  const v = vars[scheme];
  if (spec === 'page') return resolve('var(--bg)', v);
  if (typeof spec === 'string' && /^(var\(|#)/.test(spec)) return resolve(spec, v);
  if (typeof spec === 'object' && spec.over) {
    const layer = resolve_alpha(declared(rules, spec.over, kGroundProps, scheme), v);
    assert.ok(layer, `${spec.over}: no colour`);
    return over(layer, ground(spec.on, rules, vars, scheme));
  }
  const [selector, props] = typeof spec === 'object' ? [spec.rule, [spec.prop]] : [spec, kGroundProps];
  const value = declared(rules, selector, props, scheme);
  const colour = resolve_alpha(value, v);
  assert.ok(colour && colour[3] === 1, `${selector}: no opaque ${props[0]} (${value})`);
  return colour.slice(0, 3);
}

// What fails among one board sheet's named texts: [selector, scheme, ratio].
function board_text_failures(sheet, rules, vars) {
  const out = [];
  for (const entry of kBoardTexts[sheet]) {
    const prop = entry.prop || 'fill';
    for (const scheme of ['light', 'dark']) {
      const v = vars[scheme];
      const value = declared(rules, entry.text, [prop], scheme) ?? entry.inherits;
      const fg = resolve_alpha(value, v);
      assert.ok(fg, `${sheet}: ${entry.text} has no ${prop} colour (${value})`);
      const opacity = Number(declared(rules, entry.text, ['opacity'], scheme) ?? 1);
      for (const spec of entry.on) {
        let bg = ground(spec, rules, vars, scheme);
        if (entry.halo) {
          const halo = resolve_alpha(declared(rules, entry.text, ['stroke'], scheme), v);
          assert.ok(halo, `${sheet}: ${entry.text}: halo without a stroke`);
          bg = over(halo, bg);
        }
        const ratio = contrast(over([...fg.slice(0, 3), fg[3] * opacity], bg), bg);
        const where = typeof spec === 'string' ? spec : JSON.stringify(spec);
        if (ratio < kMinimum)
          out.push(`${sheet}: ${entry.text} on ${where} (${scheme}) ${ratio.toFixed(2)}:1`);
      }
    }
  }
  return out;
}

// A rule that sets a fill and a font property draws text.
const kFontProps = ['font', 'font-size', 'font-weight', 'text-anchor', 'dominant-baseline'];
const looks_like_text = (rule) =>
    rule.declarations.has('fill') && kFontProps.some((prop) => rule.declarations.has(prop));

test('every board sheet\'s text colour has 4.5:1 on what it is drawn on, light and dark', () => {
  const shell = variables(parse_rules(read('style.css')));
  const failed = [];
  for (const sheet of kBoardSheets) {
    const rules = parse_rules(read(board_sheet(sheet)));
    const vars = board_variables(rules, shell);
    // Every text rule of the sheet is named in kBoardTexts, with its grounds.
    const named = new Set(kBoardTexts[sheet].map((entry) => normal(entry.text)));
    for (const rule of rules.filter(looks_like_text)) {
      assert.ok(
          named.has(normal(rule.selector)),
          `${sheet}: ${normal(rule.selector)} draws text: name its grounds`);
    }
    failed.push(...failures(board_sheet(sheet), vars), ...board_text_failures(sheet, rules, vars));
  }
  assert.deepEqual(failed, [], `board text below ${kMinimum}:1`);
});

test('the boards\' texts on the page follow the colour scheme: Baltek\'s and Batik\'s headers, named', () => {
  const shell = variables(parse_rules(read('style.css')));
  const cases = [
    [
      'baltek.css',
      ['.board-baltek .team-B', '.board-baltek .team-R', '.board-baltek .score', '.board-baltek .coord']
    ],
    ['batik.css', ['.batik-header', '.batik-coord']],
  ];
  for (const [sheet, selectors] of cases) {
    const rules = parse_rules(read(board_sheet(sheet)));
    const vars = board_variables(rules, shell);
    for (const selector of selectors) {
      for (const scheme of ['light', 'dark']) {
        const fg = resolve(declared(rules, selector, ['fill'], scheme), vars[scheme]);
        const ratio = contrast(fg, resolve('var(--bg)', vars[scheme]));
        assert.ok(ratio >= kMinimum, `${sheet}: ${selector} on the page (${scheme}): ${ratio.toFixed(2)}:1`);
      }
    }
  }
});
