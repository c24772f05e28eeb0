// A game's leaderboard (#/leaderboard/GAME?pool=live|correspondence): the ranked players of a pool, best
// first (GET /api/leaderboard/GAME?pool=P). Provisional ratings are not ranked. A tab per game and per pool.

import {get_json} from './archive.js';
import {number, t} from './i18n.js';
import {kPools, pool_label} from './ratings.js';
import {el, game_title, kGames, player_href} from './ui.js';

export function render_leaderboard(root, app, game, pool) {
  let destroyed = false;
  const name = game || kGames[0].name;
  const chosen = kPools.includes(pool) ? pool : 'live';
  document.title = t('account.leaderboard.page_title', {game: game_title(name)});
  if (!kGames.some((g) => g.name === name)) {
    root.append(el('div', {class: 'card missing'}, el('h1', {}, t('account.leaderboard.no_game')),
                   el('p', {}, t('account.leaderboard.no_game_text')),
                   el('a', {href: '#/leaderboard'}, t('account.leaderboard.all'))));
    return () => {};
  }
  const href = (g, p) => `#/leaderboard/${g}${p === 'live' ? '' : `?pool=${p}`}`;
  const tab = (text, target, current, data) =>
      el('a', {href: target, class: 'tab', ...(current ? {'aria-current': 'page'} : {}), ...data}, text);
  const games_nav = el('nav', {class: 'tabs', 'aria-label': t('account.leaderboard.games')},
                       kGames.map((g) => tab(game_title(g.name), href(g.name, chosen), g.name === name,
                                             {'data-game': g.name})));
  const pools_nav = el('nav', {class: 'tabs', 'aria-label': t('account.leaderboard.pools')},
                       kPools.map((p) => tab(pool_label(p), href(name, p), p === chosen, {'data-pool': p})));
  const body = el('div', {class: 'leaderboard-body'}, el('p', {class: 'muted'}, t('account.loading')));
  const page = el('div', {class: 'leaderboard', id: 'leaderboard', 'data-game': name, 'data-pool': chosen,
                          'data-state': 'loading'},
                  el('h1', {}, t('account.leaderboard.title', {game: game_title(name)})), games_nav, pools_nav,
                  el('section', {class: 'card'}, body,
                     el('p', {class: 'hint-text muted'},
                        chosen === 'correspondence' ? t('account.leaderboard.hint_correspondence') :
                                                      t('account.leaderboard.hint_live'))));
  root.append(page);

  (async () => {
    const {status, body: answer} =
        await get_json(`/api/leaderboard/${encodeURIComponent(name)}?pool=${encodeURIComponent(chosen)}`);
    if (destroyed) return;
    if (status !== 200 || !answer) {
      body.replaceChildren(el('p', {class: 'form-error', role: 'alert'}, t('account.leaderboard.load_failed')));
      page.dataset.state = 'error';
      return;
    }
    const players = answer.players || [];
    const me = app.conn.username ? app.conn.username.toLowerCase() : null;
    if (!players.length) {
      body.replaceChildren(el('p', {id: 'leaderboard-empty', class: 'muted'}, t('account.leaderboard.empty')));
    } else {
      const columns = ['account.leaderboard.rank', 'account.leaderboard.player', 'account.player.rating',
                       'account.leaderboard.deviation', 'account.player.games'];
      const head =
          el('tr', {}, columns.map((key, i) => el('th', {scope: 'col', class: i === 1 ? '' : 'num'}, t(key))));
      body.replaceChildren(el('div', {class: 'table-wrap'}, el(
          'table', {id: 'leaderboard-table', class: 'data-table'}, el('thead', {}, head),
          el('tbody', {}, players.map((p) => el(
                              'tr', {'data-username': p.username, class: me && p.username.toLowerCase() === me ? 'me' : ''},
                              el('td', {class: 'num'}, number(p.rank)),
                              el('th', {scope: 'row'}, el('a', {class: 'player-link', href: player_href(p.username)}, p.username)),
                              el('td', {class: 'num'}, String(Math.round(p.rating))),
                              el('td', {class: 'num'}, Number.isFinite(p.deviation) ? `±${Math.round(p.deviation)}` : ''),
                              el('td', {class: 'num'}, Number.isFinite(p.games) ? number(p.games) : '')))))));
    }
    page.dataset.state = 'done';
  })();

  return () => {
    destroyed = true;
  };
}
