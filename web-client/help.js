// "How to play" (#/help and #/help/GAME): each game's rules in short, written from docs/rules/GAME.md (the
// rules the server plays), with diagrams drawn by the game's own board module. A diagram is a short record
// replayed by the server (POST /api/replay, as the room's replay does), so its position is exactly what the
// rules make of those turns; the board gets it with nothing to play, so a diagram is a picture, not a game.
// Text uses two marks: `code` for notation and squares, **bold** for names.
// A page is written per language: web-client/help/GAME.js in English, help/CODE/GAME.js in another language
// (the same sections, figures and record: tests/browser/unit/help_pages.test.mjs checks it); a language
// without its page for a game shows the English one.

import {mount_board} from './board-host.js';
import {language, t} from './i18n.js';
import {fetch_replay, replay_position} from './replay.js';
import {el, game_about, game_title, kGames, side_label} from './ui.js';
import {game_entry, game_letters} from './words.js';

// Every game has a help page, web-client/help/GAME.js (loaded when shown), in the lobby's order.
export function help_games() { return kGames.map((g) => g.name); }

// A game's help page: {record, sections}, in the reader's language (help/CODE/GAME.js), else in English
// (help/GAME.js).
function load_help(game) {
  const english = () => import(`./help/${game}.js`).then((module) => module.default);
  if (language() === 'en') return english();
  return import(`./help/${language()}/${game}.js`).then((module) => module.default, english);
}

// A catalog text with nodes (links) put in for its {name} parameters: with_nodes('See the {lobby}.', {lobby:
// link}) -> ['See the ', link, '.'].
function with_nodes(text, nodes) {
  return text.split(/\{([a-z_]+)\}/)
      .map((part, i) => (i % 2 ? nodes[part] ?? `{${part}}` : part))
      .filter((part) => part !== '');
}

// Text with `code` and **bold** marks as nodes.
function inline(text) {
  const out = [];
  for (const part of String(text).split(/(`[^`]+`|\*\*[^*]+\*\*)/)) {
    if (!part) continue;
    if (part.startsWith('`')) {
      out.push(el('code', {}, part.slice(1, -1)));
    } else if (part.startsWith('**')) {
      out.push(el('strong', {}, part.slice(2, -2)));
    } else {
      out.push(part);
    }
  }
  return out;
}

function paragraph(item) {
  if (item && item.list) return el('ul', {}, item.list.map((line) => el('li', {}, inline(line))));
  return el('p', {}, inline(item));
}

// #/help: the five games, what each is, a link to its page.
function render_index(root) {
  document.title = t('help.page_title');
  root.append(el(
      'article', {class: 'help help-index'}, el('h1', {}, t('help.title')),
      el('p', {class: 'help-lead'}, t('help.index_lead')),
      el('ul', {class: 'help-games'},
         help_games().map(
             (game) => el(
                 'li', {'data-game': game}, el('a', {href: `#/help/${game}`, class: 'help-game-link'}, game_title(game)),
                 ' — ', game_about(game))))));
}

// #/help/GAME: the rules in sections, the figures drawn once the replay is in.
function render_game(root, game, help) {
  const boards = [];
  let destroyed = false;
  document.title = t('help.game_page_title', {game: game_title(game)});
  const figures = [];  // [{step, node}]
  const sections = help.sections.map((section) => {
    const nodes = [el('h2', {}, section.title), ...section.text.map(paragraph)];
    for (const figure of section.figures || []) {
      const host = el('div', {class: 'help-board board-host', 'aria-hidden': 'false'});
      const status = el('p', {class: 'help-board-status muted'}, t('help.drawing'));
      const node = el(
          'figure', {class: 'help-figure', 'data-step': String(figure.step)}, host, status,
          el('figcaption', {}, inline(figure.caption)));
      figures.push({step: figure.step, host, status, node});
      nodes.push(node);
    }
    return el('section', {class: 'help-section'}, nodes);
  });
  const others = help_games().filter((g) => g !== game);
  root.append(el(
      'article', {class: 'help help-game', 'data-game': game},
      el('nav', {class: 'help-crumbs', 'aria-label': t('help.title')}, el('a', {href: '#/help'}, t('help.title')),
         ' › ', game_title(game)),
      el('h1', {}, t('help.game_title', {game: game_title(game)})), el('p', {class: 'help-lead'}, game_about(game)),
      sections,
      el('section', {class: 'help-section help-play'}, el('h2', {}, t('help.playing_here')),
         el('p', {}, with_nodes(t('help.playing_here_text', {sides: help_sides(game)}),
                                {lobby: el('a', {href: '#/'}, t('help.lobby'))}))),
      el('p', {class: 'help-others'},
         with_nodes(t('help.other_games'), {
           games: others.flatMap((g, i) => [i ? ', ' : '', el('a', {href: `#/help/${g}`}, game_title(g))]),
         }).flat())));

  fetch_replay(help.record).then(({data, error}) => {
    if (destroyed) return;
    if (error) {
      for (const figure of figures) {
        figure.status.textContent = t('help.picture_failed_because', {error: error.message});
      }
      return;
    }
    const sides = data.sides || [];
    for (const figure of figures) {
      const step = data.steps[figure.step];
      if (!step) {
        figure.status.textContent = t('help.picture_failed');
        continue;
      }
      const ctx = {
        game,
        options: data.options || '',
        sides,
        seatNames: ['', ''],
        // A picture: nothing is ever sent from it.
        act: () => {},
      };
      mount_board(figure.host, ctx).then((board) => {
        if (destroyed) {
          board.destroy();
          return;
        }
        boards.push(board);
        // replay.js's position for a step (its last turn marked as in the room's replay).
        board.update(replay_position(data.steps, figure.step, sides),
                     {mySeat: null, canAct: false, event: null, replay: true});
        figure.status.remove();
        figure.node.dataset.drawn = 'true';
      });
    }
  });
  return () => {
    destroyed = true;
    for (const board of boards) board.destroy();
  };
}

// 'Attackers (A) and Defenders (D)'.
function help_sides(game) {
  const [first = '', second = ''] = game_letters(game).map((letter) => side_label(game, letter));
  return t('help.two_sides', {first, second});
}

// The page for `game` (a name from the route), the index when it is null, a short "no such game" otherwise.
export function render_help(root, app, game) {
  if (!game) {
    render_index(root);
    return () => {};
  }
  if (!game_entry(game)) {
    document.title = t('help.page_title');
    root.append(el('article', {class: 'help card'}, el('h1', {}, t('help.no_game')),
                   el('p', {}, with_nodes(t('help.no_game_text'),
                                          {all: el('a', {href: '#/help'}, t('help.all_games'))}))));
    return () => {};
  }
  let cleanup = () => {};
  let gone = false;
  load_help(game).then((help) => {
    if (!gone) cleanup = render_game(root, game, help);
  });
  return () => {
    gone = true;
    cleanup();
  };
}
