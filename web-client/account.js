// Accounts (#/account, #/account/register): log in, register, log out (here or everywhere), change the
// password; and the header's account control ("Log in" · "Register" for a guest, "Account" for an account,
// whose name then links to the player's page). The connection (net.js) keeps the session: a login's id and
// token are stored as a guest's are, a registration keeps the guest's id (and so its games and seats), and
// after `logged_out` the page starts over as a new guest.

import {account_mail_card} from './account-mail.js';
import {error_text} from './errors.js';
import {t} from './i18n.js';
import {use_words} from './ratings.js';
import {el, notify} from './ui.js';

// ratings.js's words (pools, outcomes, a rating's title) from the catalogs: t() looks them up when called, so
// this may run before the language is installed. app.js loads this file first.
use_words(t);

// The error codes of the account commands that have words of their own here (account.error.CODE, more
// precise than the general error.CODE); any other code is said by errors.js.
const kAccountErrors = ['bad_username', 'bad_password', 'username_taken', 'already_registered', 'bad_login',
                        'rate_limited', 'cannot_rate', 'account_required', 'no_account'];

const kUsername = /^[A-Za-z0-9_-]{3,20}$/;
const byte_length = (text) => new TextEncoder().encode(text).length;

// The words for an error message: ours for the codes above, errors.js's for the others.
export function error_words(error, context = '') {
  if (error.code === 'bad_login' && context === 'change_password') return t('account.error.wrong_current_password');
  if (kAccountErrors.includes(error.code)) return t(`account.error.${error.code}`);
  return error_text(error.code, error.message);
}

// A catalog text with nodes put in for its {name} parameters: with_nodes('As {name}.', {name: node}) ->
// ['As ', node, '.'].
function with_nodes(text, nodes) {
  return text.split(/\{([a-z_]+)\}/)
      .map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part))
      .filter((part) => part !== '');
}

// What is wrong with a user name or a password before it is sent (null: nothing).
function check_username(name) { return kUsername.test(name) ? null : t('account.error.bad_username'); }
function check_password(password) {
  const bytes = byte_length(password);
  return bytes >= 8 && bytes <= 128 ? null : t('account.error.bad_password');
}

// Once per page: the header's control, redrawn whenever the identity changes.
export function install_account(app) {
  const {conn} = app;
  const wrap = document.querySelector('.whoami-wrap');
  const nav = el('span', {id: 'account-nav', class: 'account-nav'});
  if (wrap) {
    wrap.after(nav);
  } else {
    document.body.prepend(nav);
  }
  const draw = () => {
    const username = conn.username;
    nav.dataset.account = username ? 'true' : 'false';
    if (username) {
      nav.replaceChildren(el('a', {id: 'account-link', href: '#/account', title: t('account.link_title')},
                              t('account.title')));
    } else {
      nav.replaceChildren(el('a', {id: 'login-link', href: '#/account'}, t('account.log_in')),
                          el('a', {id: 'register-link', href: '#/account/register'}, t('account.register')));
    }
  };
  for (const type of ['welcome', 'registered', 'logged_out']) conn.on(type, draw);
  conn.on('logged_out', (message) => {
    app.seek = null;  // a seek ends with its connection
    if (!message.mine) notify(t('account.logged_out_notice'), 'info');
  });
  draw();
}

// The account page. `section`: 'register' puts the register form first and focuses it.
export function render_account(root, app, section = null) {
  const {conn} = app;
  const subscriptions = [];
  // The command waiting for its answer: {kind, ref, form}; its errors show in its form, not as a notice.
  let pending = null;
  let status_text = '';  // what the last success said, shown above the forms after a redraw
  // Who the page was drawn for: the account, or the guest's name.
  const who = () => (conn.username ? `account:${conn.username}` : `guest:${(conn.identity && conn.identity.name) || ''}`);
  let shown = null;
  let mail = null;  // the mail card (account-mail.js) of an account's page
  const page = el('div', {class: 'account', id: 'account'});
  root.append(page);

  const track = (kind, ref, form) => {
    if (ref === null) {
      form.error.textContent = t('account.not_connected');
      form.error.hidden = false;
      return;
    }
    app.quiet_refs.add(ref);
    pending = {kind, ref, form};
    form.submit.disabled = true;
  };
  const finish = (text) => {
    if (pending) app.quiet_refs.delete(pending.ref);
    pending = null;
    status_text = text;
    draw();
  };

  const text_field = (id, label, attrs = {}) => el(
      'div', {class: 'field'}, el('label', {for: id}, label),
      el('input', {id, name: id, type: 'text', autocomplete: 'off', spellcheck: false, ...attrs}));
  const password_field = (id, label, autocomplete) =>
      text_field(id, label, {type: 'password', autocomplete});

  // A form of `fields`, its submit button and its error line; on submit `check()` returns an error text or
  // calls send().
  function make_form(id, title, fields, submit_text, on_submit, extra = null) {
    const error = el('p', {id: `${id}-error`, class: 'form-error', role: 'alert', hidden: true});
    const submit = el('button', {id: `${id}-submit`, type: 'submit', class: 'primary'}, submit_text);
    const form = el('form', {id: `${id}-form`, class: 'card-form', novalidate: true}, ...fields, extra,
                    el('div', {class: 'buttons'}, submit), error);
    const handle = {form, error, submit};
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (pending) return;
      error.hidden = true;
      const value = (name) => form.querySelector(`#${name}`).value;
      const problem = on_submit(value, handle);
      if (problem) {
        error.textContent = problem;
        error.hidden = false;
      }
    });
    return el('section', {class: 'card account-card', 'aria-labelledby': `${id}-title`},
              el('h2', {id: `${id}-title`}, title), form);
  }

  function guest_view() {
    const name = conn.identity && conn.identity.name;
    const login = make_form(
        'login', t('account.log_in'),
        [text_field('login-username', t('account.username'), {autocomplete: 'username'}),
         password_field('login-password', t('account.password'), 'current-password')],
        t('account.log_in'), (value, form) => {
          const username = value('login-username').trim();
          const password = value('login-password');
          if (!username || !password) return t('account.login_missing');
          track('login', conn.login(username, password), form);
          return null;
        },
        el('p', {class: 'hint-text muted'}, t('account.login_hint')));
    const register = make_form(
        'register', t('account.register'),
        [text_field('register-username', t('account.username'), {autocomplete: 'username', maxlength: '20',
                                                                 'aria-describedby': 'register-username-hint'}),
         el('small', {id: 'register-username-hint', class: 'hint-text muted'}, t('account.username_hint')),
         password_field('register-password', t('account.password_first'), 'new-password'),
         password_field('register-password2', t('account.password_again'), 'new-password')],
        t('account.register'), (value, form) => {
          const username = value('register-username').trim();
          const password = value('register-password');
          const problem = check_username(username) || check_password(password);
          if (problem) return problem;
          if (password !== value('register-password2')) return t('account.passwords_differ');
          track('register', conn.register(username, password), form);
          return null;
        },
        el('p', {class: 'hint-text muted'}, t('account.register_hint')));
    const cards = section === 'register' ? [register, login] : [login, register];
    return [
      el('p', {class: 'account-intro'}, name ? t('account.guest_intro_named', {name}) : t('account.guest_intro')),
      el('div', {class: 'account-forms'}, cards),
    ];
  }

  function account_view() {
    const username = conn.username;
    const logout = el('button', {id: 'logout', type: 'button', onclick: () => log_out(false)}, t('account.log_out'));
    const logout_all =
        el('button', {id: 'logout-all', type: 'button', class: 'danger', onclick: () => log_out(true)},
           t('account.log_out_all'));
    const logout_error = el('p', {id: 'logout-error', class: 'form-error', role: 'alert', hidden: true});
    const log_out = (everywhere) => {
      if (pending) return;
      logout_error.hidden = true;
      track(everywhere ? 'logout_all' : 'logout', conn.logout(everywhere),
            {error: logout_error, submit: everywhere ? logout_all : logout});
    };
    const change = make_form(
        'password', t('account.change_password'),
        [password_field('password-old', t('account.password_current'), 'current-password'),
         password_field('password-new', t('account.password_new'), 'new-password'),
         password_field('password-new2', t('account.password_new_again'), 'new-password')],
        t('account.change_password'), (value, form) => {
          const old_password = value('password-old');
          const new_password = value('password-new');
          if (!old_password) return t('account.password_current_missing');
          const problem = check_password(new_password);
          if (problem) return problem;
          if (new_password !== value('password-new2')) return t('account.new_passwords_differ');
          track('change_password', conn.change_password(old_password, new_password), form);
          return null;
        });
    if (mail) mail.dispose();
    mail = account_mail_card(app);
    return [
      el('p', {class: 'account-intro'}, with_nodes(t('account.logged_in_as'), {
        name: el('strong', {id: 'account-username'}, username),
        page: el('a', {id: 'account-profile', href: `#/player/${encodeURIComponent(username)}`},
                 t('account.your_page')),
      })),
      el('div', {class: 'account-forms'},
         el('section', {class: 'card account-card', 'aria-labelledby': 'logout-title'},
            el('h2', {id: 'logout-title'}, t('account.log_out')),
            el('p', {class: 'hint-text muted'}, t('account.log_out_hint')),
            el('div', {class: 'buttons'}, logout, logout_all), logout_error),
         change, mail.card),
    ];
  }

  function draw() {
    shown = who();
    if (mail && !conn.username) {
      mail.dispose();
      mail = null;
    }
    const status = el('p', {id: 'account-status', class: 'account-status', role: 'status', hidden: !status_text},
                      status_text);
    page.replaceChildren(el('h1', {}, t('account.title')), status,
                         ...(conn.username ? account_view() : guest_view()));
    document.title = t('account.page_title');
  }

  // --- answers
  subscriptions.push(conn.on('error', (error) => {
    if (!pending || error.ref !== pending.ref) return;
    const {form, kind} = pending;
    app.quiet_refs.delete(pending.ref);
    pending = null;
    form.submit.disabled = false;
    form.error.textContent = error_words(error, kind);
    form.error.hidden = false;
    const password = form.form && form.form.querySelector('input[type="password"]');
    if (password) password.focus();
  }));
  subscriptions.push(conn.on('registered', (message) => {
    if (pending && pending.kind === 'register') {
      finish(t('account.registered', {name: message.username}));
    } else {
      draw();
    }
  }));
  subscriptions.push(conn.on('welcome', (message) => {
    if (pending && pending.kind === 'login' && message.username) {
      finish(t('account.welcome_back', {name: message.username}));
    } else if (!pending && who() !== shown) {
      draw();  // who the page is changed (a new guest after a logout): the forms typed in stay otherwise
    }
  }));
  subscriptions.push(conn.on('logged_out', (message) => {
    if (pending && (pending.kind === 'logout' || pending.kind === 'logout_all')) {
      finish(pending.kind === 'logout_all' ? t('account.logged_out_all') : t('account.logged_out'));
    } else {
      if (pending) app.quiet_refs.delete(pending.ref);
      pending = null;
      status_text = message.mine ? '' : t('account.logged_out_elsewhere');
      draw();
    }
  }));
  subscriptions.push(conn.on('password_changed', () => {
    if (pending && pending.kind === 'change_password') finish(t('account.password_changed'));
  }));

  draw();
  if (section === 'register') page.querySelector('#register-username')?.focus();
  return () => {
    if (pending) app.quiet_refs.delete(pending.ref);
    if (mail) mail.dispose();
    for (const unsubscribe of subscriptions) unsubscribe();
  };
}
