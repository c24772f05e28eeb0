// A player's page (#/player/NAME), for accounts: their ratings per game and pool ("1500?" while
// provisional), a rating-history chart per game (rating-chart.js), wins, losses and draws, their finished
// games (each opening its room) and all of them as one text file (GET /api/players/NAME/games.txt).

import {finished_game_row, get_json} from './archive.js';
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
                  el('h1', {}, username), el('p', {class: 'muted'}, 'Loading…'));
  root.append(page);
  document.title = `${username} — Cinq`;

  (async () => {
    const {status, body} = await get_json(`/api/players/${encodeURIComponent(username)}`);
    if (destroyed) return;
    if (status === 404) {
      page.dataset.state = 'missing';
      page.replaceChildren(el('div', {class: 'card missing'}, el('h1', {}, 'No such player'),
                              el('p', {}, `Nobody has the user name “${username}”. `),
                              el('a', {href: '#/'}, 'Back to the lobby')));
      return;
    }
    if (status !== 200 || !body) {
      page.dataset.state = 'error';
      page.replaceChildren(el('h1', {}, username),
                           el('p', {class: 'form-error', role: 'alert'},
                              'This page cannot be loaded now: try again in a moment.'));
      return;
    }
    draw(body);
    page.dataset.state = 'done';
  })();

  function draw(player) {
    const name = player.username || username;
    const me = app.conn.username && app.conn.username.toLowerCase() === name.toLowerCase();
    const since = player.created_ms ? new Date(player.created_ms).toLocaleDateString() : '';
    const about = [
      since ? `Playing since ${since}` : '', player.name && player.name !== name ? `shown as ${player.name}` : '',
      me ? 'this is you' : ''
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
  const head = el('tr', {}, ['Game', 'Pool', 'Rating', 'Games', 'Won', 'Lost', 'Drawn'].map(
                               (h, i) => el('th', {scope: 'col', class: i >= 2 ? 'num' : ''}, h)));
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
                   el('td', {class: 'num'}, String(line.games ?? '')), el('td', {class: 'num'}, String(line.wins ?? '')),
                   el('td', {class: 'num'}, String(line.losses ?? '')), el('td', {class: 'num'}, String(line.draws ?? ''))));
  return el('section', {class: 'card player-ratings', 'aria-labelledby': 'ratings-title'},
            el('h2', {id: 'ratings-title'}, 'Ratings'),
            lines.length ?
                [el('div', {class: 'table-wrap'},
                    el('table', {id: 'ratings', class: 'data-table'}, el('thead', {}, head), el('tbody', {}, rows))),
                 el('p', {class: 'hint-text muted'},
                    'A “?” marks a provisional rating: too few games yet to be sure of it (it is not ranked on the ' +
                        'leaderboards).')] :
                el('p', {class: 'muted', id: 'ratings-empty'}, 'No rated games yet.'));
}

// A chart per game with a line per pool.
function history_card(player) {
  const history = player.history || [];
  const games = [...new Set(history.map((h) => h.game))].sort((a, b) => game_order(a) - game_order(b));
  const day = (ms) => new Date(ms).toLocaleDateString();
  const figures = games.map((game) => {
    const entries = history.filter((h) => h.game === game);
    const model = chart_model(entries);
    if (!model) return null;
    const title = `${game_title(game)}: rating history`;
    const chart = render_chart(model, {
      title,
      label: pool_label,
      date: day,
      point_title: (point, pool) => `${pool_label(pool)}, ${day(point.at_ms)}: ${Math.round(point.rating)}` +
          (Number.isFinite(point.deviation) ? ` ±${Math.round(point.deviation)}` : ''),
    });
    const legend = el('ul', {class: 'chart-legend'}, model.series.map(
                                (s) => el('li', {class: `chart-key chart-pool-${s.pool}`},
                                          el('span', {class: 'chart-swatch', 'aria-hidden': 'true'}),
                                          `${pool_label(s.pool)} (${s.points.length} game${s.points.length === 1 ? '' : 's'})`)));
    return el('figure', {class: 'rating-figure', 'data-game': game}, el('figcaption', {}, el('h3', {}, game_title(game)), legend),
              chart);
  }).filter(Boolean);
  return el('section', {class: 'card player-history', 'aria-labelledby': 'history-title'},
            el('h2', {id: 'history-title'}, 'Rating history'),
            figures.length ? el('div', {class: 'rating-figures'}, figures) :
                             el('p', {class: 'muted'}, 'The charts come with the first rated game.'));
}

// The finished games, each opening its room, and all of them as one text file.
function games_card(player, name) {
  const games = player.games || [];
  const file = `/api/players/${encodeURIComponent(name)}/games.txt`;
  return el('section', {class: 'card player-games', 'aria-labelledby': 'games-title'},
            el('h2', {id: 'games-title'}, 'Games'),
            el('p', {class: 'player-games-links'},
               el('a', {id: 'export-games', href: file, download: `cinq-${name}-games.txt`},
                  'Download all games (.txt)'),
               ' · ',
               el('a', {id: 'player-archive', href: `#/archive?player=${encodeURIComponent(name)}`},
                  'Search them in the archive')),
            games.length ? el('ul', {id: 'player-games', class: 'rooms'}, games.map((g) => finished_game_row(g, {me: name}))) :
                           el('p', {class: 'muted', id: 'player-games-empty'}, 'No finished games yet.'));
}
