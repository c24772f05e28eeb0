// A game's options as menus, wherever they are chosen (the lobby's forms): a <select> per option among
// words, a number field for an integer option (with a box for "not set" where the option may be unset),
// each with its default chosen and said, and one line on what it does. The specs are the server's game
// table (`options`: key, default, choices or min/max/none); the words are the game's board module's
// (`optionWords` in web-client/boards/GAME.js). What the menus hold is written as the server reads options:
// `key=value` pairs, only those that differ from the defaults, in the table's order ('' for the defaults).

import {t} from './i18n.js';
import {el, kGames} from './ui.js';

// The canonical text of `values` ({key: text}) for the option specs `specs`: 'king=unarmed throne=plain'.
export function options_text(specs, values) {
  return (specs || [])
      .filter((spec) => values[spec.key] !== undefined && String(values[spec.key]) !== String(spec.default))
      .map((spec) => `${spec.key}=${values[spec.key]}`)
      .join(' ');
}

// The game's words for its options, from its board module ({} when it has none or cannot be loaded): read when
// the menus are drawn, so that they are in the reader's language.
const words_cache = new Map();
export function option_words(game) {
  if (!words_cache.has(game)) {
    words_cache.set(game, import(`./boards/${game}.js`).then((module) => module.optionWords || {}).catch(() => ({})));
  }
  return words_cache.get(game);
}

// A block of menus under a form, following the game chosen in `game_select`. `prefix` names the controls
// (`PREFIX-opt-KEY`); `text()` is what to send.
export class OptionsMenu {
  constructor(prefix, game_select) {
    this.prefix_ = prefix;
    this.game_select_ = game_select;
    this.specs_ = [];
    this.read_ = [];  // [() => [key, value]] of the menus shown
    this.generation_ = 0;
    this.node = el('fieldset', {class: 'options-menu', id: `${prefix}-options`});
    game_select.addEventListener('change', () => this.show());
    this.show();
  }

  text() {
    const values = {};
    for (const read of this.read_) {
      const [key, value] = read();
      values[key] = value;
    }
    return options_text(this.specs_, values);
  }

  async show() {
    const generation = ++this.generation_;
    const game = this.game_select_.value;
    const entry = kGames.find((g) => g.name === game);
    const specs = (entry && entry.options) || [];
    const words = specs.length ? await option_words(game) : {};
    if (generation !== this.generation_) return;
    this.specs_ = specs;
    this.read_ = [];
    const legend = el('legend', {}, t('options.legend'));
    if (!specs.length) {
      this.node.replaceChildren(legend, el('p', {class: 'options-none muted'}, t('options.none')));
      return;
    }
    this.node.replaceChildren(legend, ...specs.map((spec) => this.menu_(spec, words[spec.key] || {})));
  }

  // One option: its label, its control, and a line on what it does with its default.
  menu_(spec, words) {
    const id = `${this.prefix_}-opt-${spec.key}`;
    const about_id = `${id}-about`;
    const name = (value) => (words.choices && words.choices[value]) || String(value);
    const fallback = String(spec.default);
    let control;
    let extra = null;
    if (Array.isArray(spec.choices)) {
      control = el('select', {id, name: id, 'data-option': spec.key, 'aria-describedby': about_id},
                   spec.choices.map((choice) => el('option', {value: choice}, choice === spec.default ?
                       t('options.choice_default', {choice: name(choice)}) : name(choice))));
      control.value = fallback;
      this.read_.push(() => [spec.key, control.value]);
    } else {
      // An integer, from min to max; an option that may be unset has a box for its "none" word.
      const unset = spec.none !== undefined && spec.none !== null;
      control = el('input', {
        id, name: id, type: 'number', inputmode: 'numeric', step: '1', 'data-option': spec.key,
        'aria-describedby': about_id,
        min: spec.min !== undefined ? String(spec.min) : null, max: spec.max !== undefined ? String(spec.max) : null,
      });
      let none_box = null;
      if (unset) {
        none_box = el('input', {id: `${id}-none`, type: 'checkbox', 'data-option-none': spec.key});
        none_box.checked = fallback === String(spec.none);
        control.disabled = none_box.checked;
        control.value = none_box.checked ? '' : fallback;
        control.placeholder = spec.min !== undefined ? String(spec.min) : '';
        none_box.addEventListener('change', () => {
          control.disabled = none_box.checked;
          if (!none_box.checked && !control.value) control.value = spec.min !== undefined ? String(spec.min) : '1';
        });
        extra = el('div', {class: 'check'}, none_box, el('label', {for: none_box.id}, name(spec.none)));
      } else {
        control.value = fallback;
      }
      this.read_.push(() => {
        if (none_box && none_box.checked) return [spec.key, spec.none];
        const n = Math.round(Number(control.value));
        if (!control.value.trim() || !Number.isFinite(n)) return [spec.key, spec.default];
        const low = spec.min !== undefined ? spec.min : n;
        const high = spec.max !== undefined ? spec.max : n;
        return [spec.key, String(Math.min(high, Math.max(low, n)))];
      });
    }
    const label = words.label || spec.key;
    const label_text = Array.isArray(spec.choices) ? label :
        spec.max !== undefined ? t('options.label_range', {label, min: String(spec.min), max: String(spec.max)}) :
        spec.min !== undefined ? t('options.label_min', {label, min: String(spec.min)}) : label;
    const about = words.about ? t('options.about', {about: words.about, value: name(spec.default)}) :
                                t('options.about_bare', {value: name(spec.default)});
    return el('div', {class: 'field option-field', 'data-option-field': spec.key},
              el('label', {for: id}, label_text), control, extra,
              el('small', {id: about_id, class: 'option-about muted'}, about));
  }
}
