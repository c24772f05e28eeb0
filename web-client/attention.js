// Getting the player back when it becomes their turn while they look elsewhere: the page's title changes to
// "(•) Your turn — Cinq" until the tab is seen again, and a browser notification is shown if the player
// allowed them (asked from the header's "Notify me when it is my turn" button, never on load).
//
// A room page knows at once (its events arrive live); it calls turn_alert() (social.js). A page on the lobby
// (or any other page) learns of correspondence games through `my_games`: while the tab is hidden and the
// player has unfinished correspondence games, it asks for `my_games` once a minute (no more often: each
// answer costs the server a store read) unless an answer came meanwhile (the lobby asks on its own).
//
// Hidden means document.visibilityState === 'hidden', read each time it matters (never cached), and a
// `visibilitychange` event ends the alert: browser tests emulate a hidden tab by redefining
// document.visibilityState before the page loads (page.addInitScript) and dispatching that event.

import {t} from './i18n.js';
import {el, game_title} from './ui.js';

// The tab's title while alerting (a function: the language is installed after this module loads).
const alert_title = () => `(\u2022) ${t('attention.title')}`;
const kPollMs = 60000;

let alerting = false;
let base_title = '';
let alert_room = null;         // the room the alert is about (null for a lobby alert)
const notifications = new Set();  // shown and not closed yet

const hidden = () => document.visibilityState === 'hidden';

// The title while alerting. Pages set document.title as they draw (the room at every event, the lobby once):
// a title they set meanwhile becomes the one to restore, and the alert's stays on screen.
function keep_title() {
  if (!alerting || document.title === alert_title()) return;
  base_title = document.title;
  document.title = alert_title();
}

function start_alert(room, title, body) {
  if (!hidden()) return;
  if (!alerting) {
    alerting = true;
    base_title = document.title;
  }
  alert_room = room;
  keep_title();
  show_notification(room, title, body);
}

// Ends the alert: the tab was seen, or (room) the turn is no longer the player's.
function end_alert() {
  if (alerting) {
    alerting = false;
    alert_room = null;
    document.title = base_title;
  }
  for (const notification of notifications) notification.close();
  notifications.clear();
}

function show_notification(room, title, body) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  try {
    // One notification per room: `tag` makes a newer one replace an older one instead of piling up.
    const notification = new Notification(title, {body, tag: `cinq-${room}`});
    notification.onclick = () => {
      window.focus();
      location.hash = `#/room/${room}`;
      notification.close();
    };
    notification.onclose = () => notifications.delete(notification);
    notifications.add(notification);
  } catch {
    // Chrome on Android allows notifications only from a service worker: the title still says it.
  }
}

// A notification's words: 'Tablut against Ben: it is your move.'
function alert_body(game, opponent) {
  return opponent ? t('attention.body_against', {game: game_title(game), name: opponent.name}) :
                    t('attention.body', {game: game_title(game)});
}

// The room page: it became `seat`'s turn in `state` (called by social.js when the player can act again).
export function turn_alert(state, seat) {
  const opponent = (state.seats || [])[1 - seat];
  start_alert(state.room, t('attention.title'), alert_body(state.game, opponent));
}

// A tournament paired the player (tournament.js): the same alert, in the tournament's words.
export function game_alert(room, title, body) {
  start_alert(room, title, body);
}

// The room page: the player can no longer act (they played, or the game ended): the alert about it ends.
export function turn_alert_over(room) {
  if (alerting && alert_room === room) end_alert();
}

// The header button asking for permission to notify; hidden when there is nothing to ask (no Notification
// API, or the player already answered: the browser would not ask again).
function notify_button() {
  const button = el(
      'button', {
        id: 'notify-switch',
        type: 'button',
        class: 'header-switch notify-switch',
        title: t('attention.notify_title'),
      },
      t('attention.notify'), el('span', {class: 'notify-long'}, t('attention.notify_long')));
  const update = () => {
    button.hidden = !('Notification' in window) || Notification.permission !== 'default';
  };
  button.addEventListener('click', async () => {
    try {
      await Notification.requestPermission();
    } catch {
      // An old browser's callback-only form: nothing more to do.
    }
    update();
  });
  update();
  return button;
}

// Watches `my_games` answers for correspondence games that became the player's turn (see the top).
function watch_my_games(app) {
  const {conn} = app;
  let my_turn = null;  // room -> whether it was my turn, as of the last answer (null before the first)
  let correspondence = false;
  let last_answer = 0;
  conn.on('my_games', (message) => {
    last_answer = Date.now();
    const games = message.games || [];
    correspondence = games.some((g) => g.clock && g.clock.days && g.status !== 'finished');
    const next = new Map(games.map((g) => [g.room, Boolean(g.my_turn) && g.status === 'live']));
    if (my_turn && hidden()) {
      for (const game of games) {
        // The room on screen alerts by itself, from its events.
        if (!next.get(game.room) || my_turn.get(game.room) !== false || game.room === app.current_room) continue;
        const opponent = (game.seats || [])[1 - game.my_seat];
        start_alert(game.room, t('attention.title'), alert_body(game.game, opponent));
      }
    }
    my_turn = next;
  });
  const poll = () => {
    if (!hidden() || !conn.ready) return;
    // The first time the tab is hidden without having heard: one answer says whether to keep polling.
    const due = my_turn === null || (correspondence && Date.now() - last_answer >= kPollMs - 5000);
    if (due) conn.send({type: 'my_games'});
  };
  setInterval(poll, kPollMs);
  document.addEventListener('visibilitychange', () => {
    if (hidden() && my_turn === null) poll();
  });
}

// Once per page (app.js, through social.js): the title keeper, the end of alerts when the tab is seen, the
// header's button and the my_games watcher.
export function install_attention(app, header_tools) {
  new MutationObserver(keep_title).observe(document.head, {childList: true, subtree: true, characterData: true});
  document.addEventListener('visibilitychange', () => {
    if (!hidden()) end_alert();
  });
  window.addEventListener('focus', () => {
    if (!hidden()) end_alert();
  });
  header_tools.append(notify_button());
  watch_my_games(app);
}
