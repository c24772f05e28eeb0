// The archive (#/archive?SEARCH): finished games found by player, game, result, rated or not, and dates,
// newest first, 20 a page with Previous and Next. The search lives in the hash (archive-query.js), so a
// search can be linked, reloaded and gone back to; each result opens its room (the replay of a finished
// game) and downloads its record. finished_game_row() is the list entry the player's page uses too.

import {archive_api_url, archive_hash, archive_problems, archive_query, kPerPage, page_count, parse_archive_hash} from './archive-query.js';
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
  if (game.winner === 0 || game.winner === 1) return `${names[game.winner] || `Seat ${game.winner + 1}`} wins`;
  return game.result ? String(game.result) : 'Finished';
}

export function record_url(id) { return `/api/games/${encodeURIComponent(id)}/record`; }

// One finished game in a list: the game, the players (linked to their pages), the result, rated or not, its
// length and day, and links to its room (the replay) and its record. `me`: a user name whose outcome
// ('Won', 'Lost', 'Draw') the row says.
export function finished_game_row(game, {me = null} = {}) {
  const seats = game.seats || [];
  const outcome = me ? outcome_of(game, me) : '';
  const day = game.updated_ms ? new Date(game.updated_ms).toLocaleDateString() : '';
  const turns = Number.isFinite(game.turns) ? `${game.turns} turn${game.turns === 1 ? '' : 's'}` : '';
  return el(
      'li', {class: 'room-row finished-game', 'data-id': game.id, 'data-game': game.game, 'data-outcome': outcome},
      el('div', {class: 'room-main'}, el('span', {class: 'room-game'}, game_title(game.game)),
         el('span', {class: 'room-players'}, player_label(seats[0], '?'), ' vs ', player_label(seats[1], '?'))),
      el('div', {class: 'room-meta'},
         outcome ? el('strong', {class: `my-outcome outcome-${outcome}`}, outcome_label(outcome)) : null,
         el('span', {class: 'game-result'}, game_result_text(game)),
         el('span', {class: game.rated ? 'room-rated' : 'room-unrated'}, game.rated ? 'rated' : 'unrated'),
         turns ? el('span', {class: 'game-turns'}, turns) : null,
         day ? el('span', {class: 'game-day'}, day) : null),
      el('div', {class: 'room-row-actions'},
         el('a', {class: 'button-link open-game', href: `#/room/${encodeURIComponent(game.id)}`}, 'Open'),
         el('a', {class: 'record-link', href: record_url(game.id), download: `cinq-${game.game}-${game.id}.txt`},
            'Record')));
}

export function render_archive(root, app, query) {
  const {values, page} = parse_archive_hash(query);
  let destroyed = false;

  const input = (id, attrs = {}) => el('input', {id, name: id, type: 'text', autocomplete: 'off', ...attrs});
  const select = (id, options) =>
      el('select', {id, name: id}, options.map(([value, label]) => el('option', {value}, label)));
  const player = input('archive-player', {spellcheck: false, maxlength: '20', placeholder: 'any player'});
  const game = select('archive-game', [['', 'Any game'], ...kGames.map((g) => [g.name, g.title])]);
  const result = select('archive-result', [['', 'Any result'], ['win', 'Won'], ['loss', 'Lost'], ['draw', 'Drawn']]);
  const rated = select('archive-rated', [['', 'Rated or not'], ['true', 'Rated'], ['false', 'Unrated']]);
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
      el('div', {class: 'archive-fields'}, field(player, 'Player (user name)'), field(game, 'Game'),
         field(result, 'Result for the player'), field(rated, 'Rated'), field(from, 'From'), field(to, 'To')),
      el('div', {class: 'buttons'}, el('button', {id: 'archive-submit', type: 'submit', class: 'primary'}, 'Search'),
         el('a', {id: 'archive-clear', href: '#/archive', class: 'archive-clear'}, 'Clear')),
      error);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const wanted = {
      player: player.value, game: game.value, result: result.value, rated: rated.value, from: from.value, to: to.value
    };
    const problems = archive_problems(wanted);
    error.hidden = problems.length === 0;
    error.textContent = problems.join(' ');
    if (problems.length) return;
    app.navigate(archive_hash(wanted, 1));
  });

  const count = el('p', {id: 'archive-count', class: 'archive-count', 'aria-live': 'polite'}, 'Searching…');
  const list = el('ul', {id: 'archive-results', class: 'rooms archive-results'});
  const prev = el('button', {id: 'archive-prev', type: 'button', disabled: true,
                             onclick: () => app.navigate(archive_hash(values, page - 1))},
                  'Previous');
  const next = el('button', {id: 'archive-next', type: 'button', disabled: true,
                             onclick: () => app.navigate(archive_hash(values, page + 1))},
                  'Next');
  const where = el('span', {id: 'archive-page', class: 'pager-where'});
  const pager = el('nav', {class: 'pager', 'aria-label': 'Pages', hidden: true}, prev, where, next);
  const results = el('section', {class: 'card archive-list', 'aria-labelledby': 'archive-results-title'},
                     el('h2', {id: 'archive-results-title'}, 'Finished games'), count, list, pager);
  // data-query: the search shown (its REST query), for browser tests to tell one search's page from another's.
  const page_node = el('div', {class: 'archive', id: 'archive', 'data-page': String(page), 'data-state': 'loading',
                               'data-query': archive_query(values, page)},
                       el('h1', {}, 'Archive'),
                       el('p', {class: 'archive-intro muted'},
                          'Search the finished games: open one to replay it, or download its record.'),
                       form, results);
  root.append(page_node);
  document.title = 'Archive — Cinq';

  (async () => {
    const {status, body} = await get_json(archive_api_url(values, page));
    if (destroyed) return;
    if (status !== 200 || !body || !Array.isArray(body.games)) {
      count.textContent = status === 0 ? 'The server cannot be reached: try again in a moment.' :
                                         'The search failed: check the fields and try again.';
      page_node.dataset.state = 'error';
      return;
    }
    const total = Number(body.total) || 0;
    const per_page = Number(body.per_page) || kPerPage;
    const pages = page_count(total, per_page);
    const shown = Number(body.page) || page;
    const first = (shown - 1) * per_page + 1;
    count.textContent = total === 0 ? 'No finished game matches this search.' :
        body.games.length === 0     ? `${total} games found: page ${shown} has none.` :
                                      `${total} game${total === 1 ? '' : 's'} found: ${first}–${
                                          first + body.games.length - 1} shown.`;
    list.replaceChildren(...body.games.map((g) => finished_game_row(g, {me: values.player || null})));
    where.textContent = `Page ${shown} of ${Math.max(pages, shown)}`;
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
