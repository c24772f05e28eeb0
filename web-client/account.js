// Accounts (#/account, #/account/register): log in, register, log out (here or everywhere), change the
// password; and the header's account control ("Log in" · "Register" for a guest, "Account" for an account,
// whose name then links to the player's page). The connection (net.js) keeps the session: a login's id and
// token are stored as a guest's are, a registration keeps the guest's id (and so its games and seats), and
// after `logged_out` the page starts over as a new guest.

import {account_mail_card} from './account-mail.js';
import {el, notify} from './ui.js';

// What each error code of the account commands means, in words (an error without its code here shows the
// server's own message).
export const kAccountErrors = {
  bad_username: 'A user name has 3 to 20 characters: letters A–Z and a–z, digits, _ and -.',
  bad_password: 'A password has 8 to 128 bytes (8 to 128 letters or digits; some signs count as more).',
  username_taken: 'That user name is taken: choose another one.',
  already_registered: 'You are already logged in to an account: log out to register another one.',
  bad_login: 'Unknown user name or wrong password.',
  rate_limited: 'Too many attempts: wait a few minutes, then try again.',
  cannot_rate: 'Rated games are for players logged in to an account, and never against the computer.',
  account_required: 'Rated games are for accounts: log in or register first.',
  no_account: 'You play as a guest: there is no account to log out of.',
};

const kUsername = /^[A-Za-z0-9_-]{3,20}$/;
const byte_length = (text) => new TextEncoder().encode(text).length;

// The words for an error message: ours for the codes above, the server's for the others.
export function error_words(error, context = '') {
  if (error.code === 'bad_login' && context === 'change_password') return 'The current password is wrong.';
  return kAccountErrors[error.code] || error.message || error.code;
}

// What is wrong with a user name or a password before it is sent (null: nothing).
function check_username(name) { return kUsername.test(name) ? null : kAccountErrors.bad_username; }
function check_password(password) {
  const bytes = byte_length(password);
  return bytes >= 8 && bytes <= 128 ? null : kAccountErrors.bad_password;
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
      nav.replaceChildren(el('a', {id: 'account-link', href: '#/account', title: 'Log out, change the password'},
                              'Account'));
    } else {
      nav.replaceChildren(el('a', {id: 'login-link', href: '#/account'}, 'Log in'),
                          el('a', {id: 'register-link', href: '#/account/register'}, 'Register'));
    }
  };
  for (const type of ['welcome', 'registered', 'logged_out']) conn.on(type, draw);
  conn.on('logged_out', (message) => {
    app.seek = null;  // a seek ends with its connection
    if (!message.mine) notify('You were logged out (your account logged out everywhere): you play as a guest now.', 'info');
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
      form.error.textContent = 'Not connected: try again in a moment.';
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
        'login', 'Log in',
        [text_field('login-username', 'User name', {autocomplete: 'username'}),
         password_field('login-password', 'Password', 'current-password')],
        'Log in', (value, form) => {
          const username = value('login-username').trim();
          const password = value('login-password');
          if (!username || !password) return 'Give your user name and your password.';
          track('login', conn.login(username, password), form);
          return null;
        },
        el('p', {class: 'hint-text muted'}, 'This browser\'s guest games stay with the guest: register instead to keep them.'));
    const register = make_form(
        'register', 'Register',
        [text_field('register-username', 'User name', {autocomplete: 'username', maxlength: '20',
                                                       'aria-describedby': 'register-username-hint'}),
         el('small', {id: 'register-username-hint', class: 'hint-text muted'},
            '3 to 20 letters, digits, _ or -. It becomes the name others see.'),
         password_field('register-password', 'Password (at least 8 characters)', 'new-password'),
         password_field('register-password2', 'Password again', 'new-password')],
        'Register', (value, form) => {
          const username = value('register-username').trim();
          const password = value('register-password');
          const problem = check_username(username) || check_password(password);
          if (problem) return problem;
          if (password !== value('register-password2')) return 'The two passwords differ.';
          track('register', conn.register(username, password), form);
          return null;
        },
        el('p', {class: 'hint-text muted'}, 'Your games so far, and the seats you hold, stay yours.'));
    const cards = section === 'register' ? [register, login] : [login, register];
    return [
      el('p', {class: 'account-intro'}, `You play as ${name ? `${name}, ` : ''}a guest of this browser. Log in to your account, or ` +
             'register one to play rated games, get a rating and find your games from any browser.'),
      el('div', {class: 'account-forms'}, cards),
    ];
  }

  function account_view() {
    const username = conn.username;
    const logout = el('button', {id: 'logout', type: 'button', onclick: () => log_out(false)}, 'Log out');
    const logout_all =
        el('button', {id: 'logout-all', type: 'button', class: 'danger', onclick: () => log_out(true)},
           'Log out everywhere');
    const logout_error = el('p', {id: 'logout-error', class: 'form-error', role: 'alert', hidden: true});
    const log_out = (everywhere) => {
      if (pending) return;
      logout_error.hidden = true;
      track(everywhere ? 'logout_all' : 'logout', conn.logout(everywhere),
            {error: logout_error, submit: everywhere ? logout_all : logout});
    };
    const change = make_form(
        'password', 'Change the password',
        [password_field('password-old', 'Current password', 'current-password'),
         password_field('password-new', 'New password (at least 8 characters)', 'new-password'),
         password_field('password-new2', 'New password again', 'new-password')],
        'Change the password', (value, form) => {
          const old_password = value('password-old');
          const new_password = value('password-new');
          if (!old_password) return 'Give your current password.';
          const problem = check_password(new_password);
          if (problem) return problem;
          if (new_password !== value('password-new2')) return 'The two new passwords differ.';
          track('change_password', conn.change_password(old_password, new_password), form);
          return null;
        });
    if (mail) mail.dispose();
    mail = account_mail_card(app);
    return [
      el('p', {class: 'account-intro'}, 'Logged in as ', el('strong', {id: 'account-username'}, username), '. ',
         el('a', {id: 'account-profile', href: `#/player/${encodeURIComponent(username)}`},
            'Your ratings and games'),
         '.'),
      el('div', {class: 'account-forms'},
         el('section', {class: 'card account-card', 'aria-labelledby': 'logout-title'},
            el('h2', {id: 'logout-title'}, 'Log out'),
            el('p', {class: 'hint-text muted'},
               'Log out ends this browser\'s session. Log out everywhere ends the sessions of every browser ' +
                   'logged in to this account, this one included.'),
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
    page.replaceChildren(el('h1', {}, 'Account'), status, ...(conn.username ? account_view() : guest_view()));
    document.title = 'Account — Cinq';
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
      finish(`Registered: you are ${message.username}. Your games so far are kept.`);
    } else {
      draw();
    }
  }));
  subscriptions.push(conn.on('welcome', (message) => {
    if (pending && pending.kind === 'login' && message.username) {
      finish(`Welcome back, ${message.username}: you are logged in.`);
    } else if (!pending && who() !== shown) {
      draw();  // who the page is changed (a new guest after a logout): the forms typed in stay otherwise
    }
  }));
  subscriptions.push(conn.on('logged_out', (message) => {
    if (pending && (pending.kind === 'logout' || pending.kind === 'logout_all')) {
      finish(pending.kind === 'logout_all' ? 'Logged out everywhere: you play as a new guest.' :
                                             'Logged out: you play as a new guest.');
    } else {
      if (pending) app.quiet_refs.delete(pending.ref);
      pending = null;
      status_text = message.mine ? '' : 'You were logged out: your account logged out everywhere.';
      draw();
    }
  }));
  subscriptions.push(conn.on('password_changed', () => {
    if (pending && pending.kind === 'change_password') finish('The password is changed.');
  }));

  draw();
  if (section === 'register') page.querySelector('#register-username')?.focus();
  return () => {
    if (pending) app.quiet_refs.delete(pending.ref);
    if (mail) mail.dispose();
    for (const unsubscribe of subscriptions) unsubscribe();
  };
}
