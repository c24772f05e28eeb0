// Text contrast on the boards: for each game, a person starts a game against the computer, gets
// the turn's texts on screen (a piece picked: target labels, Batik's drop controls), and every visible text
// inside #board -- SVG <text>/<tspan> and HTML text, the turn bar included -- has 4.5:1 (WCAG AA) against
// what it is drawn on, in the light and in the dark colour scheme (page.emulateMedia).
//
// How a text is measured: its colour is the computed fill (SVG) or color (HTML), with its fill-opacity and
// the opacity of it and its ancestors; what it stands on is read from a screenshot taken with every text
// hidden (the page background, the board's shapes, gradients and translucent layers as painted). A text drawn
// with a halo (paint-order: stroke first, a stroke of 2 px or more) stands on its halo. A text passes when
// 80% of the pixels behind its box give 4.5:1 (a grid line crossing the box does not fail it, a text half on
// the wrong ground does). Disabled controls' texts are exempt, as WCAG exempts inactive components.
import {assert, gameModule, gameNames, kDesktop, kWait, playComputer} from './harness.mjs';

const kMinimum = 4.5;
const kSchemes = ['light', 'dark'];


// The visible texts of #board: [{label, rect (page px, relative to #board's box), color [r,g,b,a], halo}].
function collectTexts() {
  const board = document.querySelector('#board');
  const origin = board.getBoundingClientRect();
  const rgba = (value) => {
    const m = /^rgba?\(([^)]+)\)$/.exec(value || '');
    if (!m) return null;
    const [r, g, b, a = '1'] = m[1].split(/[\s,/]+/).filter(Boolean);
    return [Number(r), Number(g), Number(b), Number(a)];
  };
  const ownText = (node) => [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
  const opacityOf = (node) => {
    let o = 1;
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) o *= Number(getComputedStyle(n).opacity);
    return o;
  };
  const out = [];
  for (const node of board.querySelectorAll('*')) {
    if (!ownText(node) || ['title', 'desc', 'style', 'script', 'option'].includes(node.localName)) continue;
    if (node.closest(':disabled, [aria-disabled="true"]')) continue;
    if (!node.checkVisibility({checkOpacity: true, checkVisibilityCSS: true})) continue;
    const style = getComputedStyle(node);
    const r = node.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const svgText = node instanceof SVGElement;
    const color = rgba(svgText ? style.fill : style.color);
    const label = `${node.localName}.${(node.getAttribute('class') || '').trim().replace(/\s+/g, '.')} "${
        node.textContent.trim().slice(0, 24)}"`;
    if (!color) {
      out.push({label, unmeasurable: svgText ? style.fill : style.color});
      continue;
    }
    color[3] *= (svgText ? Number(style.fillOpacity) : 1) * opacityOf(node);
    let halo = null;
    if (svgText && /^stroke/.test(style.paintOrder)) {
      const stroke = rgba(style.stroke);
      const scale = node.getScreenCTM()?.a || 1;
      const width = parseFloat(style.strokeWidth) * scale;
      if (stroke && width >= 2) {
        stroke[3] *= Number(style.strokeOpacity) * opacityOf(node);
        halo = stroke;
      }
    }
    out.push({
      label,
      color,
      halo,
      rect: {x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height},
    });
  }
  return {
    texts: out,
    clip: {x: origin.left + scrollX, y: origin.top + scrollY, width: origin.width, height: origin.height}
  };
}

// The contrast of each text against the screenshot of #board with its texts hidden (PNG, base64).
async function measure({texts, png, minimum}) {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const c2d = canvas.getContext('2d', {willReadFrequently: true});
  c2d.drawImage(image, 0, 0);
  const scale = image.width / document.querySelector('#board').getBoundingClientRect().width;
  const channel = (v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3]));
  const hex = (c) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  const results = [];
  for (const text of texts) {
    if (text.unmeasurable) {
      results.push({label: text.label, failed: true, why: `colour ${text.unmeasurable}`});
      continue;
    }
    const x0 = Math.max(0, Math.floor(text.rect.x * scale));
    const y0 = Math.max(0, Math.floor(text.rect.y * scale));
    const x1 = Math.min(canvas.width, Math.ceil((text.rect.x + text.rect.w) * scale));
    const y1 = Math.min(canvas.height, Math.ceil((text.rect.y + text.rect.h) * scale));
    if (x1 <= x0 || y1 <= y0) continue;
    const data = c2d.getImageData(x0, y0, x1 - x0, y1 - y0).data;
    const samples = [];
    for (let i = 0; i < data.length; i += 4) {
      let ground = [data[i], data[i + 1], data[i + 2]];
      if (text.halo) ground = over(text.halo, ground);
      samples.push({ratio: ratio(over(text.color, ground), ground), ground});
    }
    samples.sort((a, b) => a.ratio - b.ratio);
    const at = samples[Math.floor(samples.length * 0.2)];
    results.push({
      label: text.label,
      ratio: Number(at.ratio.toFixed(2)),
      fg: hex(over(text.color, at.ground)),
      bg: hex(at.ground),
      failed: at.ratio < minimum,
    });
  }
  return results;
}

const kHideTexts = `
  #board text, #board tspan { visibility: hidden !important; }
  #board * { -webkit-text-fill-color: transparent !important; text-shadow: none !important; }`;

// Every visible text of the board in `scheme`: [{label, ratio, fg, bg, failed}].
async function boardContrast(page, scheme) {
  await page.emulateMedia({colorScheme: scheme});
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const {texts, clip} = await page.evaluate(collectTexts);
  const style = await page.addStyleTag({content: kHideTexts});
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const png = (await page.screenshot({clip, animations: 'disabled', caret: 'hide'})).toString('base64');
  await style.evaluate((node) => node.remove());
  return page.evaluate(measure, {texts, png, minimum: kMinimum});
}

async function checkContrast(h, game) {
  const page = await playComputer(h, game, kDesktop);
  await (await gameModule(game)).showTurnTexts(page);
  const failed = [];
  let measured = 0;
  for (const scheme of kSchemes) {
    const results = await boardContrast(page, scheme);
    measured += results.length;
    await h.screenshot(page, `contrast-${game}-${scheme}`);
    for (const r of results) {
      if (r.failed) failed.push(`${scheme}: ${r.label} ${r.why || `${r.fg} on ${r.bg} ${r.ratio}:1`}`);
    }
    if (process.env.CINQ_CONTRAST_VERBOSE) {
      for (const r of results) console.log(`  ${game} ${scheme}: ${r.label} ${r.fg} on ${r.bg} ${r.ratio}:1`);
    }
  }
  assert(measured >= 2 * 4, `${game}: texts were measured (${measured})`);
  assert(failed.length === 0, `${game}: text below ${kMinimum}:1:\n  ${failed.join('\n  ')}`);
}

// Each game of the server's table; what puts its texts on screen is its test module's (games/NAME.mjs).
export const tests = Object.fromEntries(gameNames().map(
    (game) =>
        [`${game}: every text on the board has 4.5:1 contrast, light and dark`,
         (h) => checkContrast(h, game)]));
