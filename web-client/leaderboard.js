// A game's leaderboard (#/leaderboard/GAME?pool=live|correspondence): the ranked players of a pool, best
// first (GET /api/leaderboard/GAME?pool=P). Provisional ratings are not ranked. A tab per game and per pool.

import {get_json} from './archive.js';
import {kPools, pool_label} from './ratings.js';
import {el, game_title, kGames, player_href} from './ui.js';

export function render_leaderboard(root, app, game, pool) {
  let destroyed = false;
  const name = game || kGames[0].name;
  const chosen = kPools.includes(pool) ? pool : 'live';
  document.title = `Leaderboard — ${game_title(name)} — Cinq`;
  if (!kGames.some((g) => g.name === name)) {
    root.append(el('div', {class: 'card missing'}, el('h1', {}, 'No such game'),
                   el('p', {}, 'Cinq has no game by that name. '), el('a', {href: '#/leaderboard'}, 'The leaderboards')));
    return () => {};
  }
  const href = (g, p) => `#/leaderboard/${g}${p === 'live' ? '' : `?pool=${p}`}`;
  const tab = (text, target, current, data) =>
      el('a', {href: target, class: 'tab', ...(current ? {'aria-current': 'page'} : {}), ...data}, text);
  const games_nav = el('nav', {class: 'tabs', 'aria-label': 'Games'},
                       kGames.map((g) => tab(g.title, href(g.name, chosen), g.name === name, {'data-game': g.name})));
  const pools_nav = el('nav', {class: 'tabs', 'aria-label': 'Pools'},
                       kPools.map((p) => tab(pool_label(p), href(name, p), p === chosen, {'data-pool': p})));
  const body = el('div', {class: 'leaderboard-body'}, el('p', {class: 'muted'}, 'Loading…'));
  const page = el('div', {class: 'leaderboard', id: 'leaderboard', 'data-game': name, 'data-pool': chosen,
                          'data-state': 'loading'},
                  el('h1', {}, `Leaderboard: ${game_title(name)}`), games_nav, pools_nav,
                  el('section', {class: 'card'}, body,
                     el('p', {class: 'hint-text muted'},
                        `${chosen === 'correspondence' ? 'Correspondence games (days per move)' : 'Live games'}. ` +
                            'Provisional ratings are not ranked: a player is ranked after enough rated games.')));
  root.append(page);

  (async () => {
    const {status, body: answer} =
        await get_json(`/api/leaderboard/${encodeURIComponent(name)}?pool=${encodeURIComponent(chosen)}`);
    if (destroyed) return;
    if (status !== 200 || !answer) {
      body.replaceChildren(el('p', {class: 'form-error', role: 'alert'}, 'The leaderboard cannot be loaded now: try again in a moment.'));
      page.dataset.state = 'error';
      return;
    }
    const players = answer.players || [];
    const me = app.conn.username ? app.conn.username.toLowerCase() : null;
    if (!players.length) {
      body.replaceChildren(el('p', {id: 'leaderboard-empty', class: 'muted'}, 'Nobody is ranked here yet.'));
    } else {
      const head = el('tr', {}, ['Rank', 'Player', 'Rating', 'Deviation', 'Games'].map(
                                   (h, i) => el('th', {scope: 'col', class: i === 1 ? '' : 'num'}, h)));
      body.replaceChildren(el('div', {class: 'table-wrap'}, el(
          'table', {id: 'leaderboard-table', class: 'data-table'}, el('thead', {}, head),
          el('tbody', {}, players.map((p) => el(
                              'tr', {'data-username': p.username, class: me && p.username.toLowerCase() === me ? 'me' : ''},
                              el('td', {class: 'num'}, String(p.rank)),
                              el('th', {scope: 'row'}, el('a', {class: 'player-link', href: player_href(p.username)}, p.username)),
                              el('td', {class: 'num'}, String(Math.round(p.rating))),
                              el('td', {class: 'num'}, Number.isFinite(p.deviation) ? `±${Math.round(p.deviation)}` : ''),
                              el('td', {class: 'num'}, String(p.games ?? ''))))))));
    }
    page.dataset.state = 'done';
  })();

  return () => {
    destroyed = true;
  };
}
