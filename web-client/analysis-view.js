// The analysis of a finished game (docs/protocol.md, "Analysis"): the button that asks the server for it
// (`analyze`), its progress, the evaluation graph drawn under the move list (inline SVG, no library: the
// first side's win chance turn by turn, mistakes and blunders marked, a click shows that turn), and for the
// turn the move list shows, the mover's win chance and the best turn found, which can be shown on the board.
// An analysis is computed once by the server and kept with the game: the room reads it back when it opens.
// The client names no depth: the server's (`cinq serve --analysis-depth`, 3 by default) is used.

import {error_text} from './errors.js';
import {t} from './i18n.js';
import {el} from './ui.js';
import {best_turn_record, graph_points, header_line} from './analysis-graph.js';

const kSvg = 'http://www.w3.org/2000/svg';

function percent(chance) { return `${Math.round(Math.max(0, Math.min(1, chance)) * 100)}%`; }

export class AnalysisPanel {
  // conn: the page's connection; room_id; on_select(index): show the position after `index` turns;
  // on_best(index, record): show `record` (best_turn_record) on the board, its last turn the best one.
  constructor({conn, room_id, on_select, on_best}) {
    this.conn_ = conn;
    this.room_ = room_id;
    this.on_select_ = on_select;
    this.on_best_ = on_best;
    this.analysis_ = null;
    this.pending_ = null;  // the ref of the `analyze` sent
    this.index_ = null;    // the turn shown (from 1), null: none
    this.button_ = el('button', {id: 'analyze', type: 'button', onclick: () => this.ask()}, t('analysis.ask'));
    this.status_ = el('p', {id: 'analysis-status', class: 'analysis-status muted', 'aria-live': 'polite'});
    this.graph_ = el('div', {id: 'analysis-graph', class: 'analysis-graph', hidden: true});
    this.best_button_ = el('button', {id: 'analysis-show-best', type: 'button', hidden: true,
                                      onclick: () => this.show_best_()}, t('analysis.show_best'));
    this.turn_ = el('p', {id: 'analysis-turn', class: 'analysis-turn', 'aria-live': 'polite'});
    this.node = el('section', {id: 'analysis', class: 'analysis', 'aria-label': t('analysis.label'), hidden: true},
                   el('div', {class: 'analysis-head'}, el('h2', {}, t('analysis.title')), this.button_),
                   this.status_, this.graph_, el('div', {class: 'analysis-turn-line'}, this.turn_, this.best_button_),
                   el('p', {class: 'analysis-legend muted'}, t('analysis.legend')));
    this.off_ = conn.on('analysis', (m) => this.on_message_(m));
    this.off_error_ = conn.on('error', (m) => {
      if (m.ref && m.ref === this.pending_) {
        this.pending_ = null;
        this.button_.disabled = false;
        this.status_.textContent = error_text(m.code, m.message);
      }
    });
    this.record_ = '';
    this.turns_ = [];
  }

  // A finished game shows the panel and reads a stored analysis back; an unfinished one hides it.
  update({finished, record, turns}) {
    this.record_ = record || '';
    this.turns_ = turns || [];
    const was = !this.node.hidden;
    this.node.hidden = !finished;
    if (finished && !was && !this.analysis_) this.load_();
  }

  // `ask`: ask for it when it is not stored (the import page's "Analyse the game").
  async load_() {
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(this.room_)}/analysis`);
      if (response.status === 200) {  // 204: not analysed yet
        this.set_analysis_(await response.json());
        return;
      }
    } catch {
      // Not analysed yet, or unreachable: the button stays.
    }
    if (this.ask_at_once && !this.analysis_ && this.pending_ === null) this.ask();
  }

  ask() {
    this.pending_ = this.conn_.send({type: 'analyze', room: this.room_});
    if (this.pending_ === null) {
      this.status_.textContent = t('shell.not_connected');
      return;
    }
    this.button_.disabled = true;
    this.status_.textContent = t('analysis.queued');
  }

  on_message_(m) {
    if (m.room !== this.room_) return;
    if (m.status === 'queued') this.status_.textContent = t('analysis.queued');
    if (m.status === 'running')
      this.status_.textContent = t('analysis.running', {done: String(m.done), total: String(m.total)});
    if (m.status === 'done' && m.analysis) {
      this.pending_ = null;
      this.set_analysis_(m.analysis);
    }
  }

  set_analysis_(analysis) {
    if (!analysis || !Array.isArray(analysis.turns)) return;
    this.analysis_ = analysis;
    this.button_.hidden = true;
    const marks = analysis.turns.filter((x) => x.mark);
    this.status_.textContent = t('analysis.summary', {
      mistakes: String(marks.filter((x) => x.mark === 'mistake').length),
      blunders: String(marks.filter((x) => x.mark === 'blunder').length),
    });
    this.node.dataset.analysed = 'true';
    this.draw_graph_();
    if (this.on_marks) this.on_marks(analysis.turns.map((x) => x.mark || null));
    this.show_turn(this.index_);
  }

  get analysis() { return this.analysis_; }

  // The move list shows the position after `index` turns (null: the last).
  show_turn(index) {
    this.index_ = index;
    const turns = this.analysis_ ? this.analysis_.turns : [];
    const k = index === null ? turns.length : index;
    const turn = k >= 1 ? turns[k - 1] : null;
    for (const dot of this.graph_.querySelectorAll('[data-index]'))
      dot.classList.toggle('analysis-current', Number(dot.dataset.index) === k);
    this.best_button_.hidden = !(turn && turn.best);
    if (!turn) {
      this.turn_.textContent = '';
      return;
    }
    const words = {
      turn: `${turn.number}. ${turn.played}`,
      chance: percent(turn.eval),
      after: percent(turn.after),
    };
    let text = t('analysis.turn', words);
    if (turn.mark) text += ` ${t(`analysis.mark.${turn.mark}`)}`;
    if (turn.best) text += ` ${t('analysis.best', {best: turn.best, chance: percent(turn.best_after ?? turn.after)})}`;
    this.turn_.textContent = text;
    this.turn_.dataset.mark = turn.mark || '';
  }

  show_best_() {
    const turns = this.analysis_ ? this.analysis_.turns : [];
    const k = this.index_ === null ? turns.length : this.index_;
    const turn = turns[k - 1];
    if (!turn || !turn.best) return;
    this.on_best_(k, best_turn_record(header_line(this.record_), this.turns_, k, turn.best), turn.best);
  }

  draw_graph_() {
    const width = 300;
    const height = 80;
    const points = graph_points(this.analysis_.turns, width, height);
    this.graph_.hidden = points.length === 0;
    const svg = document.createElementNS(kSvg, 'svg');
    svg.setAttribute('viewBox', `-4 -4 ${width + 8} ${height + 8}`);
    svg.setAttribute('class', 'analysis-svg');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', t('analysis.graph'));
    const add = (name, attributes) => {
      const node = document.createElementNS(kSvg, name);
      for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
      svg.append(node);
      return node;
    };
    add('rect', {x: 0, y: 0, width, height, class: 'analysis-bg'});
    add('line', {x1: 0, y1: height / 2, x2: width, y2: height / 2, class: 'analysis-mid'});
    const path = points.map((p, i) => `${i ? 'L' : 'M'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    add('path', {d: `${path} L${width},${height} L0,${height} Z`, class: 'analysis-area'});
    add('path', {d: path, class: 'analysis-line'});
    for (const p of points) {
      if (p.index === 0) continue;
      const dot = add('circle', {
        cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: p.mark ? 4 : 2.5,
        class: `analysis-dot${p.mark ? ` analysis-${p.mark}` : ''}`, 'data-index': p.index,
      });
      const title = document.createElementNS(kSvg, 'title');
      const turn = this.analysis_.turns[p.index - 1];
      title.textContent = `${turn.number}. ${turn.played}${p.mark ? ` — ${t(`analysis.mark.${p.mark}`)}` : ''}`;
      dot.append(title);
      dot.addEventListener('click', () => this.on_select_(p.index));
    }
    this.graph_.replaceChildren(svg);
  }

  destroy() {
    this.off_();
    this.off_error_();
    this.node.remove();
  }
}
