// The shell's entry point: one connection for the page, a hash router (#/, #/room/ID, #/import,
// #/help[/GAME]) and the header. Each page is a render(root, app) function returning its cleanup.

import {render_help} from './help.js';
import {render_import} from './import.js';
import {render_lobby} from './lobby.js';
import {Connection, socket_url} from './net.js';
import {render_room} from './room.js';
import {install_social} from './social.js';
import {notify} from './ui.js';

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
  for (const link of document.querySelectorAll('.site-nav a')) {
    // A section's link stays current on its sub-pages (#/help for #/help/tablut).
    const href = link.getAttribute('href');
    const active = !room && (href === hash || (href !== '#/' && hash.startsWith(`${href}/`)));
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
  } else {
    cleanup = render_lobby(root, app);
  }
  window.scrollTo(0, 0);
}

function show_identity() {
  const who = document.getElementById('whoami');
  if (who && conn.identity) who.textContent = conn.identity.name || '';
}

// Errors nobody else handles: shown briefly. Rooms handle their own (they know which room is on screen).
conn.on('error', (message) => {
  if (message.room && message.room === app.current_room) return;
  if (message.code === 'rate_limited') return;
  notify(message.message || message.code);
});
conn.on('welcome', show_identity);
// A seek lives on the connection: remember it so a reconnect can renew it, and follow a pairing anywhere.
conn.on('seeking', (message) => {
  app.seek = message;
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
    const {game, options, clock} = app.seek;
    conn.send({type: 'seek', game, options, clock});
  }
});
conn.on('state', (state) => app.states.set(state.room, state));

// For debugging and browser tests: the connection and app state, read-only by convention.
window.cinqApp = app;
install_social(app);  // social: the header's sound switch and notification button, correspondence alerts

window.addEventListener('hashchange', route);
route();
conn.connect();
