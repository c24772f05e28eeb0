// The archive (#/archive?SEARCH): finished games found by player, game, result, rated or not, and dates,
// newest first, 20 a page with Previous and Next. The search lives in the hash (archive-query.js), so a
// search can be linked, reloaded and gone back to; each result opens its room (the replay of a finished
// game) and downloads its record. finished_game_row() is the list entry the player's page uses too.

import {archive_api_url, archive_hash, archive_problems, archive_query, kPerPage, page_count, parse_archive_hash} from './archive-query.js';
import {date, number, t} from './i18n.js';
import {outcome_label, outcome_of} from './ratings.js';
import {el, game_title, kGames, player_label} from './ui.js';
import {parse_result_text, result_sentence} from './words.js';

// GET a JSON answer: {status, body} (body null when it is not JSON); status 0 when the request failed.
export async function get_json(url) {
  try {
    const response = await fetch(url, {headers: {Accept: 'application/json'}});
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    return {status: response.status, body};
  } catch {
    return {status: 0, body: null};
  }
}

// A finished GAME's result in words ("Ben (Defenders) wins — Ada resigned"), from its result text, or from
// `winner` when the text is not one the client reads.
export function game_result_text(game) {
  const names = (game.seats || []).map((seat) => (seat ? seat.name : ''));
  const parsed = parse_result_text(game.game, game.result);
  if (parsed) return result_sentence(game.game, parsed, names);
  if (game.winner === 0 || game.winner === 1) {
    const name = names[game.winner] || t('account.archive.seat', {number: game.winner + 1});
    return t('account.archive.wins', {name});
  }
  return game.result ? String(game.result) : t('account.archive.finished');
}

export function record_url(id) { return `/api/games/${encodeURIComponent(id)}/record`; }

// A finished game's day as the reader writes it ('11/29/2026', '29/11/2026').
export function day_text(ms) { return date(ms, {year: 'numeric', month: 'numeric', day: 'numeric'}); }

// A catalog text with nodes put in for its {name} parameters: with_nodes('{a} vs {b}', {a, b}) -> [a, ' vs ', b].
function with_nodes(text, nodes) {
  return text.split(/\{([a-z_]+)\}/)
      .map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part))
      .filter((part) => part !== '');
}

// One finished game in a list: the game, the players (linked to their pages), the result, rated or not, its
// length and day, and links to its room (the replay) and its record. `me`: a user name whose outcome
// ('Won', 'Lost', 'Draw') the row says.
export function finished_game_row(game, {me = null} = {}) {
  const seats = game.seats || [];
  const outcome = me ? outcome_of(game, me) : '';
  const day = game.updated_ms ? day_text(game.updated_ms) : '';
  const turns = Number.isFinite(game.turns) ? t('account.archive.turns', {count: game.turns}) : '';
  return el(
      'li', {class: 'room-row finished-game', 'data-id': game.id, 'data-game': game.game, 'data-outcome': outcome},
      el('div', {class: 'room-main'}, el('span', {class: 'room-game'}, game_title(game.game)),
         el('span', {class: 'room-players'}, with_nodes(t('account.archive.versus'), {
           first: player_label(seats[0], '?'), second: player_label(seats[1], '?'),
         }))),
      el('div', {class: 'room-meta'},
         outcome ? el('strong', {class: `my-outcome outcome-${outcome}`}, outcome_label(outcome)) : null,
         el('span', {class: 'game-result'}, game_result_text(game)),
         el('span', {class: game.rated ? 'room-rated' : 'room-unrated'},
            game.rated ? t('account.archive.rated_lower') : t('account.archive.unrated_lower')),
         turns ? el('span', {class: 'game-turns'}, turns) : null,
         day ? el('span', {class: 'game-day'}, day) : null),
      el('div', {class: 'room-row-actions'},
         el('a', {class: 'button-link open-game', href: `#/room/${encodeURIComponent(game.id)}`},
            t('account.archive.open')),
         el('a', {class: 'record-link', href: record_url(game.id), download: `cinq-${game.game}-${game.id}.txt`},
            t('account.archive.record'))));
}

export function render_archive(root, app, query) {
  const {values, page} = parse_archive_hash(query);
  let destroyed = false;

  const input = (id, attrs = {}) => el('input', {id, name: id, type: 'text', autocomplete: 'off', ...attrs});
  const select = (id, options) =>
      el('select', {id, name: id}, options.map(([value, label]) => el('option', {value}, label)));
  const player = input('archive-player', {spellcheck: false, maxlength: '20',
                                          placeholder: t('account.archive.any_player')});
  const game = select('archive-game',
                      [['', t('account.archive.any_game')], ...kGames.map((g) => [g.name, game_title(g.name)])]);
  const result = select('archive-result', [
    ['', t('account.archive.any_result')], ['win', t('account.archive.won')], ['loss', t('account.archive.lost')],
    ['draw', t('account.archive.drawn')],
  ]);
  const rated = select('archive-rated', [
    ['', t('account.archive.rated_or_not')], ['true', t('account.archive.rated')],
    ['false', t('account.archive.unrated')],
  ]);
  const from = input('archive-from', {type: 'date'});
  const to = input('archive-to', {type: 'date'});
  player.value = values.player || '';
  game.value = values.game || '';
  result.value = values.result || '';
  rated.value = values.rated || '';
  from.value = values.from || '';
  to.value = values.to || '';
  const field = (control, label, hint = null) =>
      el('div', {class: 'field'}, el('label', {for: control.id}, label), control, hint);
  const error = el('p', {id: 'archive-error', class: 'form-error', role: 'alert', hidden: true});
  const form = el(
      'form', {id: 'archive-form', class: 'card archive-form', role: 'search'},
      el('div', {class: 'archive-fields'}, field(player, t('account.archive.player')),
         field(game, t('account.archive.game')), field(result, t('account.archive.result')),
         field(rated, t('account.archive.rated')), field(from, t('account.archive.from')),
         field(to, t('account.archive.to'))),
      el('div', {class: 'buttons'},
         el('button', {id: 'archive-submit', type: 'submit', class: 'primary'}, t('account.archive.search')),
         el('a', {id: 'archive-clear', href: '#/archive', class: 'archive-clear'}, t('account.archive.clear'))),
      error);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const wanted = {
      player: player.value, game: game.value, result: result.value, rated: rated.value, from: from.value, to: to.value
    };
    const problems = archive_problems(wanted);
    error.hidden = problems.length === 0;
    error.textContent = problems.map((key) => t(key)).join(' ');
    if (problems.length) return;
    app.navigate(archive_hash(wanted, 1));
  });

  const count = el('p', {id: 'archive-count', class: 'archive-count', 'aria-live': 'polite'},
                   t('account.archive.searching'));
  const list = el('ul', {id: 'archive-results', class: 'rooms archive-results'});
  const prev = el('button', {id: 'archive-prev', type: 'button', disabled: true,
                             onclick: () => app.navigate(archive_hash(values, page - 1))},
                  t('account.archive.previous'));
  const next = el('button', {id: 'archive-next', type: 'button', disabled: true,
                             onclick: () => app.navigate(archive_hash(values, page + 1))},
                  t('account.archive.next'));
  const where = el('span', {id: 'archive-page', class: 'pager-where'});
  const pager =
      el('nav', {class: 'pager', 'aria-label': t('account.archive.pages'), hidden: true}, prev, where, next);
  const results = el('section', {class: 'card archive-list', 'aria-labelledby': 'archive-results-title'},
                     el('h2', {id: 'archive-results-title'}, t('account.archive.finished_games')), count, list,
                     pager);
  // data-query: the search shown (its REST query), for browser tests to tell one search's page from another's.
  const page_node = el('div', {class: 'archive', id: 'archive', 'data-page': String(page), 'data-state': 'loading',
                               'data-query': archive_query(values, page)},
                       el('h1', {}, t('account.archive.title')),
                       el('p', {class: 'archive-intro muted'}, t('account.archive.intro')),
                       form, results);
  root.append(page_node);
  document.title = t('account.archive.page_title');

  (async () => {
    const {status, body} = await get_json(archive_api_url(values, page));
    if (destroyed) return;
    if (status !== 200 || !body || !Array.isArray(body.games)) {
      count.textContent = status === 0 ? t('account.unreachable') : t('account.archive.search_failed');
      page_node.dataset.state = 'error';
      return;
    }
    const total = Number(body.total) || 0;
    const per_page = Number(body.per_page) || kPerPage;
    const pages = page_count(total, per_page);
    const shown = Number(body.page) || page;
    const first = (shown - 1) * per_page + 1;
    const last = first + body.games.length - 1;
    count.textContent = total === 0 ? t('account.archive.none') :
        body.games.length === 0     ? t('account.archive.found_none_here', {count: total, page: shown}) :
                                      t('account.archive.found', {count: total, first, last});
    list.replaceChildren(...body.games.map((g) => finished_game_row(g, {me: values.player || null})));
    where.textContent = t('account.archive.page', {page: shown, pages: Math.max(pages, shown)});
    prev.disabled = shown <= 1;
    next.disabled = shown >= pages;
    pager.hidden = total <= per_page && shown <= 1;
    page_node.dataset.state = 'done';
    page_node.dataset.total = String(total);
  })();

  return () => {
    destroyed = true;
  };
}
