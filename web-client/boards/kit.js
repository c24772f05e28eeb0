// What every board module (web-client/boards/GAME.js) draws with: SVG elements and the board's own
// stylesheet. Boards import these; none keeps its own.

export const kSvgNs = 'http://www.w3.org/2000/svg';

// One SVG element with its attributes (null, undefined and false ones are left out), appended to `parent`
// when one is given: el('circle', {cx: 3, r: 1}, group).
export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(kSvgNs, name);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(key, String(value));
  }
  if (parent) parent.appendChild(node);
  return node;
}

// One SVG element with its attributes and children: svg('g', {class: 'x'}, child, ...).
export function svg(name, attrs = {}, ...children) {
  const node = el(name, attrs);
  for (const child of children) node.append(child);
  return node;
}

// The stylesheet beside a board module (boards/GAME.css), linked once per document; the promise resolves
// when it has loaded (or failed to), for a board that measures its text.
const sheets = new Map();
export function board_stylesheet(game) {
  if (sheets.has(game)) return sheets.get(game);
  let link = document.querySelector(`link[data-board-css="${game}"]`);
  if (!link) {
    link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL(`./${game}.css`, import.meta.url).href;
    link.dataset.boardCss = game;
    document.head.appendChild(link);
  }
  const loaded = link.sheet ? Promise.resolve() : new Promise((resolve) => {
    link.addEventListener('load', resolve, {once: true});
    link.addEventListener('error', resolve, {once: true});
  });
  sheets.set(game, loaded);
  return loaded;
}

// A list or table of words built anew each time it is read (`build()`), in the reader's language: for a
// board's exported words (optionWords, notationLegend), which may be imported before the language is chosen.
// `target` is [] for a list, so that it still reads as an array.
export function lazy(build, target = {}) {
  return new Proxy(target, {
    get(_, key) {
      const value = build();
      const found = Reflect.get(value, key);
      return typeof found === 'function' ? found.bind(value) : found;
    },
    has: (_, key) => key in build(),
  });
}
