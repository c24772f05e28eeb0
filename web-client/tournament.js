// Tournaments (docs/protocol.md, "Tournaments"): the list (#/tournaments: upcoming, running, finished), the
// form that creates one (#/tournaments/new, for accounts), a tournament's page (#/tournament/ID: its
// standings with their tie-breaks, its rounds and their games, its crosstable; Start, Join, Withdraw),
// followed live through `tournament_watch`; and, on every page, the notice that a round paired the player
// (`tournament_game`), with a link to the game's room.

import {get_json} from './archive.js';
import {game_alert} from './attention.js';
import {error_text} from './errors.js';
import {date_time, duration, number, t} from './i18n.js';
import {OptionsMenu} from './options.js';
import {sound} from './sound.js';
import {clock_label, el, game_title, kClocks, kCorrespondenceDays, kGames, parse_clock_choice} from './ui.js';

const kStatuses = ['open', 'running', 'finished'];
const kFormats = ['swiss', 'roundrobin', 'arena'];
// The list is read again this often while it is on screen (it is not pushed).
const kListRefreshMs = 10000;
// What the form offers first: a pace for one sitting, a few rounds, an hour of arena.
const kDefaultPace = '10+5';
const kDefaultRounds = 3;
const kDefaultArenaMinutes = 60;

// A tournament's pace in words: '10+5' live, '3 days per move' by correspondence.
function pace_text(pace) {
  if (!pace) return '';
  return pace.days ? t('clock.days_per_move', {count: pace.days}) : t('tournament.pace_live', {clock: clock_label(pace)});
}

// Points as the standings write them: 1.5 in the reader's digits.
const points_text = (x) => number(Number(x) || 0, {maximumFractionDigits: 2});

function format_text(format) { return kFormats.includes(format) ? t(`tournament.format.${format}`) : format; }
function status_text(status) { return kStatuses.includes(status) ? t(`tournament.status.${status}`) : status; }

// When it starts or started, in words.
function start_text({status, starts_ms, started_ms}) {
  if (status !== 'open') return started_ms ? t('tournament.started_at', {date: date_time(started_ms)}) : '';
  return starts_ms ? t('tournament.starts_at', {date: date_time(starts_ms)}) : t('tournament.starts_by_hand');
}

// 'Round 2 of 4' (an arena has no rounds: '').
function round_text(format, round, total) {
  if (format === 'arena' || !total) return '';
  return round ? t('tournament.round_of', {round: number(round), total: number(total)}) :
                 t('tournament.rounds', {count: total});
}

// --- the list

export function render_tournaments(root, app) {
  document.title = t('tournament.list.tab_title');
  let destroyed = false;
  const sections = kStatuses.map((status) => {
    const list = el('ul', {class: 'tournament-list', id: `tournaments-${status}`});
    const empty = el('p', {class: 'muted', hidden: true}, t(`tournament.list.empty.${status}`));
    const section = el('section', {class: 'card', 'aria-labelledby': `tournaments-${status}-title`},
                       el('h2', {id: `tournaments-${status}-title`}, t(`tournament.list.title.${status}`)), empty, list);
    return {status, list, empty, section, shown: ''};
  });
  const failed = el('p', {class: 'form-error', role: 'alert', hidden: true}, t('tournament.list.load_failed'));
  const page = el('div', {class: 'tournaments', id: 'tournaments', 'data-state': 'loading'},
                  el('header', {class: 'tournaments-head'}, el('h1', {}, t('tournament.list.title')),
                     el('a', {class: 'button-link', id: 'tournament-new-link', href: '#/tournaments/new'},
                        t('tournament.list.create'))),
                  el('p', {class: 'tournaments-intro muted'}, t('tournament.list.intro')), failed,
                  sections.map((s) => s.section));
  root.append(page);

  const load = async () => {
    const answers = await Promise.all(sections.map((s) => get_json(`/api/tournaments?status=${s.status}`)));
    if (destroyed) return;
    failed.hidden = answers.every(({status}) => status === 200);
    for (const [i, {status, body}] of answers.entries()) {
      if (status !== 200 || !Array.isArray(body)) continue;
      const s = sections[i];
      // Drawn again only when it changed: a line is not replaced under a click.
      const text = JSON.stringify(body);
      if (text === s.shown) continue;
      s.shown = text;
      s.empty.hidden = body.length > 0;
      s.list.replaceChildren(...body.map(summary_row));
    }
    page.dataset.state = 'done';
  };
  load();
  const timer = setInterval(load, kListRefreshMs);
  return () => {
    destroyed = true;
    clearInterval(timer);
  };
}

// A line of the list: the name (a link to its page), then the game, format, pace, entrants, round, start.
function summary_row(s) {
  const meta = [
    game_title(s.game), format_text(s.format), pace_text(s.pace),
    t('tournament.entrants_count', {count: s.entrants || 0}), round_text(s.format, s.round, s.total_rounds),
    start_text({status: s.status, starts_ms: s.starts_ms, started_ms: s.status === 'open' ? null : s.starts_ms}),
  ].filter(Boolean);
  return el('li', {class: 'tournament-row', 'data-tournament': s.id, 'data-status': s.status},
            el('a', {class: 'tournament-link', href: `#/tournament/${s.id}`},
               el('span', {class: 'tournament-name'}, s.name),
               el('span', {class: 'tournament-meta'}, meta.map((text) => el('span', {}, text)),
                  el('span', {class: s.rated ? 'room-rated' : ''}, t(s.rated ? 'tournament.rated' : 'tournament.unrated')))));
}

// --- creating one

export function render_tournament_new(root, app) {
  const {conn} = app;
  document.title = t('tournament.new.tab_title');
  const subscriptions = [];
  const body = el('div', {class: 'tournament-new-body'});
  root.append(el('div', {class: 'tournaments tournament-new', id: 'tournament-new'},
                 el('h1', {}, t('tournament.new.title')),
                 el('p', {class: 'muted'}, el('a', {class: 'back-link', href: '#/tournaments'}, t('tournament.back_to_list'))), body));
  let drawn_for = undefined;
  const draw = () => {
    if (drawn_for === conn.username) return;
    drawn_for = conn.username;
    body.replaceChildren(conn.username ? create_form(app, subscriptions) : log_in_card('tournament.new.log_in'));
  };
  for (const type of ['welcome', 'registered', 'logged_out']) subscriptions.push(conn.on(type, draw));
  draw();
  return () => {
    for (const unsubscribe of subscriptions) unsubscribe();
  };
}

// What a guest is told where an account is needed: log in or register, with both links.
function log_in_card(key) {
  return el('section', {class: 'card tournament-log-in', id: 'tournament-log-in'},
            el('p', {}, t(key)),
            el('div', {class: 'buttons'},
               el('a', {class: 'button-link', href: '#/account'}, t('account.log_in')),
               el('a', {class: 'button-link', href: '#/account/register'}, t('account.register'))));
}

function field(id, label, control, hint = null) {
  return el('div', {class: 'field', 'data-field': id}, el('label', {for: id}, label), control, hint);
}

function check(id, label, control) {
  return el('div', {class: 'check', 'data-field': id}, control, el('label', {for: id}, label));
}

function create_form(app, subscriptions) {
  const {conn} = app;
  const format = el('select', {id: 'tour-format', name: 'tour-format'},
                    kFormats.map((f) => el('option', {value: f}, t(`tournament.format.${f}`))));
  const game = el('select', {id: 'tour-game', name: 'tour-game'},
                  kGames.map((g) => el('option', {value: g.name}, game_title(g.name))));
  const options = new OptionsMenu('tour', game);
  // The paces the lobby's forms offer: a live clock, or days per move by correspondence.
  const live_choices = kClocks.filter((c) => c !== 'none');
  const mail_options = kCorrespondenceDays.map(
      (n) => el('option', {value: `${n}d`}, t('lobby.days_per_move', {count: n})));
  const pace = el('select', {id: 'tour-pace', name: 'tour-pace'},
                  live_choices.map((c) => el('option', {value: c}, t('lobby.clock_choice', {clock: c}))), mail_options);
  pace.value = kDefaultPace;
  const rated = el('input', {id: 'tour-rated', type: 'checkbox'});
  const name = el('input', {id: 'tour-name', type: 'text', maxlength: '32', autocomplete: 'off',
                            placeholder: t('tournament.new.name_placeholder')});
  const rounds = el('input', {id: 'tour-rounds', type: 'number', inputmode: 'numeric', min: '1', max: '100', step: '1',
                              value: String(kDefaultRounds)});
  const double = el('input', {id: 'tour-double', type: 'checkbox'});
  const minutes = el('input', {id: 'tour-duration', type: 'number', inputmode: 'numeric', min: '1', step: '1',
                               value: String(kDefaultArenaMinutes)});
  const by_hand = el('input', {id: 'tour-start-hand', type: 'radio', name: 'tour-start', value: 'hand', checked: true});
  const at_time = el('input', {id: 'tour-start-at', type: 'radio', name: 'tour-start', value: 'at'});
  const when = el('input', {id: 'tour-start-time', type: 'datetime-local', 'aria-label': t('tournament.new.start_time')});
  const error = el('p', {id: 'tour-error', class: 'form-error', role: 'alert', hidden: true});
  const say = (text) => {
    error.textContent = text;
    error.hidden = !text;
  };

  const rounds_field = field('tour-rounds', t('tournament.new.rounds'), rounds);
  const double_field = check('tour-double', t('tournament.new.double'), double);
  const duration_field = field('tour-duration', t('tournament.new.duration'), minutes);
  // Each format's own settings; an arena is live only (the server refuses one by correspondence).
  const follow_format = () => {
    rounds_field.hidden = format.value !== 'swiss';
    double_field.hidden = format.value !== 'roundrobin';
    duration_field.hidden = format.value !== 'arena';
    const arena = format.value === 'arena';
    for (const option of mail_options) option.disabled = arena;
    if (arena && /d$/.test(pace.value)) pace.value = kDefaultPace;
  };
  format.addEventListener('change', follow_format);
  follow_format();
  const follow_start = () => { when.disabled = !at_time.checked; };
  for (const radio of [by_hand, at_time]) radio.addEventListener('change', follow_start);
  when.addEventListener('focus', () => {
    at_time.checked = true;
    follow_start();
  });
  follow_start();

  const submit = el('button', {id: 'tour-submit', type: 'submit', class: 'primary'}, t('tournament.new.submit'));
  // The form checks its fields itself, to say what is wrong in the reader's language.
  const form = el('form', {class: 'card card-form tournament-form', id: 'tournament-form', novalidate: true},
                  field('tour-format', t('tournament.new.format'), format),
                  field('tour-game', t('lobby.game'), game), options.node,
                  field('tour-pace', t('tournament.new.pace'), pace),
                  check('tour-rated', t('tournament.new.rated'), rated),
                  field('tour-name', t('tournament.new.name'), name),
                  rounds_field, double_field, duration_field,
                  el('fieldset', {class: 'checks tournament-start'},
                     el('legend', {}, t('tournament.new.start')),
                     check('tour-start-hand', t('tournament.new.start_by_hand'), by_hand),
                     check('tour-start-at', t('tournament.new.start_at'), at_time), when),
                  error, submit);

  // An error said stays until the form is changed.
  form.addEventListener('input', () => say(''));
  let pending = null;  // the ref of the create waiting for its answer
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    say('');
    const message = {type: 'tournament_create', format: format.value, game: game.value, options: options.text(),
                     rated: rated.checked};
    message.clock = /d$/.test(pace.value) ? {days: parseInt(pace.value, 10)} : parse_clock_choice(pace.value);
    if (name.value.trim()) message.name = name.value.trim();
    if (format.value === 'swiss') {
      const n = Number(rounds.value);
      if (!Number.isInteger(n) || n < 1 || n > 100) return say(t('tournament.new.bad_rounds'));
      message.rounds = n;
    }
    if (format.value === 'roundrobin') message.double = double.checked;
    if (format.value === 'arena') {
      const n = Number(minutes.value);
      if (!Number.isFinite(n) || n < 1) return say(t('tournament.new.bad_duration'));
      message.duration_ms = Math.round(n) * 60000;
    }
    if (at_time.checked) {
      const start = new Date(when.value).getTime();
      if (!when.value || !Number.isFinite(start)) return say(t('tournament.new.bad_start'));
      message.start_ms = start;
    }
    pending = conn.send(message);
    if (pending === null) return say(t('shell.not_connected'));
    app.quiet_refs.add(pending);
    submit.disabled = true;
  });
  const done = (m) => {
    if (pending === null || m.ref !== pending) return false;
    app.quiet_refs.delete(pending);
    pending = null;
    submit.disabled = false;
    return true;
  };
  subscriptions.push(conn.on('tournament', (m) => {
    if (done(m) && m.tournament) app.navigate(`#/tournament/${m.tournament.id}`);
  }));
  subscriptions.push(conn.on('error', (m) => {
    if (done(m)) say(error_text(m.code, m.message));
  }));
  return form;
}

// --- a tournament's page

export function render_tournament(root, app, id) {
  const {conn} = app;
  const subscriptions = [];
  let shown = null;  // the TOURNAMENT drawn, the newest version heard
  let watch_ref = null;
  const asked = new Set();  // refs of this page's Start, Join and Withdraw: their refusals show here
  const error = el('p', {id: 'tournament-error', class: 'form-error', role: 'alert', hidden: true});
  const page = el('div', {class: 'tournament-page', id: 'tournament', 'data-tournament': id, 'data-state': 'loading'},
                  el('p', {class: 'muted'}, t('tournament.loading')));
  root.append(page);
  document.title = t('tournament.list.tab_title');

  const watch = () => {
    watch_ref = conn.send({type: 'tournament_watch', tournament: id});
    if (watch_ref !== null) app.quiet_refs.add(watch_ref);
  };
  const command = (type) => {
    error.hidden = true;
    const ref = conn.send({type, tournament: id});
    if (ref === null) {
      error.textContent = t('shell.not_connected');
      error.hidden = false;
      return;
    }
    asked.add(ref);
    app.quiet_refs.add(ref);
  };
  const draw = () => {
    if (!shown) return;
    page.dataset.state = 'done';
    page.dataset.status = shown.status;
    page.dataset.version = String(shown.version);
    page.dataset.round = String(shown.round || 0);
    page.replaceChildren(...tournament_view(shown, app, command, error));
    document.title = t('tournament.tab_title', {name: shown.name});
  };
  subscriptions.push(conn.on('tournament', (m) => {
    const tour = m.tournament;
    if (m.ref !== undefined) {
      const mine = asked.delete(m.ref);
      if (mine) error.hidden = true;  // done: an earlier refusal no longer holds
      if (mine || m.ref === watch_ref) app.quiet_refs.delete(m.ref);
    }
    if (!tour || tour.id !== id || (shown && tour.version < shown.version)) return;
    shown = tour;
    draw();
  }));
  subscriptions.push(conn.on('error', (m) => {
    if (m.ref === undefined) return;
    if (m.ref === watch_ref) {
      app.quiet_refs.delete(m.ref);
      if (m.code === 'no_tournament') {
        page.dataset.state = 'missing';
        page.replaceChildren(el('div', {class: 'card missing'}, el('h1', {}, t('tournament.missing')),
                                el('a', {class: 'back-link', href: '#/tournaments'}, t('tournament.back_to_list'))));
      } else if (!shown) {
        // Not read (the store was busy): said, and asked again in a moment.
        page.replaceChildren(el('p', {class: 'form-error', role: 'alert'}, error_text(m.code, m.message)));
        setTimeout(() => { if (!shown && subscriptions.length) watch(); }, 2000);
      }
      return;
    }
    if (!asked.delete(m.ref)) return;
    app.quiet_refs.delete(m.ref);
    error.textContent = error_text(m.code, m.message);
    error.hidden = false;
  }));
  // A reconnection ends the watch on the server: asked again; a login changes the buttons.
  subscriptions.push(conn.on_ready(watch));
  for (const type of ['welcome', 'registered', 'logged_out']) subscriptions.push(conn.on(type, draw));
  return () => {
    for (const unsubscribe of subscriptions) unsubscribe();
    subscriptions.length = 0;
    conn.send({type: 'tournament_unwatch', tournament: id});
  };
}

// The page's parts for the TOURNAMENT `tour`.
function tournament_view(tour, app, command, error) {
  const {conn} = app;
  const spec = tour.spec || {};
  const me = conn.player_id;
  const entrant = (tour.entrants || []).find((e) => e.id === me) || null;
  const active = entrant && !entrant.withdrawn;
  const arena = spec.format === 'arena';
  const facts = [
    [t('lobby.game'), game_title(spec.game) + (spec.options ? ` (${spec.options})` : '')],
    [t('tournament.new.format'), format_text(spec.format) +
        (spec.format === 'roundrobin' && spec.double_round_robin ? t('tournament.double_suffix') : '')],
    [t('tournament.new.pace'), pace_text(spec.pace)],
    [t('tournament.rated_label'), t(spec.rated ? 'tournament.rated' : 'tournament.unrated')],
    [t('tournament.status_label'), status_text(tour.status)],
    [t('tournament.start_label'), tour.started_ms ? date_time(tour.started_ms) :
        spec.start_ms ? date_time(spec.start_ms) : t('tournament.starts_by_hand')],
    arena && spec.duration_ms ? [t('tournament.new.duration_label'), duration(spec.duration_ms)] : null,
    arena && tour.ends_ms ? [t('tournament.ends_label'), date_time(tour.ends_ms)] : null,
    round_text(spec.format, tour.round, tour.total_rounds) ? [t('tournament.round_label'),
        round_text(spec.format, tour.round, tour.total_rounds)] : null,
    [t('tournament.entrants_label'), number((tour.entrants || []).filter((e) => !e.withdrawn).length)],
  ].filter((fact) => fact && fact[1]);

  // Start (its creator, before the start), Join and Withdraw (an account), or how a guest takes part.
  const actions = [];
  if (conn.username) {
    if (tour.status === 'open' && spec.creator === me) {
      actions.push(el('button', {id: 'tournament-start', type: 'button', class: 'primary',
                                 onclick: () => command('tournament_start')}, t('tournament.start')));
    }
    if (tour.status !== 'finished' && (!active || entrant.absent)) {
      actions.push(el('button', {id: 'tournament-join', type: 'button', class: active ? '' : 'primary',
                                 onclick: () => command('tournament_join')},
                      t(entrant && entrant.absent && !entrant.withdrawn ? 'tournament.rejoin' : 'tournament.join')));
    }
    if (tour.status !== 'finished' && active) {
      actions.push(el('button', {id: 'tournament-withdraw', type: 'button', class: 'danger',
                                 onclick: () => command('tournament_withdraw')}, t('tournament.withdraw')));
    }
  }
  const my_state = !entrant ? null : entrant.withdrawn ? 'withdrawn' : entrant.absent ? 'absent' : 'in';
  const head = el('section', {class: 'card tournament-head'},
                  el('h1', {id: 'tournament-name'}, tour.name),
                  el('dl', {class: 'tournament-facts'},
                     facts.map(([term, text]) => el('div', {}, el('dt', {}, term), el('dd', {}, text)))),
                  my_state ? el('p', {id: 'tournament-me', class: 'tournament-me', 'data-me': my_state},
                                t(`tournament.me.${my_state}`)) : null,
                  actions.length ? el('div', {class: 'buttons tournament-actions'}, actions) : null,
                  conn.username || tour.status === 'finished' ? null :
                      el('p', {class: 'hint-text muted', id: 'tournament-guest'}, t('tournament.guest'),
                         el('a', {href: '#/account'}, t('tournament.guest_log_in')), t('tournament.guest_or'),
                         el('a', {href: '#/account/register'}, t('tournament.guest_register')), t('tournament.guest_end')),
                  error,
                  el('p', {class: 'muted'}, el('a', {class: 'back-link', href: '#/tournaments'}, t('tournament.back_to_list'))));
  const parts = [head];
  if (tour.status === 'open') {
    parts.push(entrants_card(tour, me));
  } else {
    parts.push(standings_card(tour, me), rounds_card(tour, me), crosstable_card(tour, me));
  }
  return parts;
}

function entrants_card(tour, me) {
  const entrants = (tour.entrants || []).filter((e) => !e.withdrawn);
  return el('section', {class: 'card', 'aria-labelledby': 'tournament-entrants-title'},
            el('h2', {id: 'tournament-entrants-title'}, t('tournament.entrants_title', {count: entrants.length})),
            entrants.length ?
                el('ol', {id: 'tournament-entrants', class: 'tournament-entrants'},
                   entrants.map((e) => el('li', {class: e.id === me ? 'me' : '', 'data-player': e.name},
                                          e.name, ' ', el('span', {class: 'rating-badge'}, String(Math.round(e.rating)))))) :
                el('p', {class: 'muted'}, t('tournament.no_entrants')),
            el('p', {class: 'hint-text muted'}, t('tournament.entrants_hint')));
}

// A table of `rows` under `head` (header keys, `num` for figures), scrolling sideways inside its box.
function table(id, columns, rows) {
  return el('div', {class: 'table-wrap'},
            el('table', {id, class: 'data-table'},
               el('thead', {}, el('tr', {}, columns.map(([text, num, title]) =>
                   el('th', {scope: 'col', class: num ? 'num' : '', title: title || null}, text)))),
               el('tbody', {}, rows)));
}

function standings_card(tour, me) {
  const arena = tour.spec.format === 'arena';
  const columns = arena ?
      [[t('tournament.col.rank'), true], [t('tournament.col.player')], [t('tournament.col.points'), true],
       [t('tournament.col.wins'), true], [t('tournament.col.games'), true]] :
      [[t('tournament.col.rank'), true], [t('tournament.col.player')], [t('tournament.col.points'), true],
       [t('tournament.col.buchholz'), true, t('tournament.col.buchholz_title')],
       [t('tournament.col.sb'), true, t('tournament.col.sb_title')], [t('tournament.col.wins'), true],
       [t('tournament.col.games'), true]];
  const rows = (tour.standings || []).map((s) => el(
      'tr', {class: s.player === me ? 'me' : '', 'data-player': s.name},
      el('td', {class: 'num'}, number(s.rank)),
      el('th', {scope: 'row'}, s.name, s.withdrawn ? el('span', {class: 'muted'}, t('tournament.withdrawn_tag')) : null,
         s.on_streak ? el('span', {class: 'room-rated'}, t('tournament.streak_tag')) : null),
      el('td', {class: 'num', 'data-points': String(s.points)}, points_text(s.points)),
      arena ? null : el('td', {class: 'num'}, points_text(s.buchholz)),
      arena ? null : el('td', {class: 'num'}, points_text(s.sonneborn_berger)),
      el('td', {class: 'num'}, number(s.wins)), el('td', {class: 'num'}, number(s.games))));
  return el('section', {class: 'card', 'aria-labelledby': 'tournament-standings-title'},
            el('h2', {id: 'tournament-standings-title'}, t('tournament.standings')),
            table('tournament-standings', columns, rows),
            el('p', {class: 'hint-text muted'}, t(arena ? 'tournament.standings_hint_arena' : 'tournament.standings_hint')));
}

// A game's result in words, by the names of its seats.
function result_text(game) {
  const [first, second] = (game.seats || []).map((s) => (s ? s.name : ''));
  switch (game.result) {
    case '1-0': return t('tournament.result.won', {name: first});
    case '0-1': return t('tournament.result.won', {name: second});
    case '1/2-1/2': return t('tournament.result.draw');
    case '1-0 forfeit': return t('tournament.result.forfeit', {name: first});
    case '0-1 forfeit': return t('tournament.result.forfeit', {name: second});
    case '0-0 forfeit': return t('tournament.result.double_forfeit');
    default: return t('tournament.result.pending');
  }
}

function rounds_card(tour, me) {
  const arena = tour.spec.format === 'arena';
  // The newest round first: it is the one being played.
  const rounds = [...(tour.rounds || [])].reverse();
  const game_row = (game) => {
    const mine = (game.seats || []).some((s) => s && s.id === me);
    const pending = game.result === 'pending';
    const link = game.room ?
        el('a', {class: `button-link tournament-room${mine && pending ? '' : ' quiet'}`, href: `#/room/${game.room}`,
                 'data-room': game.room},
           t(mine && pending ? 'tournament.play' : pending ? 'tournament.watch' : 'tournament.see_game')) :
        el('span', {class: 'muted'}, t('tournament.room_coming'));
    const [first, second] = game.seats || [];
    return el('li', {class: 'tournament-game', 'data-game': game.id, 'data-result': game.result},
              el('span', {class: 'tournament-board'}, arena ? null : t('tournament.board', {board: number(game.board)})),
              el('span', {class: 'tournament-players'}, first ? first.name : '', t('lobby.versus'), second ? second.name : ''),
              el('span', {class: `tournament-result${pending ? ' muted' : ''}`}, result_text(game)), link);
  };
  const rest_row = (rest) => el('li', {class: 'tournament-rest', 'data-kind': rest.kind},
                                t(`tournament.rest.${rest.kind === 'bye' ? 'bye' : 'absent'}`, {name: rest.player.name}));
  return el('section', {class: 'card', 'aria-labelledby': 'tournament-rounds-title', id: 'tournament-rounds'},
            el('h2', {id: 'tournament-rounds-title'}, t(arena ? 'tournament.games' : 'tournament.rounds_title')),
            rounds.length ? null : el('p', {class: 'muted'}, t('tournament.no_rounds')),
            rounds.map((round) => el(
                'div', {class: 'tournament-round', 'data-round': String(round.round)},
                arena ? null : el('h3', {}, t('tournament.round', {round: number(round.round)})),
                el('ul', {class: 'tournament-games'}, (round.games || []).map(game_row), (round.rests || []).map(rest_row)))));
}

function crosstable_card(tour, me) {
  const arena = tour.spec.format === 'arena';
  const rows = tour.crosstable || [];
  const width = Math.max(0, ...rows.map((row) => (row.cells || []).length));
  const columns = [[t('tournament.col.rank'), true], [t('tournament.col.player')],
                   ...Array.from({length: width}, (_, i) => [arena ? number(i + 1) : t('tournament.col.round', {round: number(i + 1)}), false]),
                   [t('tournament.col.points'), true]];
  const body = rows.map((row) => el(
      'tr', {class: row.player === me ? 'me' : '', 'data-player': row.name},
      el('td', {class: 'num'}, number(row.rank)), el('th', {scope: 'row'}, row.name),
      Array.from({length: width}, (_, i) => {
        const cell = (row.cells || [])[i];
        return el('td', {class: `cross-cell cross-${cell ? cell.kind : 'none'}`}, el('code', {}, cell ? cell.text : ''));
      }),
      el('td', {class: 'num'}, points_text(row.points))));
  const legend = [['+5F', 'win'], ['=3S', 'draw'], ['-7F', 'loss'], ['?2S', 'pending'], ['!', 'forfeit'],
                  ['bye', 'bye'], ['abs', 'absent'], ['.', 'none']];
  return el('section', {class: 'card', 'aria-labelledby': 'tournament-crosstable-title'},
            el('h2', {id: 'tournament-crosstable-title'}, t('tournament.crosstable')),
            table('tournament-crosstable', columns, body),
            el('ul', {class: 'cross-legend', id: 'tournament-legend'},
               legend.map(([code, key]) => el('li', {}, el('code', {}, code), ' ', t(`tournament.legend.${key}`)))));
}

// --- the notice of a paired game, on every page

// Once per page (app.js): each `tournament_game` shows a notice above the page with a link to the game's
// room, chimes, and alerts a hidden tab (attention.js); the notice goes when its room is opened or closed.
export function install_tournament_notices(app) {
  const area = el('div', {id: 'tournament-notices', class: 'tournament-notices', 'aria-live': 'polite'});
  const main = document.getElementById('app');
  if (main) main.before(area);
  else document.body.append(area);
  const clear_opened = () => {
    for (const item of area.querySelectorAll('.tournament-notice')) {
      if (location.hash === `#/room/${item.dataset.room}`) item.remove();
    }
  };
  app.conn.on('tournament_game', (m) => {
    if (!m.room) return;
    for (const old of area.querySelectorAll('.tournament-notice')) {
      if (old.dataset.game === m.game) old.remove();
    }
    const text = m.round ?
        t('tournament.notice.ready', {round: number(m.round), name: m.name, opponent: m.opponent ? m.opponent.name : ''}) :
        t('tournament.notice.ready_arena', {name: m.name, opponent: m.opponent ? m.opponent.name : ''});
    const item = el('div', {class: 'tournament-notice', role: 'status', 'data-game': m.game, 'data-room': m.room,
                            'data-tournament': m.tournament, 'data-round': String(m.round || 0)},
                    el('p', {class: 'tournament-notice-text'}, text),
                    el('a', {class: 'button-link tournament-notice-play', href: `#/room/${m.room}`}, t('tournament.notice.play')),
                    el('a', {class: 'tournament-notice-page', href: `#/tournament/${m.tournament}`}, t('tournament.notice.page')));
    item.append(el('button', {type: 'button', class: 'tournament-notice-close', title: t('tournament.notice.close'),
                              'aria-label': t('tournament.notice.close'), onclick: () => item.remove()}, '\u00d7'));
    area.append(item);
    sound.play('turn');
    game_alert(m.room, t('tournament.notice.title', {name: m.name}), text);
    clear_opened();
  });
  window.addEventListener('hashchange', clear_opened);
}
