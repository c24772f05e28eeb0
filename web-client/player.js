// A player's page (#/player/NAME), for accounts: their ratings per game and pool ("1500?" while
// provisional), a rating-history chart per game (rating-chart.js), wins, losses and draws, their finished
// games (each opening its room) and all of them as one text file (GET /api/players/NAME/games.txt).

import {day_text, finished_game_row, get_json} from './archive.js';
import {number, t} from './i18n.js';
import {render_chart, chart_model} from './rating-chart.js';
import {format_rating, kPools, pool_label, rating_title} from './ratings.js';
import {el, game_title, kGames} from './ui.js';

const game_order = (name) => {
  const index = kGames.findIndex((g) => g.name === name);
  return index < 0 ? kGames.length : index;
};
const by_game_then_pool = (a, b) => game_order(a.game) - game_order(b.game) || a.game.localeCompare(b.game) ||
    kPools.indexOf(a.pool) - kPools.indexOf(b.pool);

export function render_player(root, app, username) {
  let destroyed = false;
  const page = el('div', {class: 'player-page', id: 'player', 'data-username': username, 'data-state': 'loading'},
                  el('h1', {}, username), el('p', {class: 'muted'}, t('account.loading')));
  root.append(page);
  document.title = `${username} — Cinq`;

  (async () => {
    const {status, body} = await get_json(`/api/players/${encodeURIComponent(username)}`);
    if (destroyed) return;
    if (status === 404) {
      page.dataset.state = 'missing';
      page.replaceChildren(el('div', {class: 'card missing'}, el('h1', {}, t('account.player.missing')),
                              el('p', {}, t('account.player.missing_text', {name: username})),
                              el('a', {href: '#/'}, t('account.back_to_lobby'))));
      return;
    }
    if (status !== 200 || !body) {
      page.dataset.state = 'error';
      page.replaceChildren(el('h1', {}, username),
                           el('p', {class: 'form-error', role: 'alert'},
                              t('account.player.load_failed')));
      return;
    }
    draw(body);
    page.dataset.state = 'done';
  })();

  function draw(player) {
    const name = player.username || username;
    const me = app.conn.username && app.conn.username.toLowerCase() === name.toLowerCase();
    const since = player.created_ms ? day_text(player.created_ms) : '';
    const about = [
      since ? t('account.player.since', {date: since}) : '',
      player.name && player.name !== name ? t('account.player.shown_as', {name: player.name}) : '',
      me ? t('account.player.you') : ''
    ].filter(Boolean).join(' · ');
    page.dataset.username = name;
    page.replaceChildren(
        el('header', {class: 'player-head'}, el('h1', {id: 'player-title'}, name),
           about ? el('p', {class: 'muted player-about'}, `${about}.`) : null),
        ratings_card(player), history_card(player), games_card(player, name));
    document.title = `${name} — Cinq`;
  }

  return () => {
    destroyed = true;
  };
}

// The ratings per game and pool, with each line's results.
function ratings_card(player) {
  const lines = [...(player.ratings || [])].sort(by_game_then_pool);
  const columns = ['account.player.game', 'account.player.pool', 'account.player.rating', 'account.player.games',
                   'account.player.won', 'account.player.lost', 'account.player.drawn'];
  const head =
      el('tr', {}, columns.map((key, i) => el('th', {scope: 'col', class: i >= 2 ? 'num' : ''}, t(key))));
  const count = (value) => (Number.isFinite(value) ? number(value) : String(value ?? ''));
  const rows = lines.map(
      (line) => el('tr', {'data-game': line.game, 'data-pool': line.pool, 'data-provisional': String(Boolean(line.provisional))},
                   el('th', {scope: 'row'},
                      el('a', {href: `#/leaderboard/${line.game}?pool=${encodeURIComponent(line.pool)}`},
                         game_title(line.game))),
                   el('td', {}, pool_label(line.pool)),
                   el('td', {class: 'num rating-cell', title: rating_title(line)}, format_rating(line),
                      Number.isFinite(line.deviation) ?
                          el('span', {class: 'deviation muted'}, ` ±${Math.round(line.deviation)}`) :
                          null),
                   el('td', {class: 'num'}, count(line.games)), el('td', {class: 'num'}, count(line.wins)),
                   el('td', {class: 'num'}, count(line.losses)), el('td', {class: 'num'}, count(line.draws))));
  return el('section', {class: 'card player-ratings', 'aria-labelledby': 'ratings-title'},
            el('h2', {id: 'ratings-title'}, t('account.player.ratings')),
            lines.length ?
                [el('div', {class: 'table-wrap'},
                    el('table', {id: 'ratings', class: 'data-table'}, el('thead', {}, head), el('tbody', {}, rows))),
                 el('p', {class: 'hint-text muted'}, t('account.player.provisional_hint'))] :
                el('p', {class: 'muted', id: 'ratings-empty'}, t('account.player.no_ratings')));
}

// A chart per game with a line per pool.
function history_card(player) {
  const history = player.history || [];
  const games = [...new Set(history.map((h) => h.game))].sort((a, b) => game_order(a) - game_order(b));
  const day = day_text;
  const figures = games.map((game) => {
    const entries = history.filter((h) => h.game === game);
    const model = chart_model(entries);
    if (!model) return null;
    const title = t('account.player.chart_title', {game: game_title(game)});
    const chart = render_chart(model, {
      title,
      label: pool_label,
      date: day,
      point_title: (point, pool) => t('account.player.chart_point', {
        pool: pool_label(pool),
        date: day(point.at_ms),
        rating: `${Math.round(point.rating)}` +
            (Number.isFinite(point.deviation) ? ` ±${Math.round(point.deviation)}` : ''),
      }),
      start_title: (pool, rating) =>
          t('account.player.chart_start', {pool: pool_label(pool), rating: `${Math.round(rating)}`}),
    });
    const legend = el('ul', {class: 'chart-legend'}, model.series.map(
                                (s) => el('li', {class: `chart-key chart-pool-${s.pool}`},
                                          el('span', {class: 'chart-swatch', 'aria-hidden': 'true'}),
                                          t('account.player.chart_key',
                                            {pool: pool_label(s.pool), count: s.points.length}))));
    return el('figure', {class: 'rating-figure', 'data-game': game}, el('figcaption', {}, el('h3', {}, game_title(game)), legend),
              chart);
  }).filter(Boolean);
  return el('section', {class: 'card player-history', 'aria-labelledby': 'history-title'},
            el('h2', {id: 'history-title'}, t('account.player.history')),
            el('p', {class: 'muted', id: 'history-rated-only'}, t('account.player.history_rated_only')),
            figures.length ? el('div', {class: 'rating-figures'}, figures) :
                             el('p', {class: 'muted'}, t('account.player.no_history')));
}

// The finished games, each opening its room, and all of them as one text file.
function games_card(player, name) {
  const games = player.games || [];
  const file = `/api/players/${encodeURIComponent(name)}/games.txt`;
  return el('section', {class: 'card player-games', 'aria-labelledby': 'games-title'},
            el('h2', {id: 'games-title'}, t('account.player.games')),
            el('p', {class: 'player-games-links'},
               el('a', {id: 'export-games', href: file, download: `cinq-${name}-games.txt`},
                  t('account.player.download')),
               ' · ',
               el('a', {id: 'player-archive', href: `#/archive?player=${encodeURIComponent(name)}`},
                  t('account.player.search_archive'))),
            games.length ? el('ul', {id: 'player-games', class: 'rooms'}, games.map((g) => finished_game_row(g, {me: name}))) :
                           el('p', {class: 'muted', id: 'player-games-empty'}, t('account.player.no_games')));
}
