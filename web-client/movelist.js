// The move list: the turns of a game numbered as its record numbers them (docs/notation.md: line N holds the
// N-th turn of each side, numbers restart with each Batik game or Bi-litaire round), each one a button that
// shows the position after it, with the |< < k / n > >| controls and the arrow keys. The room page feeds it
// the record (at a join, after each fetch) and the live `play`/`takeback` events between fetches; the
// import page feeds it a whole record. Which position stands for which turn is the caller's business: the
// list only says "show index k", k turns played (0: the start; the last index: the game as it stands).
// The turns show in notation or in words (a switch kept in the browser), with a legend of the notation's
// symbols; both come from the game's board module (`actionWords(text)`, `notationLegend`).

import {t} from './i18n.js';
import {el, side_name} from './ui.js';

// Whether the turns are written in words, as last chosen in this browser.
const kWordsKey = 'cinq.movesInWords';
function words_chosen() {
  try {
    return localStorage.getItem(kWordsKey) === 'true';
  } catch {
    return false;
  }
}

// A turn in words with the game's `actionWords`: 'Blue: kicks to h3; runs f5 → f4'.
export function turn_in_words(game, turn, action_words) {
  const side = side_name(game, turn.side) || turn.side;
  const actions = (turn.items || []).map((item) => (action_words ? action_words(item) : item));
  return t('moves.in_words', {side, actions: actions.length ? actions.join(t('moves.words_sep')) : t('moves.ends_turn')});
}

// A record's turns in order: [{index, number, section, side, items, text}]. `index` counts from 1 over the
// whole record (the position after turn `index` is step `index` of a replay), `number` is the record's
// line number, `section` the Batik game or Bi-litaire round (1 before any `#-` line). Only what writers
// write is read (the canonical form): one numbered line per pair of turns, `#-` lines between rounds.
export function record_turns(text) {
  const turns = [];
  let section = 1;
  for (const raw of String(text || '').split('\n')) {
    const line = raw.trim();
    const round = /^#-\s*(\d+)/.exec(line);
    if (round) {
      section = Number(round[1]);
      continue;
    }
    const numbered = /^(\d+)\s+(.*)$/.exec(line);
    if (!numbered) continue;
    // A turn is its side's letter, '/', then each action closed by '/'; no space touches a '/' inside it,
    // so a run of spaces after a '/' ends the turn.
    for (const match of numbered[2].matchAll(/([A-Z])\/((?:[^/\s](?:[^/]*[^/\s])?\/)*)/g)) {
      const items = match[2] ? match[2].slice(0, -1).split('/') : [];
      turns.push({
        index: turns.length + 1,
        number: Number(numbered[1]),
        section,
        side: match[1],
        items,
        text: match[0],
      });
    }
  }
  return turns;
}

// The seat that plays side `letter` in `section`: the letters of `sides` are the seats' (seat 0 plays
// sides[0]), except in Bi-litaire, whose players swap the marble and the tray in round 2.
export function seat_of_side(game, sides, letter, section) {
  const index = (sides || []).indexOf(letter);
  if (index < 0) return null;
  return game === 'bi-litaire' && section % 2 === 0 ? 1 - index : index;
}

// What a section is called in the list's headings.
function section_title(game, section) {
  return t(game === 'batik' ? 'moves.section_game' : 'moves.section_round', {n: section});
}

// Media-control glyphs as inline SVG: emoji fonts are not everywhere (headless Linux has none).
const kIcons = {
  start: 'M6 5h2v14H6zM20 5v14L9 12z',
  prev: 'M17 5v14L6 12z',
  next: 'M7 5v14l11-7z',
  end: 'M16 5h2v14h-2zM4 5v14l11-7z',
};

function icon(name) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '18');
  svg.setAttribute('height', '18');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('fill', 'currentColor');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', kIcons[name]);
  svg.append(path);
  return svg;
}

// A turn as the list writes it: "6. A/e2 c2/" (the number only before the line's first turn).
export function turn_label(turn) { return turn ? `${turn.number}. ${turn.text}` : t('moves.start_position'); }

export class MoveList {
  // on_view(index, turn): show the position after `index` turns (`turn` the one that led there, null for
  // the start); index === null: back to the game as it stands. `live`: the last index is a game under way
  // (the room), not the last step of a replay (the import page).
  constructor({game = '', on_view, live = true}) {
    this.game_ = game;
    this.on_view_ = on_view;
    this.live_ = live;
    this.turns_ = [];
    this.viewing_ = null;  // null: the game as it stands (the last index)
    const button = (id, label, glyph, fn) => el(
        'button', {id, type: 'button', class: 'replay-btn', 'aria-label': label, title: label, onclick: fn},
        icon(glyph));
    this.step_label_ = el('span', {id: 'replay-step', class: 'replay-step', 'aria-live': 'polite'}, '0 / 0');
    this.buttons_ = {
      start: button('replay-start', t('moves.first'), 'start', () => this.go(0)),
      prev: button('replay-prev', t('moves.prev'), 'prev', () => this.go(this.index - 1)),
      next: button('replay-next', t('moves.next'), 'next', () => this.go(this.index + 1)),
      end: button(
          'replay-end', t(live ? 'moves.end_live' : 'moves.end_replay'), 'end',
          () => this.go(this.count)),
    };
    this.caption_ = el('div', {id: 'replay-caption', class: 'replay-caption muted'});
    this.list_ = el('ol', {id: 'movelist-lines', class: 'movelist-lines', 'aria-label': t('moves.turns')});
    this.empty_ = el('p', {class: 'movelist-empty muted'}, t('moves.none'));
    // Notation or words, and what the notation's symbols mean.
    this.in_words_ = words_chosen();
    this.words_ = null;  // the board module's {actionWords, notationLegend} for this game, once loaded
    this.words_game_ = null;
    this.toggle_ = el('button', {
      id: 'movelist-words', type: 'button', class: 'movelist-toggle', 'aria-pressed': String(this.in_words_),
      onclick: () => {
        this.in_words_ = !this.in_words_;
        this.toggle_.setAttribute('aria-pressed', String(this.in_words_));
        try {
          localStorage.setItem(kWordsKey, String(this.in_words_));
        } catch {
          // Nothing kept.
        }
        this.draw_();
      },
    }, t('moves.in_words_switch'));
    this.legend_list_ = el('dl', {class: 'movelist-legend-list'});
    this.legend_ = el('details', {id: 'movelist-legend', class: 'movelist-legend', hidden: true},
                      el('summary', {}, t('moves.legend')), this.legend_list_);
    this.node =
        el('section', {id: 'movelist', class: 'movelist', 'aria-label': t('moves.label')},
           el('div', {class: 'replay movelist-nav', role: 'group', 'aria-label': t('moves.nav')},
              el('div', {class: 'replay-buttons'}, this.buttons_.start, this.buttons_.prev, this.step_label_,
                 this.buttons_.next, this.buttons_.end),
              this.caption_),
           el('div', {class: 'movelist-tools'}, this.toggle_, this.legend_), this.empty_, this.list_);
    this.on_key_ = (e) => {
      if (!this.node.isConnected || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      // Keys typed into a field, or meant for the board (its own keyboard play), are not ours.
      if (e.target.closest && e.target.closest('input, textarea, select, #board, [contenteditable]')) return;
      const keys = {
        ArrowLeft: () => this.go(this.index - 1),
        ArrowRight: () => this.go(this.index + 1),
        Home: () => this.go(0),
        End: () => this.go(this.count),
        Escape: () => this.go(this.count),
      };
      // Escape and End mean "back to the game": nothing to do (nor a page to keep from scrolling) when there.
      const back = e.key === 'Escape' || e.key === 'End';
      if (!keys[e.key] || (back && this.viewing_ === null)) return;
      e.preventDefault();
      keys[e.key]();
    };
    document.addEventListener('keydown', this.on_key_);
    this.draw_();
    this.load_words_();
  }

  // The game's words and legend, from its board module (nothing changes when it cannot be loaded).
  async load_words_() {
    const game = this.game_;
    if (!game || game === this.words_game_) return;
    this.words_game_ = game;
    let module = {};
    try {
      module = await import(`./boards/${game}.js`);
    } catch {
      module = {};
    }
    if (game !== this.game_) return;
    this.words_ = {actionWords: module.actionWords || null, notationLegend: module.notationLegend || []};
    this.legend_list_.replaceChildren(...this.words_.notationLegend.map(
        ([symbol, meaning]) => el('div', {class: 'legend-entry'}, el('dt', {}, el('code', {}, symbol)), el('dd', {}, meaning))));
    this.legend_.hidden = !this.words_.notationLegend.length;
    this.draw_();
  }

  // An analysis's marks by turn (index - 1: 'mistake', 'blunder' or null), shown beside those turns.
  set_marks(marks) {
    this.marks_ = marks || [];
    this.draw_();
  }

  get turns() { return this.turns_; }
  set game(game) {
    this.game_ = game || '';
    this.load_words_();
  }
  // Whether the last index is a game under way (its end button then says "back to the game"), or the end
  // of a finished one: after the game the list is its replay.
  set live(live) {
    if (this.live_ === Boolean(live)) return;
    this.live_ = Boolean(live);
    const label = t(this.live_ ? 'moves.end_live' : 'moves.end_replay');
    this.buttons_.end.setAttribute('aria-label', label);
    this.buttons_.end.title = label;
    this.draw_();
  }
  get count() { return this.turns_.length; }
  // The index shown: the one looked at, or the last.
  get index() { return this.viewing_ === null ? this.count : this.viewing_; }
  // null while the game as it stands is shown.
  get viewing() { return this.viewing_; }
  get last_turn() { return this.turns_.length ? this.turns_[this.turns_.length - 1] : null; }

  // The turns as the record has them (record_turns). A look at an earlier position stays on it while the
  // turns it shows are unchanged (a takeback that removed it goes back to the game).
  set_turns(turns) {
    const same = (a, b) => a && b && a.text === b.text && a.number === b.number && a.section === b.section;
    const kept = this.viewing_ !== null && this.viewing_ <= turns.length &&
        this.turns_.slice(0, this.viewing_).every((t, i) => same(t, turns[i]));
    this.turns_ = turns;
    const dropped = this.viewing_ !== null && !kept;
    if (dropped) this.viewing_ = null;
    this.draw_();
    if (this.viewing_ === null) this.scroll_to_end_();
    if (dropped) this.on_view_(null, this.last_turn);
  }

  // A `play` event, before the record that holds it is fetched: its actions start a new turn or, in a
  // turn sent action by action, go on the turn under way. `seat`: who played; `new_turn`: whether the
  // position before the event was between turns; `section`: the round the turn is played in.
  add_play({seat, actions, new_turn, section, sides}) {
    const last = this.last_turn;
    if (!new_turn && last) {
      last.items = [...last.items, ...actions];
      last.text = `${last.side}/${last.items.map((a) => `${a}/`).join('')}`;
    } else {
      const in_section = this.turns_.filter((t) => t.section === section).length;
      const letter_index = this.game_ === 'bi-litaire' && section % 2 === 0 ? 1 - seat : seat;
      const side = (sides || [])[letter_index] || '?';
      this.turns_.push({
        index: this.count + 1,
        number: Math.floor(in_section / 2) + 1,
        section,
        seat,
        side,
        items: [...actions],
        text: `${side}/${actions.map((a) => `${a}/`).join('')}`,
      });
    }
    this.draw_();
    if (this.viewing_ === null) this.scroll_to_end_();
  }

  // A `takeback` event: the last turn is gone.
  remove_last() {
    this.turns_.pop();
    const dropped = this.viewing_ !== null && this.viewing_ >= this.count;
    if (dropped) this.viewing_ = null;
    this.draw_();
    if (dropped) this.on_view_(null, this.last_turn);
  }

  // Shows index `index` (clamped): the last one is the game as it stands. Nothing is redrawn when that is
  // already shown, unless `force` (a first drawing).
  go(index, force = false) {
    const target = Math.max(0, Math.min(this.count, Number.isFinite(index) ? index : this.count));
    const viewing = target === this.count ? null : target;
    if (viewing === this.viewing_ && !force) return;
    this.viewing_ = viewing;
    this.draw_();
    const turn = target === 0 ? null : this.turns_[target - 1];
    this.on_view_(viewing, turn);
    const current = this.list_.querySelector('.ml-viewing');
    if (current) current.scrollIntoView({block: 'nearest'});
  }

  destroy() {
    document.removeEventListener('keydown', this.on_key_);
    this.node.remove();
  }

  draw_() {
    const index = this.index;
    const count = this.count;
    this.step_label_.textContent = `${index} / ${count}`;
    this.buttons_.start.disabled = index === 0;
    this.buttons_.prev.disabled = index === 0;
    this.buttons_.next.disabled = index === count;
    this.buttons_.end.disabled = index === count;
    const shown = index === 0 ? null : this.turns_[index - 1];
    this.caption_.textContent = this.viewing_ !== null || !this.live_ ? turn_label(shown) : '';
    this.node.dataset.viewing = this.viewing_ === null ? '' : String(this.viewing_);
    this.node.dataset.words = String(this.in_words_);
    this.empty_.hidden = count > 0;

    const sections = new Set(this.turns_.map((t) => t.section));
    const items = [];
    let line = null;
    let section = null;
    for (const turn of this.turns_) {
      if (turn.section !== section) {
        section = turn.section;
        line = null;
        if (sections.size > 1 || section > 1) {
          items.push(
              el('li', {class: 'ml-section', 'data-section': String(section)},
                 section_title(this.game_, section)));
        }
      }
      if (!line || line.number !== turn.number || line.cells >= 2) {
        line = {
          number: turn.number,
          cells: 0,
          node:
              el('li', {class: 'ml-line', 'data-number': String(turn.number)},
                 el('span', {class: 'ml-number'}, `${turn.number}.`)),
        };
        items.push(line.node);
      }
      line.cells += 1;
      const last = turn.index === count;
      const viewing = this.viewing_ !== null && turn.index === this.viewing_;
      const classes = ['ml-turn'];
      if (last) classes.push('ml-last');
      if (viewing) classes.push('ml-viewing');
      const mark = (this.marks_ || [])[turn.index - 1];
      if (mark) classes.push(`ml-${mark}`);
      const cell =
          el('button', {
            type: 'button',
            class: classes.join(' '),
            'data-index': String(turn.index),
            'data-side': turn.side,
            'aria-current': viewing ? 'step' : (last && this.viewing_ === null ? 'true' : false),
            title: last ? t('moves.last_move') : t('moves.show_after', {turn: `${turn.number}. ${turn.side}`}),
            onclick: () => this.go(turn.index),
          },
             this.in_words_ ? turn_in_words(this.game_, turn, this.words_ && this.words_.actionWords) : turn.text);
      if (mark) {
        cell.append(el('span', {class: 'ml-mark', title: t(`analysis.mark.${mark}`)}, mark === 'blunder' ? '??' : '?'));
      }
      line.node.append(cell);
    }
    this.list_.replaceChildren(...items);
  }

  scroll_to_end_() { this.list_.scrollTop = this.list_.scrollHeight; }
}
