// The room's chat (docs/protocol.md, *Chat*): the players' channel and the spectators' channel. The server
// decides who hears what: a seated player's message goes to the players' channel, which everyone in the room
// sees; a spectator's to the spectators' channel, which the players do not receive while the game is on. So a
// player sees one chat during the game, and a spectator (or anyone once the game is over) two, as tabs.
// A player may mute the opponent: their messages are hidden here (nothing is sent; the choice is kept per
// room in localStorage). Chat messages are not events: they have no version and are not in the record.

import {error_text} from './errors.js';
import {date_time, t} from './i18n.js';
import {el, notify} from './ui.js';

const kMaxLength = 300;
const kChannels = ['players', 'spectators'];
const kMutePrefix = 'cinq.chat.mute.';
// The server's own chat errors; any other error answering a chat message is shown here too (by its ref).
const kChatErrors = new Set(['bad_chat', 'chat_limit']);

function load_muted(room) {
  try {
    return localStorage.getItem(kMutePrefix + room) === '1';
  } catch {
    return false;
  }
}

function store_muted(room, muted) {
  try {
    if (muted) {
      localStorage.setItem(kMutePrefix + room, '1');
    } else {
      localStorage.removeItem(kMutePrefix + room);
    }
  } catch {
    // No storage: the switch holds for this page only.
  }
}

// Characters as the server counts them (code points, not UTF-16 units).
const length_of = (text) => Array.from(text).length;

export class RoomChat {
  constructor(conn, room_id) {
    this.conn_ = conn;
    this.room_ = room_id;
    this.messages_ = [];
    this.me_ = null;        // my seat, or null for a spectator
    this.finished_ = false;
    this.tab_ = null;       // the channel the viewer chose; null: their own
    this.unread_ = {players: 0, spectators: 0};
    this.pending_ = new Map();  // ref -> text of a message not yet confirmed (restored if refused)
    this.muted_ = load_muted(room_id);

    this.tabs_ = Object.fromEntries(kChannels.map((channel) => [
      channel, el('button', {
        type: 'button',
        role: 'tab',
        id: `chat-tab-${channel}`,
        class: 'chat-tab',
        'aria-controls': 'chat-log',
        'data-channel': channel,
        onclick: () => this.choose_(channel),
      })
    ]));
    this.tablist_ = el('div', {class: 'chat-tabs', role: 'tablist', 'aria-label': t('chat.tabs')},
                       kChannels.map((c) => this.tabs_[c]));
    this.title_ = el('h2', {class: 'chat-title'}, t('chat.title'));
    this.mute_ = el('input', {
      type: 'checkbox',
      id: 'chat-mute',
      checked: this.muted_,
      onchange: () => {
        this.muted_ = this.mute_.checked;
        store_muted(this.room_, this.muted_);
        this.draw_();
      },
    });
    this.mute_box_ =
        el('span', {class: 'check chat-mute'}, this.mute_, el('label', {for: 'chat-mute'}, t('chat.mute')));
    this.log_ = el('ul', {
      id: 'chat-log',
      class: 'chat-log',
      role: 'log',
      'aria-live': 'polite',
      'aria-label': t('chat.log'),
      tabindex: '0',
    });
    this.note_ = el('p', {class: 'chat-note muted'}, t('chat.players_only'));
    this.input_ = el('input', {
      type: 'text',
      id: 'chat-input',
      maxlength: String(kMaxLength),
      autocomplete: 'off',
      'aria-label': t('chat.message'),
      oninput: () => this.on_input_(),
    });
    this.count_ = el('span', {class: 'chat-count muted', 'aria-hidden': 'true'});
    this.form_ = el(
        'form', {id: 'chat-form', class: 'chat-form', onsubmit: (e) => this.on_submit_(e)}, this.input_,
        el('button', {type: 'submit', id: 'chat-send'}, t('chat.send')), this.count_);
    this.error_ = el('p', {id: 'chat-error', class: 'chat-error', role: 'alert', hidden: true});
    this.node = el(
        'section', {id: 'chat', class: 'chat', 'aria-label': t('chat.title'), 'data-channel': ''},
        el('div', {class: 'chat-head'}, this.title_, this.tablist_, this.mute_box_), this.log_, this.note_,
        this.form_, this.error_);

    const off_chat = conn.on('chat', (message) => {
      if (message.room === this.room_) this.add_(message);
    });
    // The players this one blocks (docs/protocol.md "Moderation"): the server sends none of their new lines;
    // those of the room's history are left out here.
    this.blocked_ = new Set();
    const off_blocks = conn.on('blocks', (message) => {
      this.blocked_ = new Set((message.players || []).map((p) => p.id));
      this.messages_ = this.messages_.filter((m) => !this.blocked_.has(m.player));
      this.draw_(true);
    });
    const off_ready = conn.on_ready(() => conn.send({type: 'blocks'}));
    this.unsubscribe_ = () => {
      off_chat();
      off_blocks();
      off_ready();
    };
    this.on_input_();
    this.draw_();
  }

  // The room's `state` (its `chat`: the last messages this connection may see) replaces what was shown.
  set_messages(list) {
    this.messages_ = (list || []).filter((m) => m && typeof m.text === 'string' && !this.blocked_.has(m.player));
    this.unread_ = {players: 0, spectators: 0};
    this.draw_(true);
  }

  // Lines read over HTTP (GET /api/games/{id}/chat) added to those shown, each once, in time order.
  merge_messages(list) {
    const key = (m) => `${m.at_ms}|${m.channel}|${m.seat}|${m.name}|${m.text}`;
    const known = new Set(this.messages_.map(key));
    const added = (list || []).filter((m) => m && typeof m.text === 'string' && !known.has(key(m)));
    if (!added.length) return;
    this.messages_ = [...this.messages_, ...added].sort((a, b) => (a.at_ms || 0) - (b.at_ms || 0));
    this.draw_();
  }

  // Who the viewer is and where the game stands (each time the room page draws).
  update(state, my_seat) {
    const finished = (state.position || {}).status === 'finished';
    if (my_seat === this.me_ && finished === this.finished_) return;
    this.me_ = my_seat;
    this.finished_ = finished;
    this.draw_();
  }

  // True when `error` answers a chat message (the room page then leaves it to the chat).
  takes_error(error) {
    const ours = error.ref !== undefined && this.pending_.has(error.ref);
    if (!ours && !(kChatErrors.has(error.code) && error.room === this.room_)) return false;
    const text = ours ? this.pending_.get(error.ref) : null;
    this.pending_.delete(error.ref);
    // The refused text comes back, unless the player already typed something else.
    if (text && !this.input_.value) {
      this.input_.value = text;
      this.on_input_();
    }
    // The refusal by its code, in the reader's language (too many messages says it was not sent).
    const why = error_text(error.code, error.message);
    this.show_error_(error.code === 'chat_limit' ? why : t('chat.not_sent', {why}));
    return true;
  }

  destroy() { this.unsubscribe_(); }

  // --- inside

  own_channel_() { return this.me_ === null ? 'spectators' : 'players'; }

  // Two tabs for whoever may see both chats: a spectator, or anyone once the game is over.
  tabbed_() { return this.me_ === null || this.finished_; }

  shown_channel_() { return this.tabbed_() ? this.tab_ || this.own_channel_() : 'players'; }

  hidden_(message) {
    return this.muted_ && this.me_ !== null && message.channel === 'players' && message.seat === 1 - this.me_;
  }

  choose_(channel) {
    this.tab_ = channel;
    this.unread_[channel] = 0;
    this.draw_(true);
    this.tabs_[channel].focus();
  }

  add_(message) {
    if (!message || typeof message.text !== 'string' || this.blocked_.has(message.player)) return;
    // My own message came back: it was accepted (an accepted chat message has no other answer).
    for (const [ref, text] of this.pending_) {
      if (text === message.text && message.channel === this.own_channel_()) {
        this.pending_.delete(ref);
        break;
      }
    }
    this.messages_.push(message);
    if (this.messages_.length > 500) this.messages_.splice(0, this.messages_.length - 500);
    if (this.hidden_(message)) {
      this.draw_();  // the count of hidden messages changes
    } else if (message.channel !== this.shown_channel_()) {
      this.unread_[message.channel] += 1;
      this.draw_();
    } else {
      // Appended, not redrawn: the log (role=log) then reads out the new message alone.
      const at_bottom = this.at_bottom_();
      for (const item of this.log_.querySelectorAll('.chat-empty')) item.remove();
      const muted = this.log_.querySelector('.chat-muted');
      this.log_.insertBefore(this.item_(message), muted);
      if (at_bottom) this.log_.scrollTop = this.log_.scrollHeight;
    }
  }

  at_bottom_() { return this.log_.scrollHeight - this.log_.scrollTop - this.log_.clientHeight < 24; }

  draw_(to_bottom = false) {
    const channel = this.shown_channel_();
    const tabbed = this.tabbed_();
    this.node.dataset.channel = channel;
    this.tablist_.hidden = !tabbed;
    this.title_.textContent = t(tabbed ? 'chat.title' : 'chat.players_title');
    for (const c of kChannels) {
      const tab = this.tabs_[c];
      const unread = this.unread_[c];
      tab.textContent = t(unread ? 'chat.tab_unread' : 'chat.tab', {channel: t(`chat.channel.${c}`), unread});
      tab.setAttribute('aria-selected', String(c === channel));
      tab.tabIndex = c === channel ? 0 : -1;
    }
    this.mute_box_.hidden = this.me_ === null;
    this.mute_.checked = this.muted_;

    // Kept at the bottom if it was there: a player reading older messages is not pulled down.
    const at_bottom = this.at_bottom_();
    const shown = this.messages_.filter((m) => m.channel === channel && !this.hidden_(m));
    const muted = this.messages_.filter((m) => m.channel === channel && this.hidden_(m)).length;
    const items = shown.map((m) => this.item_(m));
    if (muted) {
      items.push(el('li', {class: 'chat-muted muted'}, t('chat.muted', {count: muted})));
    }
    if (!items.length) {
      items.push(el('li', {class: 'chat-empty muted'},
                    t(channel === 'players' ? 'chat.empty_players' : 'chat.empty')));
    }
    this.log_.replaceChildren(...items);
    if (to_bottom || at_bottom) this.log_.scrollTop = this.log_.scrollHeight;

    // One writes in one's own channel only: the other tab is for reading.
    const writable = channel === this.own_channel_();
    this.form_.hidden = !writable;
    this.input_.placeholder = t('chat.placeholder');
    this.note_.hidden = writable;
    this.note_.textContent = t(channel === 'players' ? 'chat.players_only' : 'chat.spectators_only');
  }

  item_(message) {
    const time = new Date(message.at_ms || Date.now());
    const seat = message.seat === 0 || message.seat === 1 ? String(message.seat) : '';
    return el(
        'li', {
          class: `chat-message${seat && Number(seat) === this.me_ ? ' mine' : ''}`,
          'data-channel': message.channel,
          'data-seat': seat,
        },
        el('time', {class: 'chat-time muted', datetime: time.toISOString()},
           date_time(time.getTime(), {hour: '2-digit', minute: '2-digit'})),
        ' ', el('span', {class: `chat-name${seat ? ` seat-${seat}` : ''}`}, message.name || t('chat.someone')), ' ',
        el('span', {class: 'chat-text'}, message.text),
        message.player && message.player !== this.conn_.player_id ? this.line_actions_(message) : null);
  }

  // Report the line, or block its writer (docs/protocol.md "Moderation").
  line_actions_(message) {
    const report = () => {
      const reason = window.prompt(t('chat.report_reason'));
      if (!reason || !reason.trim()) return;
      const ref = this.conn_.send({type: 'report', player: message.player, room: this.room_, line: message.text,
                                   reason: reason.trim().slice(0, 500)});
      if (ref !== null) notify(t('chat.reported'), 'info');
    };
    const block = () => {
      if (this.conn_.send({type: 'block', player: message.player}) !== null)
        notify(t('chat.blocked', {name: message.name || t('chat.someone')}), 'info');
    };
    return el('span', {class: 'chat-line-actions'},
              el('button', {type: 'button', class: 'chat-report link-button', onclick: report}, t('chat.report')),
              el('button', {type: 'button', class: 'chat-block link-button', onclick: block}, t('chat.block')));
  }

  on_input_() {
    const length = length_of(this.input_.value);
    this.count_.textContent = `${length}/${kMaxLength}`;
    // The count shows near the limit only: the input keeps its width the rest of the time.
    this.count_.hidden = length < kMaxLength - 50;
    this.count_.classList.toggle('full', length >= kMaxLength);
    if (!this.error_.hidden && this.input_.value) this.error_.hidden = true;
  }

  on_submit_(event) {
    event.preventDefault();
    // Tabs and line breaks pasted in become spaces (the server refuses control characters).
    const text = this.input_.value.replace(/[\t\r\n]+/g, ' ').trim();
    if (!text) return;
    if (length_of(text) > kMaxLength) {
      this.show_error_(t('chat.too_long', {max: kMaxLength}));
      return;
    }
    const ref = this.conn_.send({type: 'chat', room: this.room_, text});
    if (ref === null) {
      this.show_error_(t('chat.offline'));
      return;
    }
    this.pending_.set(ref, text);
    this.input_.value = '';
    this.on_input_();
    this.error_.hidden = true;
  }

  show_error_(text) {
    this.error_.textContent = text;
    this.error_.hidden = false;
  }
}
