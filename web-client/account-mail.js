// An account's mail (docs/mail.md, "Accounts"), a card of the account page: the address its games' mails go
// to (kept once the link mailed to it is followed), which mails it wants (your turn, reminders, results) or
// one digest a day at an hour of the player's choosing. Read with `mail_settings`, saved with `set_mail`;
// both answer `mail_settings`. A server that sends no mail says so instead.

import {error_text} from './errors.js';
import {date, t} from './i18n.js';
import {browser_zone} from './mail.js';
import {el} from './ui.js';

// The digest's hour, in the account's time zone (the browser's, sent with every save): '07:00' on a 24-hour
// clock, written by Intl in the reader's language.
function hour_label(hour) {
  return date(Date.UTC(2000, 0, 1, hour), {hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC'});
}

// The card, and the function that ends its subscriptions.
export function account_mail_card(app) {
  const {conn} = app;
  const subscriptions = [];
  let pending = null;  // the ref waiting for its answer
  const status = el('p', {id: 'mail-status', class: 'hint-text', role: 'status'}, t('account.mail.reading'));
  const error = el('p', {id: 'mail-error', class: 'form-error', role: 'alert', hidden: true});
  const address = el('input', {id: 'mail-address', name: 'mail-address', type: 'email', autocomplete: 'email',
                               spellcheck: false, maxlength: '254'});
  const box = (id, label) => {
    const input = el('input', {id, name: id, type: 'checkbox'});
    return {input, field: el('label', {class: 'check', for: id}, input, ' ', label)};
  };
  const turn = box('mail-turn', t('account.mail.turn'));
  const reminder = box('mail-reminder', t('account.mail.reminder'));
  const end = box('mail-end', t('account.mail.end'));
  const digest = el('select', {id: 'mail-digest', name: 'mail-digest'},
                    el('option', {value: ''}, t('account.mail.no_digest')),
                    ...Array.from({length: 24}, (_, h) => el('option', {value: String(h)},
                                                             t('account.mail.daily', {time: hour_label(h)}))));
  const submit = el('button', {id: 'mail-submit', type: 'submit', class: 'primary'}, t('account.mail.save'));
  const zone_note = el('p', {id: 'mail-zone', class: 'hint-text muted'});
  const form = el('form', {id: 'mail-form', class: 'card-form', novalidate: true},
                  el('div', {class: 'field'}, el('label', {for: 'mail-address'}, t('account.mail.address')),
                     address),
                  el('fieldset', {class: 'checks'}, el('legend', {}, t('account.mail.mail_me')), turn.field,
                     reminder.field, end.field),
                  el('div', {class: 'field'}, el('label', {for: 'mail-digest'}, t('account.mail.digest')), digest),
                  zone_note,
                  el('p', {class: 'hint-text muted'}, t('account.mail.digest_hint')),
                  el('div', {class: 'buttons'}, submit), error);
  const card = el('section', {class: 'card account-card', id: 'mail-card', 'aria-labelledby': 'mail-title'},
                  el('h2', {id: 'mail-title'}, t('account.mail.title')), status, form);
  form.hidden = true;

  const show = (m) => {
    if (!m.available) {
      status.textContent = t('account.mail.none');
      form.hidden = true;
      return;
    }
    form.hidden = false;
    if (document.activeElement !== address) address.value = m.pending || m.address;
    turn.input.checked = m.turn;
    reminder.input.checked = m.reminder;
    end.input.checked = m.end;
    digest.value = m.digest_hour === null ? '' : String(m.digest_hour);
    const zone = m.zone || browser_zone();
    zone_note.textContent = t(m.zone ? 'account.mail.zone' : 'account.mail.zone_unsaved', {zone: zone || 'UTC'});
    if (m.pending) {
      status.textContent = m.address ? t('account.mail.pending_until', {pending: m.pending, address: m.address}) :
                                       t('account.mail.pending', {pending: m.pending});
    } else {
      status.textContent = m.address ? t('account.mail.goes_to', {address: m.address}) : t('account.mail.give_address');
    }
  };
  const ask = (message) => {
    const ref = conn.send(message);
    if (ref === null) {
      error.textContent = t('account.not_connected');
      error.hidden = false;
      return;
    }
    app.quiet_refs.add(ref);
    pending = ref;
    submit.disabled = true;
  };
  subscriptions.push(conn.on('mail_settings', (m) => {
    if (m.ref !== undefined && m.ref !== pending) return;
    app.quiet_refs.delete(pending);
    pending = null;
    submit.disabled = false;
    show(m);
  }));
  subscriptions.push(conn.on('error', (e) => {
    if (pending === null || e.ref !== pending) return;
    app.quiet_refs.delete(pending);
    pending = null;
    submit.disabled = false;
    error.textContent = error_text(e.code, e.message);
    error.hidden = false;
  }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (pending !== null) return;
    error.hidden = true;
    const wanted = address.value.trim();
    if (wanted && !/^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/.test(wanted)) {
      error.textContent = error_text('bad_address');
      error.hidden = false;
      return;
    }
    const message = {type: 'set_mail', address: wanted, turn: turn.input.checked, reminder: reminder.input.checked,
                     end: end.input.checked, digest_hour: digest.value === '' ? null : Number(digest.value)};
    if (browser_zone()) message.zone = browser_zone();
    ask(message);
  });
  subscriptions.push(conn.on_ready(() => { if (pending === null) ask({type: 'mail_settings'}); }));
  return {card, dispose: () => {
    if (pending !== null) app.quiet_refs.delete(pending);
    for (const unsubscribe of subscriptions) unsubscribe();
  }};
}
