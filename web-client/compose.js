// What the boards share about playing a turn:
//
// - a turn composed, then confirmed: each action the player picks is *tried* on the server (`try`,
//   docs/protocol.md), which answers this page alone with the position after the actions so far and what may
//   follow; the board draws that position, Undo drops the last step, and Confirm sends the whole turn in one
//   `act`. Nothing reaches the opponent before the confirmation. Against a server without `try` the composer
//   falls back to sending each action at once, as the client did before;
// - a premove for the games with one action a turn: picked while the opponent is to move, shown as pending,
//   sent when the turn comes if it is legal then, else dropped with a word;
// - the compact turn bar above the board that holds the prompt and the buttons a turn needs, and the sizing
//   that keeps the bar and the board on screen together;
// - the last turn as the boards mark it.
//
// None of this knows a game's rules: legality always comes from the server (legal lists, `try` answers).

import {failure_text} from './errors.js';
import {t} from './i18n.js';
import {el, expand_legal, notify} from './ui.js';

// How long an answer to `try` or a confirmed turn may take before the page stops waiting for it (a lost
// connection never answers; the server's own refusal comes as an error much sooner).
const kAnswerMs = 10000;
const kSentMs = 6000;
// How long "End turn" with nothing played waits for its confirming second click (as Resign does).
const kPassConfirmMs = 5000;

// --- `try` over the page's connection (room.js puts it in the board's ctx)

// `try(actions)` resolves with the server's `tried` answer ({actions, position, legal, can_end_turn}) or
// rejects with an Error carrying the server's `code` (and the rules' reason_code and params, with `game()`,
// the room's game, to say them). `owns(message)` tells room.js which errors are answers
// to a try, which the composer reports itself.
export function make_try(conn, room_id, game = () => null) {
  const waiting = new Map();  // ref -> {resolve, reject, timer}
  const refs = new Set();
  const settle = (ref, fn) => {
    const entry = waiting.get(ref);
    if (!entry) return;
    waiting.delete(ref);
    clearTimeout(entry.timer);
    fn(entry);
  };
  // The rules' reason comes with an illegal action's refusal (reason_code, params); `game` says its sides.
  const failure = (code, message, m = {}) => Object.assign(
      new Error(message || code), {code, reason_code: m.reason_code, params: m.params, game: game()});
  const off = [
    conn.on('tried', (m) => settle(m.ref, (entry) => entry.resolve(m))),
    conn.on('error', (m) => settle(m.ref, (entry) => entry.reject(failure(m.code, m.message, m)))),
  ];
  return {
    try
      (actions) {
        return new Promise((resolve, reject) => {
          const ref = conn.send({type: 'try', room: room_id, actions});
          if (ref === null) {
            reject(failure('offline', t('shell.not_connected')));
            return;
          }
          refs.add(ref);
          const timer = setTimeout(() => settle(ref, (entry) => entry.reject(failure('timeout'))), kAnswerMs);
          waiting.set(ref, {resolve, reject, timer});
        });
      }
    , owns(message) { return Boolean(message) && refs.has(message.ref); }
    , dispose() {
      for (const fn of off) fn();
      for (const ref of [...waiting.keys()]) settle(ref, (entry) => entry.reject(failure('closed')));
    }
    ,
  };
}

// A refused or unanswered `try` in words: the server's refusal by its code, or that no answer came.
function try_failure_text(error) {
  if (error.code === 'timeout') return t('compose.no_answer');
  if (error.code === 'offline') return error.message;
  return failure_text(error, error.game);
}

// --- the turn bar

// A compact bar above the board: a prompt, then buttons ({label, control, onclick, primary, disabled,
// title}). Boards give it their prompt; the composer and the premove add their buttons.
export class TurnBar {
  constructor(extra_class = '') {
    this.prompt_ = el('span', {class: 'turn-bar-prompt', 'aria-live': 'polite'});
    this.steps_ = el('span', {class: 'turn-bar-steps'});
    this.tools_ = el('span', {class: 'turn-bar-tools'});
    this.buttons_ = el('span', {class: 'turn-bar-buttons'});
    this.node =
        el('div', {class: `turn-bar ${extra_class}`.trim(), role: 'group', 'aria-label': t('compose.bar_label')},
           el('span', {class: 'turn-bar-text'}, this.prompt_, this.steps_), this.tools_, this.buttons_);
  }

  // `tools`: nodes the board keeps in the bar (Batik's composer controls); set once.
  set_tools(nodes) { this.tools_.replaceChildren(...nodes); }

  set({prompt = '', steps = '', buttons = [], state = ''}) {
    if (this.prompt_.textContent !== prompt) this.prompt_.textContent = prompt;
    this.steps_.textContent = steps;
    this.steps_.hidden = !steps;
    this.node.dataset.state = state;
    this.buttons_.replaceChildren(...buttons.map(
        (b) =>
            el('button', {
              type: 'button',
              class: `turn-bar-button${b.primary ? ' primary' : ''}${b.danger ? ' danger' : ''}`,
              'data-control': b.control || null,
              'data-action': b.action || null,
              'data-legal': b.action && !b.disabled ? 'true' : null,
              title: b.title || null,
              'aria-label': b.aria || null,
              disabled: Boolean(b.disabled),
              onclick: (e) => {
                e.stopPropagation();
                b.onclick();
              },
            },
               b.label)));
    // A tool the board hides (Batik's composer while nothing is composed) says nothing either.
    const tools = [...this.tools_.children].some((node) => !node.hidden);
    this.node.classList.toggle('turn-bar-empty', !prompt && !steps && !buttons.length && !tools);
  }
}

// --- composing a turn

// The composer between the room and a board. The board hands every update to `update()` and draws
// `position`/`info` (the tried position while composing); a click that makes an action calls `add(text)`.
// `on_change()` is called whenever what to draw changed (an answer came, a step was undone).
export class Composer {
  constructor(ctx, {on_change, confirm_label = t('compose.confirm_turn')} = {}) {
    this.ctx_ = ctx;
    this.on_change_ = on_change || (() => {});
    this.confirm_label_ = confirm_label;
    this.direct_ = typeof ctx.try !== 'function';
    this.base_ = null;
    this.info_ = {mySeat: null, canAct: false, event: null, replay: false};
    this.key_ = '';
    this.steps_ = [];    // the texts the player picked, in order
    this.tried_ = null;  // the server's answer for steps_
    this.busy_ = false;
    this.sent_ = false;
    this.generation_ = 0;
    this.sent_timer_ = 0;
    this.pass_timer_ = null;  // a first click on End turn with nothing played, waiting for the second
  }

  // The room's position and info. A new turn (or a new seat, a replay) starts a new composition; updates
  // that leave the turn as it was (presence, clocks, a draw offer) keep the steps.
  update(position, info) {
    this.base_ = position;
    this.info_ = info || {mySeat: null, canAct: false, event: null, replay: false};
    const key = [
      position?.status, position?.turn, position?.round, position?.to_move, position?.mid_turn,
      this.info_.canAct, this.info_.mySeat, this.info_.replay
    ].join('|');
    if (key !== this.key_) {
      this.key_ = key;
      this.reset_();
    }
  }

  reset_() {
    this.generation_ += 1;
    this.steps_ = [];
    this.tried_ = null;
    this.busy_ = false;
    this.sent_ = false;
    clearTimeout(this.sent_timer_);
    this.disarm_pass_();
  }

  disarm_pass_() {
    clearTimeout(this.pass_timer_);
    this.pass_timer_ = null;
  }

  // Ending a turn with nothing played gives the whole turn away: the first click asks, the second ends it.
  pass_clicked_() {
    if (this.pass_timer_ !== null) {
      this.disarm_pass_();
      this.confirm();
      return;
    }
    this.pass_timer_ = setTimeout(() => {
      this.pass_timer_ = null;
      this.on_change_();
    }, kPassConfirmMs);
    this.on_change_();
  }

  get direct() { return this.direct_; }
  get steps() { return this.steps_; }
  get busy() { return this.busy_; }
  get sent() { return this.sent_; }
  get composing() { return this.steps_.length > 0; }
  // The texts as the server played them (Kopf oder Knopf adds its strike), for the bar.
  get played() { return this.tried_ ? this.tried_.actions || this.steps_ : this.steps_; }

  // What the board draws: the tried position while composing (with the legal actions that may follow).
  get position() {
    if (!this.tried_ || !this.base_) return this.base_;
    const tried = this.tried_.position || {};
    const to_move = tried.to_move;
    const sides = this.ctx_.sides || [];
    return {
      ...this.base_,
      ...tried,
      side: to_move === null || to_move === undefined ? null : sides[to_move] || null,
      legal: this.complete ? [] : expand_legal(this.tried_.legal || []),
      can_end_turn: Boolean(this.tried_.can_end_turn),
    };
  }

  // The info the board draws with: nothing to click while an answer is awaited, the turn is complete or
  // sent. `composing` says the position is a tried one (boards mark the composed steps, not the last turn).
  get info() {
    const can = Boolean(this.info_.canAct && !this.busy_ && !this.sent_ && !this.complete);
    return {
      ...this.info_,
      canAct: can,
      composing: this.composing,
      event: this.composing ? null : this.info_.event
    };
  }

  // The composed actions end the turn (or the game): only Confirm or Undo are left.
  get complete() {
    if (!this.tried_ || !this.steps_.length) return false;
    const p = this.tried_.position || {};
    return p.status !== 'live' || !p.mid_turn;
  }

  // The turn may be sent now: complete, or the rules allow ending it here.
  get can_confirm() {
    if (!this.info_.canAct || this.busy_ || this.sent_) return false;
    if (this.complete) return true;
    return Boolean(this.tried_ ? this.tried_.can_end_turn : this.base_?.can_end_turn);
  }

  add(text) {
    if (!this.info_.canAct || this.busy_ || this.sent_) return;
    this.disarm_pass_();
    if (this.direct_) {
      this.ctx_.act([text], false);
      return;
    }
    this.try_([...this.steps_, text]);
  }

  undo() {
    if (!this.steps_.length || this.sent_) return;
    if (this.steps_.length === 1) {
      this.generation_ += 1;
      this.steps_ = [];
      this.tried_ = null;
      this.busy_ = false;
      this.on_change_();
      return;
    }
    this.try_(this.steps_.slice(0, -1));
  }

  // Forgets the composition (Escape, a click off the board's targets with nothing composed keeps it).
  clear() {
    if (!this.steps_.length || this.sent_) return;
    this.reset_();
    this.on_change_();
  }

  confirm() {
    if (!this.can_confirm) return;
    const end = !this.complete;
    if (this.direct_) {
      if (end) this.ctx_.act([], true);
      return;
    }
    this.sent_ = true;
    this.ctx_.act([...this.steps_], end);
    this.on_change_();
    // The server's event replaces everything; if it refused the turn (its error is shown), let the player
    // try again or undo after a moment.
    const generation = this.generation_;
    clearTimeout(this.sent_timer_);
    this.sent_timer_ = setTimeout(() => {
      if (generation !== this.generation_ || !this.sent_) return;
      this.sent_ = false;
      this.on_change_();
    }, kSentMs);
  }

  try_(steps) {
    const generation = ++this.generation_;
    this.busy_ = true;
    this.on_change_();
    this.ctx_.try(steps).then(
        (answer) => {
          if (generation !== this.generation_) return;
          this.busy_ = false;
          this.steps_ = steps;
          this.tried_ = answer;
          this.on_change_();
        },
        (error) => {
          if (generation !== this.generation_) return;
          this.busy_ = false;
          if (error && (error.code === 'unknown_type' || error.code === 'bad_message') && !this.tried_ &&
              !this.steps_.length) {
            // A server without `try`: play each action at once, as before composing existed.
            this.direct_ = true;
            this.on_change_();
            if (steps.length === 1) this.ctx_.act(steps, false);
            return;
          }
          if (error && error.code !== 'closed') notify(try_failure_text(error));
          this.on_change_();
        });
  }

  // The bar's buttons for the composition: Undo and Confirm (or End turn when nothing was composed).
  buttons({confirm_label} = {}) {
    const out = [];
    if (!this.info_.canAct && !this.sent_) return out;
    if (this.steps_.length && !this.direct_) {
      out.push({
        label: t('compose.undo'),
        control: 'undo',
        title: t('compose.undo_title'),
        disabled: this.busy_ || this.sent_,
        onclick: () => this.undo(),
      });
    }
    // No Confirm before the turn may end (a Kopf oder Knopf penalty still needs its move): the prompt says
    // what is missing, and a disabled button would only look like a way to end the turn.
    const can_end = this.can_confirm;
    // Nothing composed at the start of a turn: End turn gives the whole turn away, so it asks once more (not
    // in a turn already begun, nor in the fallback, where the actions were played already).
    const pass = !this.steps_.length && !this.direct_ && !this.sent_ && !this.base_?.mid_turn;
    const armed = pass && this.pass_timer_ !== null;
    if (can_end || this.sent_) {
      const label = this.sent_ ? t('compose.sent') :
          armed                ? t('compose.pass_confirm') :
          confirm_label        ? confirm_label :
          this.steps_.length   ? this.confirm_label_ :
                                 t('compose.end_turn');
      out.push({
        label,
        control: 'confirm',
        primary: true,
        danger: armed,
        title: this.steps_.length ? t('compose.confirm_title') :
            armed                 ? t('compose.pass_confirm_title') :
                                    t('compose.pass_title'),
        disabled: !can_end,
        onclick: () => (pass ? this.pass_clicked_() : this.confirm()),
      });
    }
    return out;
  }

  // Keys for a board that composes: Enter confirms a complete turn, Backspace undoes, Escape clears.
  handle_key(e) {
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return false;
    if (e.key === 'Backspace' && this.steps_.length) {
      e.preventDefault();
      this.undo();
      return true;
    }
    if (e.key === 'Enter' && this.complete && this.can_confirm) {
      e.preventDefault();
      this.confirm();
      return true;
    }
    return false;
  }

  destroy() {
    this.generation_ += 1;
    clearTimeout(this.sent_timer_);
    this.disarm_pass_();
  }
}

// --- premoves

// One pending move picked while the opponent is to move. The board sets it with a label (for the bar) and
// `match(legal_texts)`, which returns the legal text that plays it, or null; `update()` sends it when the
// turn comes. Escape, or the bar's Cancel, drops it.
export class Premove {
  constructor(ctx, {on_change} = {}) {
    this.ctx_ = ctx;
    this.on_change_ = on_change || (() => {});
    this.pending_ = null;
    this.on_key_ = (e) => {
      if (e.key === 'Escape' && this.pending_) this.clear();
    };
    document.addEventListener('keydown', this.on_key_);
  }

  get pending() { return this.pending_; }

  // A premove may be picked by a seated player while the opponent is to move in a live game.
  static allowed(position, info) {
    return Boolean(
        position && info && !info.replay && !info.canAct && position.status === 'live' &&
        info.mySeat !== null && info.mySeat !== undefined && position.to_move !== info.mySeat);
  }

  set(pending) {
    this.pending_ = pending;
    this.on_change_();
  }

  clear() {
    if (!this.pending_) return;
    this.pending_ = null;
    this.on_change_();
  }

  // Called with every update before the board draws. Returns the text sent, if the premove was played.
  update(position, info) {
    const pending = this.pending_;
    if (!pending) return null;
    if (!position || position.status !== 'live' || !info || info.replay || info.mySeat === null) {
      this.pending_ = null;
      return null;
    }
    if (!info.canAct) return null;
    this.pending_ = null;
    const text = pending.match(position.legal || []);
    if (text) {
      this.ctx_.act([text], false);
      return text;
    }
    notify(t('compose.premove_dropped', {move: pending.label}), 'info');
    return null;
  }

  buttons() {
    if (!this.pending_) return [];
    return [{label: t('compose.premove_cancel'), control: 'cancel-premove', onclick: () => this.clear()}];
  }

  prompt() { return this.pending_ ? t('compose.premove_prompt', {move: this.pending_.label}) : ''; }

  destroy() { document.removeEventListener('keydown', this.on_key_); }
}

// --- the last turn

// The last complete turn, as the boards mark it: position.last_turn when the room gives it ({seat,
// actions}, kept across a reload), else the last `play` event this page saw; null when not known.
export function last_turn_of(position, info) {
  if (position && position.last_turn !== undefined) return position.last_turn || null;
  if (info && info.replay) return null;
  const ev = info && info.event;
  if (ev && ev.kind === 'play' && Array.isArray(ev.actions)) return {seat: ev.seat, actions: ev.actions};
  return null;
}

// --- keeping the bar and the board on screen together

// Sizes `figure` (the board's SVG, whose viewBox gives its shape) so that it and everything of the board
// root below its top fit the window's height: the board's root sits wherever the room page puts it, and its
// height is what is left under it. Never smaller than `min_px` wide (a tiny board is worse than a scroll).
// Returns a function that recomputes (boards call it after they redraw) and a dispose function.
export function fit_to_viewport(root, figure, {min_px = 240, reserve_px = 8} = {}) {
  let frame = 0;
  const fit = () => {
    frame = 0;
    const svg = typeof figure === 'function' ? figure() : figure;
    if (!svg || !svg.isConnected) return;
    const box = svg.viewBox && svg.viewBox.baseVal;
    if (!box || !box.width || !box.height) return;
    // The board's own top on the page (not on the screen: a scrolled page must not shrink it), and what the
    // root holds under the figure (a panel under the board).
    const top = svg.getBoundingClientRect().top + window.scrollY;
    const root_box = root.getBoundingClientRect();
    const below = Math.max(0, root_box.bottom - svg.getBoundingClientRect().bottom);
    const available = window.innerHeight - top - below - reserve_px;
    const width = Math.max(min_px, Math.floor(available * box.width / box.height));
    svg.style.maxWidth = `${width}px`;
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(fit);
  };
  window.addEventListener('resize', schedule);
  const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(schedule) : null;
  if (observer) observer.observe(root);
  schedule();
  return {
    refit: schedule,
    dispose() {
      window.removeEventListener('resize', schedule);
      if (observer) observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    },
  };
}
