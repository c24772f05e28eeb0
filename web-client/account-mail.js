// An account's mail (docs/mail.md, "Accounts"), a card of the account page: the address its games' mails go
// to (kept once the link mailed to it is followed), which mails it wants (your turn, reminders, results) or
// one digest a day at an hour of the player's choosing. Read with `mail_settings`, saved with `set_mail`;
// both answer `mail_settings`. A server that sends no mail says so instead.

import {browser_zone} from './mail.js';
import {el} from './ui.js';

// The digest's hour, in the account's time zone (the browser's, sent with every save).
function hour_label(hour) { return `${String(hour).padStart(2, '0')}:00`; }

// The card, and the function that ends its subscriptions.
export function account_mail_card(app) {
  const {conn} = app;
  const subscriptions = [];
  let pending = null;  // the ref waiting for its answer
  const status = el('p', {id: 'mail-status', class: 'hint-text', role: 'status'}, 'Reading your mail settings…');
  const error = el('p', {id: 'mail-error', class: 'form-error', role: 'alert', hidden: true});
  const address = el('input', {id: 'mail-address', name: 'mail-address', type: 'email', autocomplete: 'email',
                               spellcheck: false, maxlength: '254'});
  const box = (id, label) => {
    const input = el('input', {id, name: id, type: 'checkbox'});
    return {input, field: el('label', {class: 'check', for: id}, input, ' ', label)};
  };
  const turn = box('mail-turn', 'Your turn: a mail after each of the opponent\'s turns');
  const reminder = box('mail-reminder', 'Reminders before a deadline');
  const end = box('mail-end', 'Results, with the record');
  const digest = el('select', {id: 'mail-digest', name: 'mail-digest'},
                    el('option', {value: ''}, 'No digest'),
                    ...Array.from({length: 24}, (_, h) => el('option', {value: String(h)}, `Daily at ${hour_label(h)}`)));
  const submit = el('button', {id: 'mail-submit', type: 'submit', class: 'primary'}, 'Save');
  const zone_note = el('p', {id: 'mail-zone', class: 'hint-text muted'});
  const form = el('form', {id: 'mail-form', class: 'card-form', novalidate: true},
                  el('div', {class: 'field'}, el('label', {for: 'mail-address'}, 'Address'), address),
                  el('fieldset', {class: 'checks'}, el('legend', {}, 'Mail me'), turn.field, reminder.field, end.field),
                  el('div', {class: 'field'}, el('label', {for: 'mail-digest'}, 'Digest of the games where it is your turn'),
                     digest),
                  zone_note,
                  el('p', {class: 'hint-text muted'},
                     'With a digest, your-turn mails stop: one mail a day lists the games waiting for you. ' +
                         'Every mail has a link that stops them in one click.'),
                  el('div', {class: 'buttons'}, submit), error);
  const card = el('section', {class: 'card account-card', id: 'mail-card', 'aria-labelledby': 'mail-title'},
                  el('h2', {id: 'mail-title'}, 'Mail'), status, form);
  form.hidden = true;

  const show = (m) => {
    if (!m.available) {
      status.textContent = 'This server sends no mail.';
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
    zone_note.textContent = `Times in your mails, and the digest's hour, are in ${zone || 'UTC'}` +
                            (m.zone ? '.' : ' once you save.');
    status.textContent = m.pending ? `A link was mailed to ${m.pending}: follow it to receive mail there.` +
                                         (m.address ? ` Until then mail goes to ${m.address}.` : '')
                                   : m.address ? `Your games' mails go to ${m.address}.`
                                               : 'Give an address to receive your correspondence games by mail.';
  };
  const ask = (message) => {
    const ref = conn.send(message);
    if (ref === null) {
      error.textContent = 'Not connected: try again in a moment.';
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
    error.textContent = e.message || e.code;
    error.hidden = false;
  }));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (pending !== null) return;
    error.hidden = true;
    const wanted = address.value.trim();
    if (wanted && !/^[^\s@<>()[\],;:"\\]+@[^\s@<>()[\],;:"\\]+\.[^\s@<>()[\],;:"\\]+$/.test(wanted)) {
      error.textContent = 'That is not an e-mail address.';
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
