// Replays through the server (POST /api/replay): the positions the room's move list and the import page
// show. Step k is the position after k turns; step 0 is the start. The controls that step through them are
// the move list's (movelist.js).

import {rules_reason_text} from './errors.js';
import {t} from './i18n.js';

// Returns {data} (the replay) or {error: {line, code, status, reason, message, reason_code, params, game}}:
// `code` the server's (or 'unreachable'), `reason` the server's own words (English, for an unknown
// reason_code), `message` the whole in the reader's language ("line N" said in it), `reason_code` and
// `params` the rules' reason (errors.js says it), `game` the game the record's #! line names.
export async function fetch_replay(record) {
  let response;
  try {
    response = await fetch('/api/replay', {
      method: 'POST',
      headers: {'Content-Type': 'text/plain; charset=utf-8'},
      body: record,
    });
  } catch {
    return {error: {line: null, code: 'unreachable', status: 0, reason: '', message: t('replay.unreachable')}};
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok && body && Array.isArray(body.steps)) return {data: body};
  const error = (body && body.error) || {};
  const reason = String(error.message || '').replace(/^line \d+:\s*/, '');
  const said = rules_reason_text(error, error.game || null) || reason;
  let message = said || t('replay.http_error', {status: String(response.status)});
  if (error.line && said) message = t('replay.line', {line: String(error.line), message: said});
  return {
    error: {
      line: error.line || null,
      code: error.code || null,
      status: response.status,
      reason,
      message,
      reason_code: error.reason_code || null,
      params: error.params || {},
      game: error.game || null,
    }
  };
}

// What a board receives for step `index` of a replay: a POSITION with nothing to play, and the turn that led
// there as `last_turn` ({seat, actions}, as the room gives the live position's), so that a board marks that
// turn, whichever step it showed before (a step back marks the turn before, not the one undone).
export function replay_position(steps, index, sides) {
  const step = steps[index];
  const before = index > 0 ? steps[index - 1] : null;
  const seat = before && before.to_move !== null && before.to_move !== undefined ? before.to_move : null;
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
    last_turn: step.turn ? {seat, actions: [...(step.turn.items || [])]} : null,
    view: step.view,
  };
}

// The turn that led to a step, numbered as the record numbers it ("6. A/e2 c2/": the record's line 6).
export function describe_step(step) {
  if (!step || !step.turn) return t('replay.start');
  const turn = step.turn;
  const text = turn.text || `${turn.side}/${(turn.items || []).map((item) => `${item}/`).join('')}`;
  return `${turn.number}. ${text}`;
}

// The replays of a record as it grows (a game under way): one POST /api/replay per record text, the
// latest kept. get(record) resolves to {data} or {error}, as fetch_replay.
export class ReplayCache {
  constructor() {
    this.record_ = null;
    this.pending_ = null;
  }

  get(record) {
    if (this.record_ !== record || !this.pending_) {
      this.record_ = record;
      this.pending_ = fetch_replay(record).then((answer) => {
        if (answer.error && this.record_ === record) this.pending_ = null;  // try again next time
        return answer;
      });
    }
    return this.pending_;
  }
}

// A replay's turns as the move list holds them (movelist.js record_turns): the turn that led to step k is
// turn k, played in the round of the step before it.
export function replay_turns(steps) {
  return (steps || []).slice(1).map((step, i) => ({
    index: i + 1,
    number: step.turn.number,
    section: steps[i].round || 1,
    side: step.turn.side,
    items: [...(step.turn.items || [])],
    text: step.turn.text || `${step.turn.side}/${(step.turn.items || []).map((item) => `${item}/`).join('')}`,
  }));
}
