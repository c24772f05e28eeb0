// "How to play" (#/help and #/help/GAME): each game's rules in short, written from docs/rules/GAME.md (the
// rules the server plays), with diagrams drawn by the game's own board module. A diagram is a short record
// replayed by the server (POST /api/replay, as the room's replay does), so its position is exactly what the
// rules make of those turns; the board gets it with nothing to play, so a diagram is a picture, not a game.
// Text uses two marks: `code` for notation and squares, **bold** for names.

import {mount_board} from './board-host.js';
import {fetch_replay, replay_position} from './replay.js';
import {el, game_about, game_title, kGames, side_label} from './ui.js';
import {game_entry, game_letters} from './words.js';

// Every game has a help page, web-client/help/GAME.js (loaded when shown), in the lobby's order.
export function help_games() { return kGames.map((g) => g.name); }

// A game's help page: {record, sections} (help/GAME.js).
function load_help(game) { return import(`./help/${game}.js`).then((module) => module.default); }

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
  document.title = 'How to play — Cinq';
  root.append(el(
      'article', {class: 'help help-index'}, el('h1', {}, 'How to play'),
      el('p', {class: 'help-lead'},
         'Five board games few people know. Each page gives the rules in short, with pictures of the board as ' +
             'it looks in a game.'),
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
  document.title = `How to play ${game_title(game)} — Cinq`;
  const figures = [];  // [{step, node}]
  const sections = help.sections.map((section) => {
    const nodes = [el('h2', {}, section.title), ...section.text.map(paragraph)];
    for (const figure of section.figures || []) {
      const host = el('div', {class: 'help-board board-host', 'aria-hidden': 'false'});
      const status = el('p', {class: 'help-board-status muted'}, 'Drawing the board…');
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
      el('nav', {class: 'help-crumbs', 'aria-label': 'How to play'}, el('a', {href: '#/help'}, 'How to play'), ' › ',
         game_title(game)),
      el('h1', {}, `How to play ${game_title(game)}`), el('p', {class: 'help-lead'}, game_about(game)), sections,
      el('section', {class: 'help-section help-play'}, el('h2', {}, 'Playing here'),
         el('p', {},
            'Create a room or find an opponent in the ',
            el('a', {href: '#/'}, 'lobby'),
            '. On your turn the board marks what you may play and says what to do next. Each side is named in ' +
                'words with its letter beside it, the letter records use: ',
            help_sides(game), '.')),
      el('p', {class: 'help-others'}, 'The other games: ',
         others.flatMap((g, i) => [i ? ', ' : '', el('a', {href: `#/help/${g}`}, game_title(g))]), '.')));

  fetch_replay(help.record).then(({data, error}) => {
    if (destroyed) return;
    if (error) {
      for (const figure of figures) figure.status.textContent = `The picture could not be drawn: ${error.message}`;
      return;
    }
    const sides = data.sides || [];
    for (const figure of figures) {
      const step = data.steps[figure.step];
      if (!step) {
        figure.status.textContent = 'The picture could not be drawn.';
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
function help_sides(game) { return game_letters(game).map((letter) => side_label(game, letter)).join(' and '); }

// The page for `game` (a name from the route), the index when it is null, a short "no such game" otherwise.
export function render_help(root, app, game) {
  if (!game) {
    render_index(root);
    return () => {};
  }
  if (!game_entry(game)) {
    document.title = 'How to play — Cinq';
    root.append(el('article', {class: 'help card'}, el('h1', {}, 'No such game'),
                   el('p', {}, 'Cinq has no game by that name. ', el('a', {href: '#/help'}, 'All the games'), '.')));
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
