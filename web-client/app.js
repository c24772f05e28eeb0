// The shell's entry point: one connection for the page, a hash router (#/, #/room/ID, #/import,
// #/help[/GAME], #/account[/register], #/player/NAME, #/leaderboard[/GAME][?pool=P], #/archive[?SEARCH],
// #/tournaments, #/tournaments/new, #/tournament/ID, #/moderation) and the header. Each page is a render(root, app) function returning its cleanup.

import {install_account, render_account} from './account.js';
import {render_archive} from './archive.js';
import {error_text} from './errors.js';
import {render_help} from './help.js';
import {chosen_language, kLanguages, language, remember_language, start_language, t} from './i18n.js';
import {render_import} from './import.js';
import {render_leaderboard} from './leaderboard.js';
import {render_moderation} from './moderation.js';
import {render_lobby} from './lobby.js';
import {Connection, socket_url} from './net.js';
import {render_player} from './player.js';
import {render_room} from './room.js';
import {install_social} from './social.js';
import {install_tournament_notices, render_tournament, render_tournament_new, render_tournaments} from './tournament.js';
import {el, load_games, notify} from './ui.js';

// Every text is looked up in the reader's language: its catalog is loaded before anything is drawn.
await start_language();

// The page's own texts (index.html names their keys: data-text for the text, data-label for aria-label).
function fill_static_texts() {
  for (const node of document.querySelectorAll('[data-text]')) node.textContent = t(node.dataset.text);
  for (const node of document.querySelectorAll('[data-label]')) node.setAttribute('aria-label', t(node.dataset.label));
}
fill_static_texts();

const conn = new Connection(socket_url());

const app = {
  conn,
  // A seat to take once the room page has the room's state (set by the lobby's "Sit" buttons).
  pending_sit: null,
  // Latest state seen per room, so the room page can draw at once after create/paired.
  states: new Map(),
  // The room on screen: its page reports the errors about it.
  current_room: null,
  // The room page's own view of its room, {id, state} (read-only, for browser tests): set by room.js.
  room: null,
  seek: null,
  // Refs of commands whose errors a page shows itself (the account forms): no notice for them.
  quiet_refs: new Set(),
  navigate(hash) {
    if (location.hash === hash) {
      route();
    } else {
      location.hash = hash;  // hashchange routes
    }
  },
};

let cleanup = null;

function route() {
  const root = document.getElementById('app');
  if (cleanup) cleanup();
  cleanup = null;
  app.current_room = null;
  root.replaceChildren();
  const hash = location.hash || '#/';
  const room = /^#\/room\/([A-Za-z0-9_-]+)$/.exec(hash);
  const help = /^#\/help(?:\/([a-z-]+))?\/?$/.exec(hash);
  const account = /^#\/account(?:\/(register))?\/?$/.exec(hash);
  const player = /^#\/player\/([^/?#]+)\/?$/.exec(hash);
  const leaderboard = /^#\/leaderboard(?:\/([a-z-]+))?\/?(?:\?(.*))?$/.exec(hash);
  const archive = /^#\/archive\/?(?:\?(.*))?$/.exec(hash);
  const tournament = /^#\/tournament\/([A-Za-z0-9]+)\/?$/.exec(hash);
  for (const link of document.querySelectorAll('.site-nav a')) {
    // A section's link stays current on its sub-pages (#/help for #/help/tablut).
    const href = link.getAttribute('href');
    const active = !room &&
        (href === hash || (href !== '#/' && (hash.startsWith(`${href}/`) || hash.startsWith(`${href}?`))) ||
         (tournament && href === '#/tournaments'));
    if (active) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
  if (room) {
    cleanup = render_room(root, app, room[1]);
  } else if (help) {
    cleanup = render_help(root, app, help[1] || null);
  } else if (hash === '#/import') {
    cleanup = render_import(root, app);
  } else if (account) {
    cleanup = render_account(root, app, account[1] || null);
  } else if (player) {
    cleanup = render_player(root, app, decode(player[1]));
  } else if (leaderboard) {
    cleanup = render_leaderboard(root, app, leaderboard[1] || null, new URLSearchParams(leaderboard[2] || '').get('pool'));
  } else if (archive) {
    cleanup = render_archive(root, app, archive[1] || '');
  } else if (/^#\/moderation\/?$/.test(hash)) {
    cleanup = render_moderation(root, app);
  } else if (/^#\/tournaments\/?$/.test(hash)) {
    cleanup = render_tournaments(root, app);
  } else if (/^#\/tournaments\/new\/?$/.test(hash)) {
    cleanup = render_tournament_new(root, app);
  } else if (tournament) {
    cleanup = render_tournament(root, app, tournament[1]);
  } else {
    cleanup = render_lobby(root, app);
  }
  window.scrollTo(0, 0);
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

// The header's name: a guest's name, or an account's user name linking to its player page.
function show_identity() {
  const who = document.getElementById('whoami');
  if (!who || !conn.identity) return;
  const username = conn.username;
  if (username) {
    const name = conn.identity.name && conn.identity.name !== username ? ` (${conn.identity.name})` : '';
    who.replaceChildren(
        el('a', {id: 'whoami-user', href: `#/player/${encodeURIComponent(username)}`, title: t('header.your_page')},
           username),
        name);
  } else {
    who.textContent = conn.identity.name || '';
  }
}

// The header's menu (a phone's): a button that opens the list of every header link, the account's
// included (Log in, Register or Account, which a phone's header row has no room for beside the name). A
// link followed, or a tap elsewhere, closes it.
function install_menu() {
  const header = document.querySelector('.site-header');
  const button = document.getElementById('menu-button');
  const nav = document.getElementById('site-nav');
  if (!header || !button || !nav) return;
  const account = el('span', {class: 'nav-account'});
  nav.append(account);
  const set_open = (open) => {
    header.classList.toggle('menu-open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', (e) => {
    e.stopPropagation();
    set_open(!header.classList.contains('menu-open'));
  });
  nav.addEventListener('click', (e) => {
    if (e.target.closest('a')) set_open(false);
  });
  document.addEventListener('click', (e) => {
    if (!header.contains(e.target)) set_open(false);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && header.classList.contains('menu-open')) {
      set_open(false);
      button.focus();
    }
  });
  const draw = () => {
    account.replaceChildren(...(conn.username ?
        [el('a', {href: '#/account'}, t('shell.account'))] :
        [el('a', {href: '#/account'}, t('shell.log_in')), el('a', {href: '#/account/register'}, t('shell.register'))]));
  };
  for (const type of ['welcome', 'registered', 'logged_out']) conn.on(type, draw);
  draw();
  window.addEventListener('hashchange', () => set_open(false));
}
install_menu();

// Errors nobody else handles: shown briefly. Rooms handle their own (they know which room is on screen).
conn.on('error', (message) => {
  if (message.ref !== undefined && app.quiet_refs.has(message.ref)) return;
  if (message.room && message.room === app.current_room) return;
  if (message.code === 'rate_limited') return;
  notify(error_text(message.code, message.message));
});
conn.on('welcome', show_identity);
// The moderators' link in the header, by the role `welcome` says (a rename's welcome says none: kept).
function show_role(message) {
  const link = document.getElementById('nav-moderation');
  if (!link) return;
  if (message.type === 'logged_out') link.hidden = true;
  else if (typeof message.role === 'string') link.hidden = message.role !== 'moderator' && message.role !== 'administrator';
}
for (const type of ['welcome', 'logged_out']) conn.on(type, show_role);
// The stored account is banned: said, and the page goes on as a new guest (net.js).
conn.on('banned', (message) => notify(error_text(message.code, message.message)));
conn.on('registered', show_identity);
// A seek lives on the connection: remember it so a reconnect can renew it, and follow a pairing anywhere.
conn.on('seeking', (message) => {
  // What was asked (rated, rating_range) completes what the answer says.
  app.seek = {...(app.seek_sent || {}), ...message};
});
conn.on('unseeked', () => {
  app.seek = null;
});
conn.on('paired', (message) => {
  app.seek = null;
  app.navigate(`#/room/${message.room}`);
});
conn.on_ready((reconnected) => {
  if (reconnected && app.seek) {
    const {game, options, clock, rated, rating_range} = app.seek;
    const seek = {type: 'seek', game, options, clock};
    if (rated && conn.username) {
      seek.rated = true;
      if (rating_range) seek.rating_range = rating_range;
    }
    conn.send(seek);
  }
});
conn.on('state', (state) => app.states.set(state.room, state));

// For debugging and browser tests: the connection and app state, read-only by convention.
window.cinqApp = app;
install_social(app);  // social: the header's sound switch and notification button, correspondence alerts
install_account(app);  // accounts: Log in / Register, or the account's page
install_tournament_notices(app);  // a round paired me: a notice on every page, with the game's room

// The pages need the game table (the games, their titles, sides and options) before the first one shows.
// The account's language (its settings, `mail_settings`: its mails are written in it too). Changed with the
// header's switch while logged in; a page that starts logged in, in a browser where nothing was chosen, takes
// it: once, kept in localStorage, and the page drawn again in it.
function follow_account_language() {
  let asked = null;  // the ref of this page's one question
  conn.on('mail_settings', (m) => {
    if (asked === null || m.ref !== asked) return;
    app.quiet_refs.delete(asked);
    asked = null;
    if (m.language && m.language !== language() && !chosen_language() && kLanguages.some(({code}) => code === m.language)) {
      // Only when kept: in a browser that keeps nothing, each reload would ask and reload again.
      if (remember_language(m.language)) location.reload();
    }
  });
  const ask = () => {
    if (asked !== null || !conn.username || chosen_language()) return;
    asked = conn.send({type: 'mail_settings'});
    if (asked !== null) app.quiet_refs.add(asked);
  };
  conn.on_ready(ask);
  conn.on('welcome', ask);
}
follow_account_language();

// Saves `code` as the account's language; resolves once the server answered (or after a while, if not).
function save_account_language(code) {
  return new Promise((resolve) => {
    const ref = conn.username ? conn.send({type: 'set_mail', language: code}) : null;
    if (ref === null) return resolve();
    app.quiet_refs.add(ref);
    const done = (m) => {
      if (m.ref !== ref) return;
      off_settings();
      off_error();
      clearTimeout(timer);
      app.quiet_refs.delete(ref);
      resolve();
    };
    const off_settings = conn.on('mail_settings', done);
    const off_error = conn.on('error', done);
    const timer = setTimeout(() => done({ref}), 2000);
  });
}

// The header's language switch: the choice is kept (in the account too when logged in), and the page drawn
// again in it.
function install_language_switch() {
  const select = el('select', {id: 'language', class: 'language-switch', 'aria-label': t('language.label'),
                               title: t('language.switch_title')},
                    ...kLanguages.map(({code, name}) => el('option', {value: code, lang: code}, name)));
  select.value = language();
  select.addEventListener('change', async () => {
    remember_language(select.value);
    await save_account_language(select.value);
    location.reload();
  });
  document.querySelector('.site-header').append(select);
  document.querySelector('.whoami-wrap').title = t('header.your_name');
}
install_language_switch();

load_games().catch((error) => notify(t('games.load_failed', {error: error.message}))).then(() => {
  window.addEventListener('hashchange', route);
  route();
});
conn.connect();
