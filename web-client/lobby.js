// The lobby (#/): one-click starts first (a game against the computer, or quick pairing, per game), then
// what the games are, the list of public rooms and my games (refreshed every 3 s), then my name and the full
// forms a click away ("More options": quick pairing, playing the computer, a new room, each with the game's
// options as menus). The one-click tiles are above the fold on a desktop and on a phone.

import {error_text} from './errors.js';
import {date_time, has_text, t} from './i18n.js';
import {OptionsMenu} from './options.js';
import {seat_links_block, time_left_text} from './room-view.js';
import {bot_level_label, chosen_level, clock_label, el, game_about, game_title, help_link, kBotLevels, kClocks, kCorrespondenceDays, kGames, notify, parse_clock_choice, player_label, remember_level} from './ui.js';
import {outcome_for, outcome_kind, parse_result_text, result_sentence, seat_label} from './words.js';

const kRefreshMs = 3000;

// Quick pairing's clock from a one-click tile: ten minutes and five seconds a move, time enough to learn a
// game few people know, short enough to finish at one sitting.
export const kQuickClock = '10+5';

// Whether "More options" (the full forms) was left open: a person who uses them keeps them at hand.
const kMoreKey = 'cinq.lobbyMore';
function more_open() {
  try {
    return localStorage.getItem(kMoreKey) === 'open';
  } catch {
    return false;
  }
}

export function render_lobby(root, app) {
  const {conn} = app;
  // A seat link (`#/room/ID?seat=S&token=T`) lands here (the router knows only `#/room/ID`): the room page
  // takes that seat with its token.
  const link = /^#\/room\/([A-Za-z0-9_-]+)\?(.*)$/.exec(location.hash || '');
  if (link) {
    const query = new URLSearchParams(link[2]);
    const seat = Number(query.get('seat'));
    if ((seat === 0 || seat === 1) && query.get('token')) {
      app.pending_sit = {room: link[1], seat, seat_token: query.get('token')};
    }
    setTimeout(() => app.navigate(`#/room/${link[1]}`));
    return () => {};
  }
  const subscriptions = [];
  let pending_create = null;  // ref of the create we are waiting on
  // A refused create or seek is said beside what sent it (not in a notice that may cover the forms):
  // ref -> the error line of that form or tile block.
  const error_lines = new Map();
  const error_line = (id) => el('p', {id, class: 'form-error', role: 'alert', hidden: true});
  const create_error = error_line('create-error');
  const bot_error = error_line('bot-error');
  const cvc_error = error_line('cvc-error');
  const seek_error = error_line('seek-error');
  const quick_error = error_line('quick-error');
  const watch_error = (ref, line) => {
    if (ref === null) {
      notify(t('shell.not_connected'));
      return;
    }
    for (const node of [create_error, bot_error, cvc_error, seek_error, quick_error]) node.hidden = true;
    app.quiet_refs.add(ref);
    error_lines.set(ref, line);
  };
  const send_create = (message, line) => {
    pending_create = conn.send(message);
    watch_error(pending_create, line);
  };
  const send_seek = (seek, line) => {
    app.seek_sent = seek;
    watch_error(conn.send(seek), line);
  };

  const game_select = (id) =>
      el('select', {id, name: id}, kGames.map((g) => el('option', {value: g.name}, g.title)));
  const clock_select = (id) => el(
      'select', {id, name: id},
      kClocks.map((c) => el('option', {value: c},
                            c === 'none' ? t('lobby.no_clock') : t('lobby.clock_choice', {clock: c}))));

  // --- name
  const name_input = el('input', {
    id: 'name-input',
    type: 'text',
    maxlength: '32',
    autocomplete: 'nickname',
    value: (conn.identity && conn.identity.name) || ''
  });
  const name_form = el('form', {class: 'row-form', id: 'name-form'}, el('label', {for: 'name-input'
                       }, t('lobby.your_name')), name_input,
                       el('button', {id: 'name-save', type: 'submit'}, t('lobby.save')));
  name_form.addEventListener('submit', (e) => {
    e.preventDefault();
    const name = name_input.value.trim();
    if (!name) return;
    if (conn.rename(name) === null) notify(t('shell.not_connected'));
  });

  // --- create
  const create_game = game_select('create-game');
  const create_options = new OptionsMenu('create', create_game);
  const create_clock = clock_select('create-clock');
  create_clock.append(...kCorrespondenceDays.map(
      (n) => el('option', {value: `${n}d`}, t('lobby.days_per_move', {count: n}))));
  const create_seat = seat_select('create-seat', create_game);
  const create_private = el('input', {id: 'create-private', type: 'checkbox'});
  // Rated: for accounts only (the server refuses a guest's, and never rates a game against the computer:
  // that form has no such box).
  const create_rated = el('input', {id: 'create-rated', type: 'checkbox', 'aria-describedby': 'create-rated-hint'});
  const create_rated_hint = rated_hint('create-rated-hint');
  const create_form =
      el('form', {class: 'card-form', id: 'create-form'}, field('create-game', t('lobby.game'), create_game),
         create_options.node,
         field('create-clock', t('lobby.clock'), create_clock), field('create-seat', t('lobby.play_as'), create_seat),
         el('div', {class: 'check'}, create_private,
            el('label',
               {for: 'create-private'
               },
               t('lobby.private'))),
         el('div', {class: 'check'}, create_rated,
            el('label', {for: 'create-rated'}, t('lobby.rated_long'))),
         create_rated_hint,
         el('button', {id: 'create-submit', type: 'submit', class: 'primary'}, t('lobby.create_room')));
  create_form.addEventListener('submit', (e) => {
    e.preventDefault();
    const message = {
      type: 'create',
      game: create_game.value,
      options: create_options.text(),
      clock: /^\d+d$/.test(create_clock.value) ? {days: parseInt(create_clock.value, 10)} :
                                                 parse_clock_choice(create_clock.value),
      private: create_private.checked,
    };
    if (create_rated.checked && !create_rated.disabled) message.rated = true;
    if (create_seat.value !== '') message.seat = Number(create_seat.value);
    send_create(message, create_error);
  });

  // --- computer opponents: a bot takes the other seat at once (levels 0 = random play .. 5)
  const level_select = (id, chosen) => el(
      'select', {id, name: id},
      kBotLevels.map(
          (l) => el('option', {value: String(l), ...(l === chosen ? {selected: ''} : {})}, bot_level_label(l))));
  const bot_game = game_select('bot-game');
  const bot_level = level_select('bot-level', chosen_level());
  bot_level.addEventListener('change', () => remember_level(Number(bot_level.value)));
  const bot_options = new OptionsMenu('bot', bot_game);
  const bot_seat = seat_select('bot-seat', bot_game);
  const bot_clock = clock_select('bot-clock');
  const bot_form =
      el('form', {class: 'card-form', id: 'bot-form'}, field('bot-game', t('lobby.game'), bot_game),
         field('bot-level', t('lobby.level'), bot_level), field('bot-seat', t('lobby.play_as'), bot_seat),
         field('bot-clock', t('lobby.clock'), bot_clock), bot_options.node,
         el('button', {id: 'bot-submit', type: 'submit', class: 'primary'}, t('lobby.play')), bot_error);
  bot_form.addEventListener('submit', (e) => {
    e.preventDefault();
    const message = {
      type: 'create',
      game: bot_game.value,
      options: bot_options.text(),
      bot: Number(bot_level.value),
      clock: parse_clock_choice(bot_clock.value)
    };
    if (bot_seat.value !== '') message.seat = Number(bot_seat.value);
    send_create(message, bot_error);
  });
  // Computer vs computer: two bots, nobody seated; the creator watches (and anyone may, from the list).
  const cvc_game = game_select('cvc-game');
  const cvc_levels = [level_select('cvc-level0', 1), level_select('cvc-level1', 3)];
  const cvc_labels = [el('span', {}), el('span', {})];
  const cvc_form =
      el('form', {class: 'card-form', id: 'cvc-form'}, field('cvc-game', t('lobby.game'), cvc_game),
         field('cvc-level0', cvc_labels[0], cvc_levels[0]), field('cvc-level1', cvc_labels[1], cvc_levels[1]),
         el('button', {id: 'cvc-submit', type: 'submit'}, t('lobby.watch_cvc')), cvc_error);
  // Each bot's level beside the side it plays, in words.
  const name_cvc_sides = () => {
    for (const seat of [0, 1]) {
      cvc_labels[seat].textContent = t('lobby.cvc_level', {side: seat_choice(cvc_game.value, seat)});
    }
  };
  cvc_game.addEventListener('change', name_cvc_sides);
  name_cvc_sides();
  cvc_form.addEventListener('submit', (e) => {
    e.preventDefault();
    send_create({type: 'create', game: cvc_game.value, bots: cvc_levels.map((s) => Number(s.value)), clock: null},
                cvc_error);
  });

  // --- quick pairing
  const seek_game = game_select('seek-game');
  const seek_clock = clock_select('seek-clock');
  const seek_options = new OptionsMenu('seek', seek_game);
  const seek_rated = el('input', {id: 'seek-rated', type: 'checkbox', 'aria-describedby': 'seek-rated-hint'});
  const seek_rated_hint = rated_hint('seek-rated-hint');
  // An optional range of the opponent's rating, for a rated seek: either end may stay open.
  const range_input = (id, label) => el('input', {
    id, type: 'number', inputmode: 'numeric', min: '0', max: String(kRatingMax), step: '50',
    placeholder: t('lobby.range_any'),
    'aria-label': label
  });
  const seek_min = range_input('seek-range-min', t('lobby.range_min'));
  const seek_max = range_input('seek-range-max', t('lobby.range_max'));
  const seek_range = el('div', {class: 'field seek-range', id: 'seek-range'},
                        el('span', {class: 'field-label', id: 'seek-range-label'}, t('lobby.range_label')),
                        el('div', {class: 'range-inputs', role: 'group', 'aria-labelledby': 'seek-range-label'},
                           seek_min, el('span', {'aria-hidden': 'true'}, t('lobby.range_to')), seek_max));
  const seek_status = el('p', {id: 'seek-status', class: 'muted', 'aria-live': 'polite'});
  const seek_cancel = el('button', {id: 'seek-cancel', type: 'button', hidden: true}, t('lobby.cancel'));
  const seek_list = el('ul', {class: 'seek-list'});
  const seek_form =
      el('form', {class: 'card-form', id: 'seek-form'}, field('seek-game', t('lobby.game'), seek_game),
         field('seek-clock', t('lobby.clock'), seek_clock), seek_options.node,
         el('div', {class: 'check'}, seek_rated, el('label', {for: 'seek-rated'}, t('lobby.rated'))), seek_rated_hint,
         seek_range,
         el('div', {class: 'buttons'},
            el('button', {id: 'seek-submit', type: 'submit', class: 'primary'}, t('lobby.find_opponent')),
            seek_cancel),
         seek_status, seek_error);
  // The seeks waiting, listed with the rooms: a click on one plays it.
  const seeks_block = el('div', {class: 'lobby-seeks', id: 'seeks', hidden: true},
                         el('h3', {}, t('lobby.seeks_title')), seek_list);
  const show_seek = () => {
    const seek = app.seek;
    seek_status.textContent =
        seek ? t('lobby.seeking', {game: game_title(seek.game), clock: clock_label(seek.clock), terms: seek_terms(seek)}) :
               '';
    seek_cancel.hidden = !seek;
  };
  seek_form.addEventListener('submit', (e) => {
    e.preventDefault();
    const seek = {
      type: 'seek', game: seek_game.value, options: seek_options.text(), clock: parse_clock_choice(seek_clock.value)
    };
    if (seek_rated.checked && !seek_rated.disabled) {
      seek.rated = true;
      const range = rating_range(seek_min.value, seek_max.value);
      if (range === false) {
        notify(t('lobby.range_wrong', {max: String(kRatingMax)}));
        return;
      }
      if (range) seek.rating_range = range;
    }
    send_seek(seek, seek_error);
  });
  seek_cancel.addEventListener('click', () => conn.send({type: 'unseek'}));
  subscriptions.push(conn.on('seeking', show_seek), conn.on('unseeked', show_seek));
  // The list shows a new seek (mine, without its button) at once rather than at the next refresh.
  subscriptions.push(conn.on('seeking', () => conn.send({type: 'rooms', page: rooms_page})));
  show_seek();
  // A seek in the list is accepted by seeking the same game, options and clock: the server pairs equal seeks.
  app.accept_seek = (seek) => {
    const message = {type: 'seek', game: seek.game, options: seek.options || '', clock: seek.clock || null};
    if (seek.rated) message.rated = true;  // a rated seek pairs with a rated one
    app.seek_sent = message;
    if (conn.send(message) === null) notify(t('shell.not_connected'));
  };

  // --- rooms
  const rooms_list = el('ul', {id: 'rooms', class: 'rooms', 'aria-live': 'off'});
  const rooms_empty = el('p', {class: 'muted'}, t('lobby.no_rooms'));
  // The server lists the public rooms a page at a time, newest first.
  let rooms_page = 1;
  const rooms_newer = el('button', {type: 'button', id: 'rooms-newer', class: 'secondary'}, t('lobby.rooms_newer'));
  const rooms_older = el('button', {type: 'button', id: 'rooms-older', class: 'secondary'}, t('lobby.rooms_older'));
  const rooms_where = el('span', {id: 'rooms-page', class: 'muted'});
  const rooms_pager = el('nav', {class: 'rooms-pager', 'aria-label': t('lobby.rooms_pages')},
                         rooms_newer, rooms_where, rooms_older);
  rooms_pager.hidden = true;
  const turn_page = (by) => {
    rooms_page = Math.max(1, rooms_page + by);
    conn.send({type: 'rooms', page: rooms_page});
  };
  rooms_newer.addEventListener('click', () => turn_page(-1));
  rooms_older.addEventListener('click', () => turn_page(1));
  // The lists are drawn again only when they change: a button is not replaced under a click every 3 s.
  let shown_rooms = '';
  let shown_seeks = '';
  subscriptions.push(conn.on('rooms', (message) => {
    const pages = message.pages || 1;
    rooms_page = message.page || 1;  // the server's: past the last page, the last
    rooms_pager.hidden = pages <= 1;
    rooms_where.textContent = t('lobby.rooms_page', {page: rooms_page, pages});
    rooms_newer.disabled = rooms_page <= 1;
    rooms_older.disabled = rooms_page >= pages;
    const rooms = JSON.stringify([message.rooms || [], conn.username]);
    if (rooms !== shown_rooms) {
      shown_rooms = rooms;
      render_rooms(rooms_list, rooms_empty, message.rooms || [], app);
    }
    const seeks = JSON.stringify([message.seeks || [], app.seek, conn.identity && conn.identity.name]);
    if (seeks !== shown_seeks) {
      shown_seeks = seeks;
      render_seeks(seek_list, message.seeks || [], app);
      seeks_block.hidden = (message.seeks || []).length === 0;
    }
  }));

  // --- my games: the current identity's rooms, those where it is my turn first, with their deadlines
  const my_games_list = el('ul', {id: 'my-games', class: 'rooms my-games'});
  const my_games_empty = el('p', {class: 'muted'}, t('lobby.no_games'));
  let shown_games = '';
  subscriptions.push(conn.on('my_games', (message) => {
    const games = message.games || [];
    const text = JSON.stringify(games);
    if (text === shown_games) return;
    shown_games = text;
    my_games_empty.hidden = games.length > 0;
    my_games_list.replaceChildren(...games.map((g) => my_game_row(g, app)));
  }));

  subscriptions.push(conn.on('state', (state) => {
    if (pending_create === null) return;
    pending_create = null;
    app.navigate(`#/room/${state.room}`);
  }));
  subscriptions.push(conn.on('error', (error) => {
    if (error.ref === pending_create) pending_create = null;
    const line = error_lines.get(error.ref);
    if (!line) return;
    error_lines.delete(error.ref);
    app.quiet_refs.delete(error.ref);
    line.textContent = refusal_text(error);
    line.hidden = false;
  }));
  subscriptions.push(conn.on('welcome', (message) => {
    if (document.activeElement !== name_input && conn.identity) name_input.value = conn.identity.name || '';
  }));
  subscriptions.push(conn.on('registered', () => {
    if (document.activeElement !== name_input) name_input.value = conn.identity.name || '';
  }));
  // Rated play is for accounts: the boxes follow who the page is (a login, a logout, a registration).
  const show_account = () => {
    const account = Boolean(conn.username);
    for (const [box, hint] of [[create_rated, create_rated_hint], [seek_rated, seek_rated_hint]]) {
      box.disabled = !account;
      if (!account) box.checked = false;
      hint.hidden = account;
    }
    seek_range.hidden = !seek_rated.checked;  // the range is a rated seek's
    shown_seeks = '';  // a seek's Play button depends on it too
  };
  seek_rated.addEventListener('change', show_account);
  for (const type of ['welcome', 'registered', 'logged_out']) subscriptions.push(conn.on(type, show_account));
  show_account();

  // What each game is, in one line, with its rules a click away: five games few people know.
  const games_list = el(
      'ul', {class: 'lobby-game-list'},
      kGames.map(
          (g) => el(
              'li', {class: 'lobby-game', 'data-game': g.name}, el('strong', {class: 'lobby-game-title'}, g.title),
              ' ', el('span', {class: 'lobby-game-about'}, game_about(g.name)), ' ', help_link(g.name), ' ',
              el('a', {href: `#/leaderboard/${g.name}`, class: 'leaderboard-link', 'data-leaderboard': g.name},
                 t('lobby.leaderboard')))));

  // --- one-click starts: per game, a game against the computer at the remembered level, or quick pairing
  // with the game's default options and kQuickClock. The computer's level is chosen once above the tiles.
  const quick_level = level_select('quick-level', chosen_level());
  quick_level.addEventListener('change', () => {
    remember_level(Number(quick_level.value));
    bot_level.value = quick_level.value;
  });
  bot_level.addEventListener('change', () => { quick_level.value = bot_level.value; });
  const quick_rows = kGames.map((g) => el(
      'li', {class: 'quick-row', 'data-game': g.name}, el('span', {class: 'quick-game'}, g.title),
      el('button', {
        type: 'button', class: 'quick-bot primary', 'data-quick': 'bot', 'data-game': g.name,
        'aria-label': t('lobby.quick_bot_label', {game: g.title}),
        onclick: () => send_create({type: 'create', game: g.name, options: '', bot: Number(quick_level.value), clock: null},
                                   quick_error),
      }, t('lobby.quick_bot')),
      el('button', {
        type: 'button', class: 'quick-seek', 'data-quick': 'seek', 'data-game': g.name,
        'aria-label': t('lobby.quick_seek_label', {game: g.title, clock: kQuickClock}),
        onclick: () => send_seek({type: 'seek', game: g.name, options: '', clock: parse_clock_choice(kQuickClock)},
                                 quick_error),
      }, t('lobby.quick_seek'))));
  const quick_start = el(
      'section', {class: 'card lobby-quick', id: 'quick-start', 'aria-labelledby': 'quick-title'},
      el('div', {class: 'quick-head'}, el('h2', {id: 'quick-title'}, t('lobby.play_now')),
         el('div', {class: 'quick-level'}, el('label', {for: 'quick-level'}, t('lobby.computer_level')), quick_level)),
      el('p', {class: 'quick-note muted'}, t('lobby.quick_note', {clock: kQuickClock})),
      el('ul', {class: 'quick-list'}, quick_rows), quick_error,
      el('p', {id: 'quick-seek-status', class: 'muted', 'aria-live': 'polite'}));
  const quick_status = quick_start.querySelector('#quick-seek-status');
  const show_quick_seek = () => {
    quick_status.textContent = seek_status.textContent;
    quick_status.hidden = !seek_status.textContent;
    quick_status.append(...(app.seek ? [' ', el('button', {type: 'button', id: 'quick-seek-cancel', onclick: () => conn.send({type: 'unseek'})}, t('lobby.cancel'))] : []));
  };
  subscriptions.push(conn.on('seeking', show_quick_seek), conn.on('unseeked', show_quick_seek));
  show_quick_seek();

  // The full forms, a click away; left open, they stay open next time.
  const more = el('details', {class: 'lobby-more', id: 'more-options', ...(more_open() ? {open: true} : {})},
                  el('summary', {id: 'more-options-summary'}, t('lobby.more_options')));
  more.addEventListener('toggle', () => {
    try {
      localStorage.setItem(kMoreKey, more.open ? 'open' : 'closed');
    } catch {
      // Nothing kept: closed next time.
    }
  });

  // The tiles first; then two columns at desktop width (the lists, then the forms); one on a phone.
  root.append(el(
      'div', {class: 'lobby'},
      el('header', {class: 'lobby-head'}, el('h1', {id: 'lobby-title'}, t('lobby.title')),
         el('p', {class: 'lobby-intro'}, t('lobby.intro'))),
      quick_start,
      el('section', {class: 'card lobby-games', 'aria-labelledby': 'games-title'},
         el('h2', {id: 'games-title'}, t('lobby.games')), games_list,
         el('p', {class: 'lobby-archive'}, t('lobby.finished_games'),
            el('a', {id: 'lobby-archive-link', href: '#/archive'}, t('lobby.search_archive')),
            conn.username ? [t('lobby.archive_and'),
                             el('a', {href: `#/player/${encodeURIComponent(conn.username)}`}, t('lobby.your_ratings'))] :
                            null,
            t('lobby.archive_end'))),
      el('div', {class: 'lobby-lists'},
         el('section', {class: 'card lobby-rooms', 'aria-labelledby': 'rooms-title'},
            el('h2', {id: 'rooms-title'}, t('lobby.rooms')), seeks_block, rooms_empty, rooms_list,
            rooms_pager),
         el('section', {class: 'card lobby-my-games', 'aria-labelledby': 'my-games-title'},
            el('h2', {id: 'my-games-title'}, t('lobby.my_games')), my_games_empty, my_games_list)),
      el('div', {class: 'lobby-forms'}, el('section', {class: 'card lobby-name'}, name_form),
         el('div', {class: 'card lobby-more-card'}, more),
         el('div', {class: 'lobby-more-forms'},
            el('section', {class: 'card lobby-seek', 'aria-labelledby': 'seek-title'},
               el('h2', {id: 'seek-title'}, t('lobby.quick_pairing')), seek_form),
            el('section', {class: 'card lobby-bot', 'aria-labelledby': 'bot-title'},
               el('h2', {id: 'bot-title'}, t('lobby.play_computer')), bot_form,
               el('h3', {id: 'cvc-title'}, t('lobby.cvc')), cvc_form),
            el('section', {class: 'card lobby-create', 'aria-labelledby': 'create-title'},
               el('h2', {id: 'create-title'}, t('lobby.new_room')), create_form)))));
  // The forms show while "More options" is open.
  const more_forms = root.querySelector('.lobby-more-forms');
  const follow_more = () => { more_forms.hidden = !more.open; };
  more.addEventListener('toggle', follow_more);
  follow_more();

  const refresh = () => {
    conn.send({type: 'rooms', page: rooms_page});
    conn.send({type: 'my_games'});
  };
  subscriptions.push(conn.on_ready(refresh));
  const timer = setInterval(refresh, kRefreshMs);
  const deadline_timer = setInterval(() => tick_deadlines(root), 1000);
  document.title = t('lobby.tab_title');

  return () => {
    clearInterval(timer);
    clearInterval(deadline_timer);
    for (const unsubscribe of subscriptions) unsubscribe();
  };
}

// A seat as the forms offer it, by the side it plays: 'Attackers (A)'; Bi-litaire's players by number.
function seat_choice(game, seat) {
  if (game === 'bi-litaire') return t(seat === 0 ? 'lobby.bilitaire_first' : 'lobby.bilitaire_second');
  return seat_label({game}, seat) || t(seat === 0 ? 'lobby.seat_first' : 'lobby.seat_second');
}

// "Play as": random or a seat, named by its side in the game chosen in `game_select` (kept in step with it).
function seat_select(id, game_select) {
  const options = [0, 1].map((seat) => el('option', {value: String(seat)}));
  const select = el('select', {id, name: id}, el('option', {value: ''}, t('lobby.random')), options);
  const name_sides = () => {
    for (const [seat, option] of options.entries()) option.textContent = seat_choice(game_select.value, seat);
  };
  game_select.addEventListener('change', name_sides);
  name_sides();
  return select;
}

function field(id, label, control, hint) {
  return el('div', {class: 'field'}, el('label', {for: id
            }, label), control, hint);
}

// The highest rating a seek's range may name.
const kRatingMax = 4000;

// What a guest sees under a Rated box: rated play needs an account.
function rated_hint(id) {
  return el('small', {id, class: 'hint-text muted'}, el('a', {href: '#/account'}, t('lobby.rated_hint_log_in')),
            t('lobby.rated_hint_or'), el('a', {href: '#/account/register'}, t('lobby.rated_hint_register')),
            t('lobby.rated_hint_end'));
}

// A seek's range from the form's two fields: null when both are empty, false when they make no range, else
// [min, max] (an open end is 0 or kRatingMax).
export function rating_range(min_text, max_text) {
  const read = (text, open) => {
    const trimmed = String(text || '').trim();
    if (!trimmed) return open;
    const n = Number(trimmed);
    return Number.isFinite(n) && n >= 0 && n <= kRatingMax ? Math.round(n) : NaN;
  };
  if (!String(min_text || '').trim() && !String(max_text || '').trim()) return null;
  const min = read(min_text, 0);
  const max = read(max_text, kRatingMax);
  if (Number.isNaN(min) || Number.isNaN(max) || min > max) return false;
  return [min, max];
}

// ', rated, 1400–1700' for a rated seek (with its range), '' otherwise.
function seek_terms(seek) {
  if (!seek || !seek.rated) return '';
  if (Array.isArray(seek.rating_range) && seek.rating_range.length === 2) {
    return t('lobby.seek_rated_range', {min: String(seek.rating_range[0]), max: String(seek.rating_range[1])});
  }
  return t('lobby.seek_rated');
}

// A room's status in words ('waiting', 'live'...); a status this page does not know shows as the server says it.
function status_text(status) {
  return has_text(`lobby.status.${status}`) ? t(`lobby.status.${status}`) : status;
}

// A refused create or seek in words: the lobby's own explanation where it has one (rated play), else the
// refusal's text.
function refusal_text(error) {
  if (error.code && has_text(`lobby.refusal.${error.code}`)) return t(`lobby.refusal.${error.code}`);
  return error_text(error.code, error.message);
}

function render_rooms(list, empty, rooms, app) {
  empty.hidden = rooms.length > 0;
  list.replaceChildren(...rooms.map((room) => room_row(room, app)));
}

// A list's result text ("D resign") written out, with the names of the list's seats.
function summary_result(summary) {
  const result = parse_result_text(summary.game, summary.result);
  if (!result) return {result: null, text: summary.result || t('lobby.status.finished')};
  const names = (summary.seats || []).map((seat) => (seat ? seat.name : ''));
  return {result, text: result_sentence(summary.game, result, names)};
}

function room_row(summary, app) {
  const seats = summary.seats || [null, null];
  const free = seats.findIndex((s) => !s);
  const finished = summary.status === 'finished';
  const status = finished ? summary_result(summary).text : status_text(summary.status);
  const free_label = free >= 0 ? seat_label({game: summary.game}, free) : '';
  // A rated room seats accounts only: a guest is told so rather than refused.
  const closed = Boolean(summary.rated) && !(app.conn && app.conn.username);
  const sit = free >= 0 && !finished && !closed &&
      el('button', {
                type: 'button',
                class: 'sit primary',
                'data-seat': String(free),
                onclick: () => {
                  app.pending_sit = {room: summary.room, seat: free};
                  app.navigate(`#/room/${summary.room}`);
                }
              },
         t('lobby.sit_as', {side: free_label}));
  const watch =
      el('button', {type: 'button', class: 'watch', onclick: () => app.navigate(`#/room/${summary.room}`)},
         t('lobby.watch'));
  return el(
      'li', {class: 'room-row', 'data-room': summary.room, 'data-status': summary.status},
      el('div', {class: 'room-main'}, el('span', {class: 'room-game'}, game_title(summary.game)),
         summary.options ? el('span', {class: 'room-options'}, summary.options) : null,
         el('span', {class: 'room-players'}, player_label(seats[0]), t('lobby.versus'), player_label(seats[1]))),
      el('div', {class: 'room-meta'},
         // Which seat is free, by its side: a new player sees what they would play.
         free >= 0 && !finished ?
             el('span', {class: 'room-free', 'data-seat': String(free)}, t('lobby.free_seat', {side: free_label})) :
             null,
         el('span', {class: 'room-clock'}, clock_label(summary.clock)),
         summary.rated ? el('span', {class: 'room-rated'}, t('lobby.rated_tag')) : null,
         el('span', {class: 'room-spectators', title: t('lobby.spectators')},
            t('lobby.watching', {count: summary.spectators || 0})),
         el('span', {class: `room-status status-${summary.status}`}, status)),
      el('div', {class: 'room-row-actions'},
         free >= 0 && !finished && closed ? el('a', {class: 'seat-closed', href: '#/account'}, t('lobby.log_in_to_sit')) : null,
         sit, watch));
}

// The seeks waiting for an opponent, each with a button that accepts it (my own seek has none).
function render_seeks(list, seeks, app) {
  const conn = app.conn;
  const my_name = conn && conn.identity ? conn.identity.name : null;
  const same_seek = (a, b) => Boolean(a && b) && a.game === b.game && (a.options || '') === (b.options || '') &&
      JSON.stringify(a.clock || null) === JSON.stringify(b.clock || null) &&
      (a.rated === undefined || b.rated === undefined || Boolean(a.rated) === Boolean(b.rated));
  list.replaceChildren(...seeks.map((seek) => {
    const mine = same_seek(seek, app.seek) && seek.name === my_name;
    const what = t('lobby.seek_what', {
      game: `${game_title(seek.game)}${seek.options ? ` ${seek.options}` : ''}`, clock: clock_label(seek.clock),
      terms: seek_terms(seek)
    });
    // A rated seek is for accounts: a guest sees it without a button that would only be refused.
    const closed = Boolean(seek.rated) && !(conn && conn.username);
    return el(
        'li', {class: 'seek-row', 'data-game': seek.game, 'data-rated': String(Boolean(seek.rated))},
        el('span', {class: 'seek-what'}, player_label({name: seek.name, username: seek.username, rating: seek.rating}),
           t('lobby.seeks', {what})),
        mine ? el('span', {class: 'seek-mine muted'}, t('lobby.your_seek')) :
        closed ? el('span', {class: 'seek-closed muted'}, t('lobby.seek_closed')) :
               el('button', {
                 type: 'button',
                 class: 'seek-accept primary',
                 'aria-label': t('lobby.seek_accept_label', {name: seek.name, what}),
                 onclick: () => app.accept_seek && app.accept_seek(seek)
               },
                  t('lobby.play')));
  }));
}

// Who must move by when, as time left: 'you: 2 days 4 h left', 'them: 5 h 3 min left'.
function deadline_text({deadline_ms, my_turn}) {
  return t(my_turn ? 'lobby.deadline_you' : 'lobby.deadline_they', {time: time_left_text(deadline_ms - Date.now())});
}

// Counts the deadlines of "My games" down between two refreshes of the list.
function tick_deadlines(root) {
  for (const span of root.querySelectorAll('.room-deadline[data-deadline-ms]')) {
    const text = deadline_text({deadline_ms: Number(span.dataset.deadlineMs), my_turn: span.dataset.mine === 'true'});
    if (span.textContent !== text) span.textContent = text;
  }
}

function my_game_row(summary, app) {
  const seats = summary.seats || [null, null];
  const me = summary.my_seat;
  const opponent = seats[1 - me];
  const finished = summary.status === 'finished';
  const clock = clock_label(summary.clock);
  // A correspondence game: the time left to move, counted down (deadline_text below), the date in its title.
  const when = summary.deadline_ms ? deadline_text(summary) : '';
  const my_side = seat_label({game: summary.game}, me);
  let outcome = null;
  let state =
      t(summary.my_turn ? 'lobby.your_turn' : summary.status === 'open' ? 'lobby.status.open' : 'lobby.their_turn');
  if (finished) {
    // Who won, and whether that was me: "You lost — Ben (Defenders) wins — Ada resigned".
    const {result, text} = summary_result(summary);
    state = text;
    outcome = result ? outcome_kind(result, me) : '';
  }
  const opponent_label = seat_label({game: summary.game}, 1 - me);
  const links = summary.links ? seat_links_block({game: summary.game, seats}, summary.links, me) : null;
  return el(
      'li', {
        class: 'room-row my-game',
        'data-room': summary.room,
        'data-my-turn': String(Boolean(summary.my_turn)),
        'data-outcome': outcome || ''
      },
      el('div', {class: 'room-main'}, el('span', {class: 'room-game'}, game_title(summary.game)),
         el('span', {class: 'room-players'}, t('lobby.versus_start'), player_label(opponent),
            `${opponent_label ? ` — ${opponent_label}` : ''}`, my_side ? t('lobby.you_play', {side: my_side}) : '')),
      el('div', {class: 'room-meta'}, el('span', {class: 'room-clock'}, clock),
         summary.rated ? el('span', {class: 'room-rated'}, t('lobby.rated_tag')) : null,
         when ? el('span', {
           class: 'room-deadline',
           role: 'timer',
           'data-deadline-ms': String(summary.deadline_ms),
           'data-mine': String(Boolean(summary.my_turn)),
           title: t('room.move_by', {date: date_time(summary.deadline_ms)})
         }, when) : null,
         outcome ? el('strong', {class: `my-outcome outcome-${outcome}`}, t(`outcome.${outcome}`)) : null,
         el('span', {class: `room-status status-${summary.status}`}, state)),
      el('div', {class: 'room-row-actions'},
         el('button', {
           type: 'button',
           class: summary.my_turn ? 'primary' : '',
           onclick: () => app.navigate(`#/room/${summary.room}`)
         },
            t(summary.my_turn ? 'lobby.play' : 'lobby.open'))),
      links ? el('div', {class: 'my-game-links'}, links) : null);
}
