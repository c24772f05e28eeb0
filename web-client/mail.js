// Correspondence by e-mail (docs/mail.md): the room's "Play by mail" panel, for the player who holds a
// correspondence seat (and so its token). It shows the seat address that takes the seat's turns by mail and
// the state of the player's own address, with two small forms: the seat's mail settings, and an invitation
// of the opponent by e-mail while their seat is free. Both talk to the server over HTTP with the seat's token
// (GET and POST /api/games/ID/mail?seat=S&token=T). A server without mail answers 404 `no_mail`: the panel
// then stays hidden.

import {error_text} from './errors.js';
import {language, t} from './i18n.js';
import {copy_text, el, seat_side} from './ui.js';

// The browser's IANA time zone ("Europe/Paris"), or "" if it does not say.
export function browser_zone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || '';
  } catch {
    return '';
  }
}

// The reminders offered in the select (their words' keys); any other list the seat has is a custom one.
const kReminders = [
  {value: '', label: 'account.mail.reminders_default'},
  {value: 'off', label: 'account.mail.reminders_off'},
  {value: '24h,8h,1h', label: 'account.mail.reminders_day'},
];
const kCustom = 'custom';

// A turn as a mail gives it, by game and side letter (a first turn of a sample record); other games get the
// sentence without an example.
const kExamples = {
  tablut: {A: 'A/e8 i8/', D: 'D/e3 a3/'},
  'kopf-oder-knopf': {R: 'R/h9 h8/', B: 'B/i3 h3/'},
};

// The seat and token of a seat link ('/#/room/ID?seat=S&token=T'), or null.
export function parse_seat_link(link) {
  if (typeof link !== 'string') return null;
  const query = /\?(.*)$/.exec(link);
  if (!query) return null;
  const params = new URLSearchParams(query[1]);
  const seat = params.get('seat');
  const token = params.get('token');
  return (seat === '0' || seat === '1') && token ? {seat: Number(seat), token} : null;
}

// The token of `seat` among a room's seat links ([link0, link1], a seat's entry empty when not given, or
// [{seat, link}...]), or null.
export function seat_token_of(links, seat) {
  for (const entry of links || []) {
    const link = entry && typeof entry === 'object' ? entry.link : entry;
    const parsed = parse_seat_link(link);
    if (parsed && parsed.seat === seat) return parsed.token;
  }
  return null;
}

// The server's error in words, else what went wrong. In English the server's own message is shown: it says
// more than the code's text (the address refused, the reminders' form); another language says the code's text.
function refusal_text(answer, status, what) {
  const error = answer && answer.error;
  if (error && (error.message || error.code)) {
    return language() === 'en' && error.message ? error.message : error_text(error.code, error.message);
  }
  return t('account.mail.failed_status', {what, status: String(status)});
}

// A catalog text with nodes put in for its {name} parameters: with_nodes('a {x} b', {x: node}) -> ['a ', node,
// ' b'].
function with_nodes(text, nodes) {
  return text.split(/\{([a-z_]+)\}/)
      .map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part))
      .filter((part) => part !== '');
}

export class MailPanel {
  constructor(room_id) {
    this.room_ = room_id;
    this.key_ = null;         // 'seat:token' of the seat shown; null: no panel
    this.seat_ = null;
    this.token_ = null;
    this.settings_ = null;    // the server's last answer for the seat; null: not known, or no mail
    this.filled_ = false;     // the settings form holds the server's values (set once, and after each save)
    this.sequence_ = 0;       // only the latest request's answer is shown
    this.busy_ = false;       // a POST is under way
    this.loading_ = false;    // a GET is under way
    this.other_free_ = false;
    this.example_ = null;
    this.destroyed_ = false;

    // --- what the seat's mail is
    this.reply_ = el('code', {id: 'mail-reply-address', class: 'mail-reply-address'});
    this.example_node_ = el('span', {class: 'mail-example'});
    this.how_ = el('p', {id: 'mail-how', class: 'mail-how'},
                   with_nodes(t('account.mail.how'), {example: this.example_node_}));
    this.copy_ = el('button', {
      id: 'mail-copy',
      type: 'button',
      class: 'mail-copy',
      onclick: () => copy_text(this.reply_.textContent, t('account.mail.address')),
    }, t('account.mail.copy_address'));
    this.state_ = el('p', {id: 'mail-state', class: 'mail-state', 'aria-live': 'polite'});
    this.invited_ = el('p', {id: 'mail-invited', class: 'mail-invited', 'aria-live': 'polite', hidden: true});

    // --- the seat's settings
    this.address_ = el('input', {
      id: 'mail-address',
      name: 'address',
      type: 'text',
      inputmode: 'email',
      autocomplete: 'email',
      spellcheck: 'false',
      maxlength: '254',
      placeholder: t('account.mail.address_placeholder'),
    });
    this.by_mail_ = el('input', {id: 'mail-by-mail', name: 'by_mail', type: 'checkbox'});
    this.reminders_ = el(
        'select', {id: 'mail-reminders', name: 'reminders', onchange: () => this.show_custom_()},
        kReminders.map((r) => el('option', {value: r.value}, t(r.label))),
        el('option', {value: kCustom}, t('account.mail.reminders_custom')));
    this.custom_ = el('input', {
      id: 'mail-reminders-custom',
      name: 'reminders_custom',
      type: 'text',
      spellcheck: 'false',
      maxlength: '254',
      placeholder: '2d,12h,1h',
      'aria-describedby': 'mail-reminders-hint',
    });
    this.custom_field_ =
        el('div', {class: 'field', hidden: true},
           el('label', {for: 'mail-reminders-custom'}, t('account.mail.reminder_times')), this.custom_,
           el('p', {id: 'mail-reminders-hint', class: 'hint-text muted'}, t('account.mail.reminder_times_hint')));
    this.save_ = el('button', {id: 'mail-save', type: 'submit', class: 'primary'}, t('account.mail.save'));
    this.saved_ = el('span', {id: 'mail-saved', class: 'mail-saved', role: 'status'});
    this.error_ = el('p', {id: 'mail-error', class: 'form-error', role: 'alert', hidden: true});
    this.form_ = el(
        'form', {id: 'mail-form', class: 'mail-form', novalidate: true},
        el('div', {class: 'field'}, el('label', {for: 'mail-address'}, t('account.mail.your_address')),
           this.address_),
        el('div', {class: 'check'}, this.by_mail_,
           el('label', {for: 'mail-by-mail'}, t('account.mail.by_mail'))),
        el('div', {class: 'field'}, el('label', {for: 'mail-reminders'}, t('account.mail.reminders')),
           this.reminders_),
        this.custom_field_, el('div', {class: 'buttons mail-buttons'}, this.save_, this.saved_), this.error_);
    this.form_.addEventListener('submit', (e) => {
      e.preventDefault();
      this.save_settings_();
    });
    for (const input of [this.address_, this.by_mail_, this.reminders_, this.custom_]) {
      input.addEventListener('input', () => {
        this.saved_.textContent = '';
      });
    }
    this.settings_box_ = el('details', {id: 'mail-settings', class: 'mail-details'},
                            el('summary', {}, t('account.mail.settings')), this.form_);

    // --- inviting the opponent
    this.invite_ = el('input', {
      id: 'mail-invite',
      name: 'invite',
      type: 'text',
      inputmode: 'email',
      autocomplete: 'off',
      spellcheck: 'false',
      maxlength: '254',
    });
    this.invite_name_ = el('input', {
      id: 'mail-invite-name',
      name: 'name',
      type: 'text',
      autocomplete: 'off',
      maxlength: '32',
    });
    this.invite_send_ =
        el('button', {id: 'mail-invite-send', type: 'submit', class: 'primary'}, t('account.mail.invite_send'));
    this.invite_error_ = el('p', {id: 'mail-invite-error', class: 'form-error', role: 'alert', hidden: true});
    this.invite_form_ = el(
        'form', {id: 'mail-invite-form', class: 'mail-form', novalidate: true},
        el('p', {class: 'hint-text'}, t('account.mail.invite_hint')),
        el('div', {class: 'field'}, el('label', {for: 'mail-invite'}, t('account.mail.invite_address')),
           this.invite_),
        el('div', {class: 'field'}, el('label', {for: 'mail-invite-name'}, t('account.mail.invite_name')),
           this.invite_name_),
        el('div', {class: 'buttons'}, this.invite_send_), this.invite_error_);
    this.invite_form_.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send_invite_();
    });
    this.invite_box_ = el('details', {id: 'mail-invite-box', class: 'mail-details', hidden: true},
                          el('summary', {}, t('account.mail.invite')), this.invite_form_);

    this.node =
        el('section', {id: 'mail-panel', class: 'mail-panel', 'aria-labelledby': 'mail-title', hidden: true},
           el('h2', {id: 'mail-title', class: 'mail-title'}, t('account.mail.play_by_mail')), this.how_,
           el('div', {class: 'mail-reply'}, this.reply_, this.copy_), this.state_, this.invited_,
           this.settings_box_, this.invite_box_);

    // Back to the tab (an address confirmed by its link, say): the settings again.
    this.on_visible_ = () => {
      if (document.visibilityState === 'visible') this.refresh();
    };
    document.addEventListener('visibilitychange', this.on_visible_);
  }

  // At each render of the room: `seat` and `token`, the viewer's seat and its token (null when not seated or
  // not known). The panel shows for a seat of an unfinished correspondence game whose server has mail.
  update({state, seat, token}) {
    const position = (state && state.position) || {};
    const correspondence = Boolean(state && state.clock && state.clock.days);
    const active =
        correspondence && position.status !== 'finished' && (seat === 0 || seat === 1) && Boolean(token);
    const key = active ? `${seat}:${token}` : null;
    if (key !== this.key_) {
      this.key_ = key;
      this.loading_ = false;
      this.seat_ = active ? seat : null;
      this.token_ = active ? token : null;
      this.settings_ = null;
      this.filled_ = false;
      if (key) this.load_();
    }
    this.other_free_ = active && !(state.seats || [])[1 - seat];
    const examples = active ? kExamples[state.game] : null;
    this.example_ = examples ? examples[seat_side(state, seat)] || null : null;
    this.draw_();
  }

  // Reads the seat's settings again (the page came back to the front).
  refresh() {
    if (this.key_ && !this.busy_) this.load_();
  }

  destroy() {
    this.destroyed_ = true;
    document.removeEventListener('visibilitychange', this.on_visible_);
  }

  url_() {
    return `/api/games/${encodeURIComponent(this.room_)}/mail?seat=${this.seat_}&token=${
        encodeURIComponent(this.token_)}`;
  }

  // GET: the seat's settings. No mail on the server (404 no_mail) or a refused token: no panel. No answer or a
  // busy server: a panel already shown stays as it was.
  async load_() {
    const sequence = ++this.sequence_;
    const key = this.key_;
    let answer = null;
    let refused = false;
    this.loading_ = true;
    this.draw_();
    try {
      const response = await fetch(this.url_(), {headers: {Accept: 'application/json'}});
      refused = response.status >= 400 && response.status < 500;
      if (response.ok) answer = await response.json();
    } catch {
      // Nothing to show from it.
    }
    if (this.destroyed_ || sequence !== this.sequence_ || key !== this.key_) return;
    this.loading_ = false;
    if (answer && typeof answer === 'object' && answer.reply_address) {
      this.settings_ = answer;
    } else if (refused) {
      this.settings_ = null;
    }
    this.draw_();
  }

  // POST `body`: resolves to true once the server took it (its answer is then the settings shown), or shows
  // the server's error in `error_node` and resolves to false.
  async post_(body, error_node, what) {
    const key = this.key_;
    const sequence = ++this.sequence_;
    this.busy_ = true;
    this.draw_();
    error_node.hidden = true;
    let problem = null;
    let answer = null;
    try {
      const response = await fetch(this.url_(), {
        method: 'POST',
        headers: {'Content-Type': 'application/json', Accept: 'application/json'},
        body: JSON.stringify(body),
      });
      answer = await response.json().catch(() => null);
      if (!response.ok || !answer || answer.error || !answer.reply_address) {
        problem = refusal_text(answer, response.status, what);
      }
    } catch {
      problem = t('account.mail.unreachable', {what});
    }
    this.busy_ = false;
    if (this.destroyed_ || key !== this.key_) return false;
    if (sequence === this.sequence_) this.loading_ = false;
    if (problem) {
      error_node.textContent = problem;
      error_node.hidden = false;
    } else if (sequence === this.sequence_) {
      this.settings_ = answer;
    }
    this.draw_();
    return !problem;
  }

  // The settings form: only the fields that differ from the server's are sent.
  async save_settings_() {
    if (this.busy_ || !this.settings_) return;
    const s = this.settings_;
    const body = {};
    const address = this.address_.value.trim();
    if (address !== (s.address || '')) body.address = address;
    if (this.by_mail_.checked !== Boolean(s.by_mail)) body.by_mail = this.by_mail_.checked;
    const reminders =
        this.reminders_.value === kCustom ? this.custom_.value.replace(/\s+/g, '') : this.reminders_.value;
    if (reminders !== (s.reminders || '')) body.reminders = reminders;
    // The deadlines in this seat's mails are given in the browser's time zone (with UTC beside them).
    if (Object.keys(body).length && browser_zone() && browser_zone() !== s.zone) body.zone = browser_zone();
    // Its mails are written in the page's language.
    if (Object.keys(body).length && language() !== (s.language || 'en')) body.language = language();
    this.saved_.textContent = '';
    if (!Object.keys(body).length) {
      this.error_.hidden = true;
      this.saved_.textContent = t('account.mail.unchanged');
      return;
    }
    if (await this.post_(body, this.error_, t('account.mail.not_saved'))) {
      this.fill_form_();
      this.saved_.textContent = t('account.mail.saved');
    }
  }

  async send_invite_() {
    if (this.busy_ || !this.settings_) return;
    const invite = this.invite_.value.trim();
    if (!invite) {
      this.invite_error_.textContent = t('account.mail.invite_missing');
      this.invite_error_.hidden = false;
      this.invite_.focus();
      return;
    }
    // The invitation (and the invited seat's mails) in the page's language, the inviter's seat's too.
    const body = {invite, language: language()};
    const name = this.invite_name_.value.trim();
    if (name) body.name = name;
    if (await this.post_(body, this.invite_error_, t('account.mail.not_invited'))) {
      this.invite_.value = '';
      this.invite_name_.value = '';
    }
  }

  // The form holds the server's values (a custom reminders list in its own field).
  fill_form_() {
    const s = this.settings_;
    if (!s) return;
    this.address_.value = s.address || '';
    this.by_mail_.checked = Boolean(s.by_mail);
    const reminders = s.reminders || '';
    const known = kReminders.some((r) => r.value === reminders);
    this.reminders_.value = known ? reminders : kCustom;
    this.custom_.value = known ? '' : reminders;
    this.show_custom_();
    this.filled_ = true;
  }

  show_custom_() {
    const custom = this.reminders_.value === kCustom;
    this.custom_field_.hidden = !custom;
  }

  draw_() {
    const s = this.settings_;
    this.node.hidden = !s;
    this.node.dataset.seat = this.seat_ === null ? '' : String(this.seat_);
    // For the browser tests: 'shown', 'loading' (the first answer awaited) or 'none' (no seat, or no mail).
    this.node.dataset.state = s ? 'shown' : this.key_ && this.loading_ ? 'loading' : 'none';
    if (!s) return;
    if (!this.filled_) this.fill_form_();
    this.reply_.textContent = s.reply_address;
    const example = this.example_ && el('code', {class: 'mail-turn'}, this.example_);
    this.example_node_.replaceChildren(
        ...(example ? with_nodes(t('account.mail.example'), {turn: example}) : [t('account.mail.as_record')]));

    const address = s.address || '';
    const words = [];
    if (!address) {
      words.push(t('account.mail.state_none'));
    } else if (!s.confirmed) {
      words.push(t('account.mail.state_unconfirmed', {address}));
    } else if (s.by_mail) {
      words.push(t('account.mail.state_by_mail', {address}));
    } else {
      words.push(t('account.mail.state_confirmed', {address}));
    }
    if (address && !s.confirmed && s.by_mail) words.push(t('account.mail.state_then_by_mail'));
    if (s.reminders === 'off') words.push(t('account.mail.state_no_reminders'));
    // A mail the mail server refused for good (a 5xx): said here, since it never reached its reader (the mail
    // server's own words, as it gave them).
    const failed = Array.isArray(s.failed) ? s.failed : [];
    if (failed.length) {
      const last = failed[failed.length - 1];
      words.push(t('account.mail.state_failed', {count: failed.length, to: last.to, error: last.error}));
    }
    this.state_.textContent = words.join(' ');
    this.node.dataset.failed = String(failed.length);
    this.node.dataset.confirmed = String(Boolean(s.confirmed));

    // `invited`: the address the opponent was invited at ('' when none).
    const invited = typeof s.invited === 'string' ? s.invited.trim() : '';
    this.invited_.hidden = !invited;
    this.invited_.textContent = invited ? t('account.mail.invited', {address: invited}) : '';
    this.invite_box_.hidden = !this.other_free_ || Boolean(invited);

    this.save_.disabled = this.busy_;
    this.invite_send_.disabled = this.busy_;
  }
}
