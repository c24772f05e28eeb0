// Replays through the server (POST /api/replay): the room page after the end and the import page share
// these controls. Step k is the position after k turns; step 0 is the start.

import {el} from './ui.js';

// Returns {data} (the replay) or {error: {line, message}}.
export async function fetch_replay(record) {
  let response;
  try {
    response = await fetch('/api/replay', {
      method: 'POST',
      headers: {'Content-Type': 'text/plain; charset=utf-8'},
      body: record,
    });
  } catch {
    return {error: {line: null, message: 'The server cannot be reached.'}};
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok && body && Array.isArray(body.steps)) return {data: body};
  const error = (body && body.error) || {};
  let message = error.message || `The server answered ${response.status}.`;
  if (error.line && !/^line \d+/.test(message)) message = `line ${error.line}: ${message}`;
  return {error: {line: error.line || null, message}};
}

// What a board receives for a replay step: a POSITION with nothing to play.
export function replay_position(step, sides) {
  return {
    status: 'finished',
    turn: step.turn ? step.turn.number : 0,
    round: step.round,
    to_move: step.to_move,
    side: step.to_move === null || step.to_move === undefined ? null : sides[step.to_move],
    mid_turn: false,
    legal: [],
    can_end_turn: false,
    clocks: null,
    draw_offer: null,
    result: null,
    view: step.view,
  };
}

// The caption under the controls: the turn that led to step `index`, as the record writes it.
export function describe_step(step, index) {
  if (!step || !step.turn) return 'Start position';
  const turn = step.turn;
  const text = turn.text || `${turn.side}/${(turn.items || []).join('/')}/`;
  return `Turn ${index}: ${text}`;
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

// The controls: |< < k / n > >|, plus the arrow keys while they are on the page.
export class ReplayControls {
  constructor(on_step) {
    this.on_step_ = on_step;
    this.count_ = 0;  // number of turns: steps run 0..count_
    this.index_ = 0;
    const button = (id, label, glyph, fn) => el(
        'button', {id, type: 'button', class: 'replay-btn', 'aria-label': label, title: label, onclick: fn},
        icon(glyph));
    this.step_label_ = el('span', {id: 'replay-step', class: 'replay-step', 'aria-live': 'polite'}, '0 / 0');
    this.caption_ = el('div', {class: 'replay-caption muted'});
    this.node =
        el('div', {class: 'replay', role: 'group', 'aria-label': 'Replay'},
           el('div', {class: 'replay-buttons'},
              button('replay-start', 'First position', 'start', () => this.go(0)),
              button('replay-prev', 'Previous turn', 'prev', () => this.go(this.index_ - 1)),
              this.step_label_, button('replay-next', 'Next turn', 'next', () => this.go(this.index_ + 1)),
              button('replay-end', 'Last position', 'end', () => this.go(this.count_))),
           this.caption_);
    this.on_key_ = (e) => {
      if (!this.node.isConnected || e.target.closest('input, textarea, select')) return;
      if (e.key === 'ArrowLeft') this.go(this.index_ - 1);
      if (e.key === 'ArrowRight') this.go(this.index_ + 1);
      if (e.key === 'Home') this.go(0);
      if (e.key === 'End') this.go(this.count_);
    };
    document.addEventListener('keydown', this.on_key_);
  }

  get index() { return this.index_; }

  set_steps(steps, index) {
    this.steps_ = steps;
    this.count_ = Math.max(0, steps.length - 1);
    this.go(index === undefined ? this.count_ : index);
  }

  go(index) {
    if (!this.steps_ || this.steps_.length === 0) return;
    this.index_ = Math.max(0, Math.min(this.count_, index));
    this.step_label_.textContent = `${this.index_} / ${this.count_}`;
    this.caption_.textContent = describe_step(this.steps_[this.index_], this.index_);
    this.node.querySelector('#replay-start').disabled = this.index_ === 0;
    this.node.querySelector('#replay-prev').disabled = this.index_ === 0;
    this.node.querySelector('#replay-next').disabled = this.index_ === this.count_;
    this.node.querySelector('#replay-end').disabled = this.index_ === this.count_;
    this.on_step_(this.index_, this.steps_[this.index_]);
  }

  destroy() {
    document.removeEventListener('keydown', this.on_key_);
    this.node.remove();
  }
}
