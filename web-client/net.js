// The one WebSocket connection of the page: identity (hello/welcome) and the protocol version check, a
// dispatcher by message type, and reconnection with backoff. Pages never touch the socket; they subscribe
// with on() and on_ready().
// Accounts: the identity kept in localStorage is {id, token, name, username}, `username` only for an
// account. `login` answers a `welcome` with the account's id and token (stored as a guest's are); after
// `logged_out` (this browser's logout, or a "log out everywhere" from anywhere) the page forgets them and
// starts over on a new connection as a new guest: a connection says hello once.

import {t} from './i18n.js';

// The protocol version this page speaks (docs/protocol.md): the server says its own in `welcome`.
const kProtocol = 2;

const kIdentityKey = 'cinq.identity';
const kBackoffMs = [500, 1000, 2000, 4000, 5000];

export function load_identity() {
  try {
    const identity = JSON.parse(localStorage.getItem(kIdentityKey) || 'null');
    return identity && typeof identity === 'object' ? identity : null;
  } catch {
    return null;
  }
}

function store_identity(identity) {
  if (identity) {
    localStorage.setItem(kIdentityKey, JSON.stringify(identity));
  } else {
    localStorage.removeItem(kIdentityKey);
  }
}

export class Connection {
  constructor(url) {
    this.url_ = url;
    this.socket_ = null;
    this.ready_ = false;
    this.attempt_ = 0;
    this.handlers_ = new Map();  // type -> Set of functions; '*' receives every message
    this.ready_handlers_ = new Set();
    this.identity_ = load_identity();
    this.next_ref_ = 1;
    this.reconnect_timer_ = null;
    this.refused_ = null;  // the server's protocol version when it is not ours: the page stops there
    this.logging_out_ = false;  // this page asked to log out: the `logged_out` is its answer
    // Another tab of this browser logged in, registered or logged out: this one follows, so that it never
    // stores its older identity over the newer one (a tab that missed a login would undo it at its next
    // welcome). Guests' tabs stay as they are: two tabs that became new guests at once do not swap forever.
    window.addEventListener('storage', (e) => {
      if (e.key !== kIdentityKey || this.refused_ !== null) return;
      const next = load_identity();
      if (!next || !next.id || !next.token) return;  // a logout clears it first: the new guest follows
      const who = (identity) => (identity && identity.username ? `account ${identity.username} ${identity.id}` : 'guest');
      if (who(next) === who(this.identity_)) return;
      this.identity_ = next;
      this.restart_();
    });
  }

  get ready() { return this.ready_; }
  get identity() { return this.identity_; }
  get player_id() { return this.identity_ ? this.identity_.id : null; }
  // The account's user name, or null for a guest.
  get username() { return (this.identity_ && this.identity_.username) || null; }

  connect() {
    clearTimeout(this.reconnect_timer_);
    const socket = new WebSocket(this.url_);
    this.socket_ = socket;
    socket.addEventListener('open', () => this.hello_());
    socket.addEventListener('message', (e) => this.on_message_(e.data));
    // 'error' is always followed by 'close', which is where we reconnect.
    socket.addEventListener('close', () => {
      if (this.socket_ !== socket) return;
      this.socket_ = null;
      this.ready_ = false;
      if (this.refused_ !== null) return;  // no reconnecting to a server we cannot talk to
      set_banner(true);
      this.schedule_reconnect_();
    });
  }

  // Sends a message if the connection is up; returns its ref, or null when it could not be sent (the
  // caller tells the user: nothing is queued, so a stale move is never played after a reconnect).
  send(message) {
    if (!this.ready_ || !this.socket_) return null;
    const ref = this.next_ref_++;
    this.socket_.send(JSON.stringify({...message, ref}));
    return ref;
  }

  // fn(message) for each message of this type ('*' for all). Returns the unsubscribe function.
  on(type, fn) {
    if (!this.handlers_.has(type)) this.handlers_.set(type, new Set());
    this.handlers_.get(type).add(fn);
    return () => this.handlers_.get(type).delete(fn);
  }

  // fn(reconnected) now if the connection is ready, and after every later welcome. Returns unsubscribe.
  on_ready(fn) {
    this.ready_handlers_.add(fn);
    if (this.ready_) fn(false);
    return () => this.ready_handlers_.delete(fn);
  }

  rename(name) { return this.send({type: 'name', name}); }

  // Account commands (each returns its ref, or null when not connected). Their answers come to on():
  // `registered`, `welcome` (login), `logged_out`, `password_changed`, or an `error` with the ref.
  register(username, password) { return this.send({type: 'register', username, password}); }
  login(username, password) { return this.send({type: 'login', username, password}); }
  logout(everywhere = false) {
    const ref = this.send({type: everywhere ? 'logout_all' : 'logout'});
    if (ref !== null) this.logging_out_ = true;
    return ref;
  }
  change_password(old_password, new_password) {
    return this.send({type: 'change_password', old: old_password, new: new_password});
  }

  hello_() {
    const hello = {type: 'hello'};
    if (this.identity_ && this.identity_.id && this.identity_.token) {
      hello.id = this.identity_.id;
      hello.token = this.identity_.token;
    }
    if (this.identity_ && this.identity_.name) hello.name = this.identity_.name;
    this.socket_.send(JSON.stringify(hello));
  }

  on_message_(data) {
    if (this.refused_ !== null) return;
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (!message || typeof message !== 'object') return;
    if (message.type === 'welcome') {
      this.on_welcome_(message);
      return;
    }
    if (message.type === 'registered') {
      // The guest became an account, same id and token: its name is now the user name.
      this.identity_ = {...this.identity_, username: message.username, name: message.name || message.username};
      store_identity(this.identity_);
      this.dispatch_('registered', message);
      return;
    }
    if (message.type === 'logged_out') {
      this.on_logged_out_(message);
      return;
    }
    if (message.type === 'error' && message.code === 'banned' && !this.ready_) {
      // The stored account is banned (docs/protocol.md "Moderation"): said, and the page goes on as a new guest.
      this.identity_ = null;
      store_identity(null);
      this.dispatch_('banned', message);
      this.hello_();
      return;
    }
    if (message.type === 'error' && message.code === 'bad_token' && !this.ready_) {
      // The stored identity is unknown here (a new database): start over as a new guest, keeping the name;
      // an account's session that ended elsewhere (logged out everywhere) starts over as a first visit does.
      const name = this.identity_ && !this.identity_.username && this.identity_.name;
      this.identity_ = name ? {name} : null;
      store_identity(null);
      this.hello_();
      return;
    }
    this.dispatch_(message.type, message);
  }

  on_welcome_(message) {
    // The answer to hello says which protocol the server speaks (version 1 did not say).
    if (!this.ready_ && (message.protocol ?? 1) !== kProtocol) {
      this.refuse_(message.protocol ?? 1);
      return;
    }
    const token = message.token || (this.identity_ && this.identity_.token);
    // A guest's welcome names the player in `player`; a login's may give `id` and `name` beside `token`.
    const player = message.player || {id: message.id, name: message.name};
    const id = player.id || (this.identity_ && this.identity_.id);
    // Who the connection is: a hello's or a login's answer (they carry the token) says whether it is an
    // account; a rename's answer (no token) keeps what was known unless it says.
    const previous = this.identity_ && this.identity_.id === id ? this.identity_.username || null : null;
    const username = message.username || (message.token ? null : previous);
    this.identity_ = {id, token, name: player.name ?? (this.identity_ && this.identity_.name), username};
    if (!username) delete this.identity_.username;
    store_identity(this.identity_);
    const first = !this.ready_;
    this.ready_ = true;
    if (first) {
      const reconnected = this.attempt_ > 0 || this.was_ready_;
      this.attempt_ = 0;
      this.was_ready_ = true;
      set_banner(false);
      for (const fn of [...this.ready_handlers_]) fn(reconnected);
    }
    this.dispatch_('welcome', message);
  }

  // This browser's session ended (its own logout, or the account logged out everywhere): forget the id and
  // token and come back as a new guest, as a first visit does, on a new connection.
  on_logged_out_(message) {
    const mine = Boolean(this.logging_out_);
    this.logging_out_ = false;
    this.identity_ = null;
    store_identity(null);
    this.dispatch_('logged_out', {...message, mine});
    this.restart_();
  }

  // Closes the socket and opens a new one at once (no "connection lost" banner): its hello says who the
  // page is now.
  restart_() {
    clearTimeout(this.reconnect_timer_);
    const old = this.socket_;
    this.socket_ = null;
    this.ready_ = false;
    if (old) old.close(1000, 'new identity');
    this.connect();
  }

  dispatch_(type, message) {
    for (const key of [type, '*']) {
      const set = this.handlers_.get(key);
      if (!set) continue;
      for (const fn of [...set]) {
        try {
          fn(message);
        } catch (err) {
          console.error('cinq: handler failed', err);
        }
      }
    }
  }

  // Another protocol version: say so, and stop (a reload fetches the page that matches the server).
  refuse_(version) {
    this.refused_ = version;
    set_banner(false);
    const box = document.getElementById('protocol-mismatch');
    if (box) {
      const reload = document.createElement('button');
      reload.type = 'button';
      reload.textContent = t('shell.reload');
      reload.addEventListener('click', () => location.reload());
      box.replaceChildren(
          t('shell.protocol_mismatch', {server: version, page: kProtocol}), reload);
      box.hidden = false;
    }
    if (this.socket_) this.socket_.close(1000, 'protocol version');
  }

  schedule_reconnect_() {
    const delay = kBackoffMs[Math.min(this.attempt_, kBackoffMs.length - 1)];
    this.attempt_ += 1;
    this.reconnect_timer_ = setTimeout(() => this.connect(), delay);
  }
}

function set_banner(visible) {
  const banner = document.getElementById('banner');
  if (banner) banner.hidden = !visible;
}

export function socket_url() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws`;
}
