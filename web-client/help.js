// "How to play" (#/help and #/help/GAME): each game's rules in short, written from docs/rules/GAME.md (the
// rules the server plays), with diagrams drawn by the game's own board module. A diagram is a short record
// replayed by the server (POST /api/replay, as the room's replay does), so its position is exactly what the
// rules make of those turns; the board gets it with nothing to play, so a diagram is a picture, not a game.
// Text uses two marks: `code` for notation and squares, **bold** for names.

import {mount_board} from './board-host.js';
import {fetch_replay, replay_position} from './replay.js';
import {el, game_about, game_title, kGames, side_label} from './ui.js';
import {game_letters} from './words.js';

// Per game: `record` (the turns the diagrams come from) and `sections` [{title, text: [paragraph or
// {list: [...]}], figures: [{step, caption}]}], where `step` k is the position after the record's k-th turn
// (0: the start).
const kHelp = {
  tablut: {
    record: '#! TABLUT\n1   A/e2 c2/              D/e3 c3/\n2   A/a4 c4 x c3/\n',
    sections: [
      {
        title: 'The game',
        text: [
          'Tablut is a game of the tafl family, the siege games of the Norse world: a king and his guard ' +
              'surrounded by twice their number. Two sides: the **Attackers (A)**, 16 dark pieces, and the ' +
              '**Defenders (D)**, 8 pale pieces and the king. **The Attackers move first** (the option ' +
              '`first=defenders` swaps that).',
        ],
      },
      {
        title: 'The board',
        text: [
          '9 × 9 squares, columns `a`–`i` from left to right, rows `1`–`9` from bottom to top. The four ' +
              'corners (`a1`, `a9`, `i1`, `i9`) are where the king wants to go; the centre square `e5` is the ' +
              'throne, where the king starts.',
        ],
        figures: [{step: 0, caption: 'The start: the Attackers on the four edges, the Defenders in a cross ' +
                                         'around the king on the throne.'}],
      },
      {
        title: 'A turn',
        text: [
          'A turn is one move. Every piece, the king included, moves like a rook in chess: any number of empty ' +
              'squares along a row or a column, never jumping over a piece. There is no pass.',
          {
            list: [
              'Only the king may stop on a corner.',
              'Only the king may stop on the throne; any piece may pass over it while it is empty, and the ' +
                  'king may come back to it (the option `throne=plain` makes it an ordinary square once the ' +
                  'king has left).',
            ]
          },
        ],
      },
      {
        title: 'Captures',
        text: [
          'A piece is captured when the opponent\'s move sandwiches it, along a row or a column, between the ' +
              'piece just moved and another hostile square. Only the side moving captures: a piece may safely ' +
              'move in between two enemies. There are no diagonal captures; one move can capture up to three ' +
              'pieces.',
          'Hostile squares: an enemy piece (the king captures with the Defenders, unless the option ' +
              '`king=unarmed` says he does not), a corner (for both sides), and the throne: always for the ' +
              'Attackers (unless the king is unarmed and on it), for the Defenders only while it is empty; ' +
              'with `throne=plain` it is never hostile.',
          '**The king** is captured only when the Attackers close all four squares around him (or three ' +
              'around him and the throne), the last one by the move just played. On the edge of the board the ' +
              'king cannot be captured.',
        ],
        figures: [{
          step: 3,
          caption: 'The Attacker from `a4` moved to `c4`: the Defender on `c3`, caught between `c4` and the ' +
              'Attacker on `c2`, is captured (written `a4 c4 x c3`).'
        }],
      },
      {
        title: 'How the game ends',
        text: [{
          list: [
            'The **Defenders** win when the king reaches a corner.',
            'The **Attackers** win when they capture the king.',
            'A side with no legal move on its turn loses.',
            'The same position (all pieces and the side to move) a third time is a draw.',
          ]
        }],
      },
    ],
  },
  baltek: {
    record: '#! BALTEK\n1   B/@ d3/f3 g3/d1 e1/\n',
    sections: [
      {
        title: 'The game',
        text: [
          'Baltek is football on a board, for two teams: **Blue (B)** and **Red (R)**. Each has six ' +
              'footballers with a strength written on them: a captain 3, two 2s and three 1s. There is one ' +
              'ball. **Blue kicks off.**',
        ],
      },
      {
        title: 'The field',
        text: [
          'The field has 10 × 5 squares (`b1` to `k5`) and two goals: `a3`, which Blue defends, and `l3`, ' +
              'which Red defends. A goal holds only the ball. A field square holds at most one footballer of ' +
              'each team, and the ball.',
        ],
        figures: [{step: 0, caption: 'The kickoff: the ball at the feet of Blue\'s captain on `f3`.'}],
      },
      {
        title: 'A turn: three action points',
        text: [
          'Each turn the team to move has **3 action points**; points left unused are lost, and a team may end ' +
              'its turn at any time. The actions, in any order:',
          {
            list: [
              '**Run** (1 point): a footballer that has not run this turn steps to one of the 8 squares around ' +
                  'it: a field square without a teammate (an opponent or the ball may be there; the ball does ' +
                  'not follow).',
              '**Sprint** (1 point and the bonus): the run may go up to 2 squares away. Each team has one bonus, ' +
                  'given back to both at every kickoff.',
              '**Kick** (1 point): a footballer standing on the ball that has not kicked this turn sends it 1 ' +
                  'or 2 squares in a straight line, in any of the 8 directions, never into its own goal.',
              '**Duel**: if a stronger opponent stands on the kicker\'s square, the kick costs 1 more point per ' +
                  'point of strength difference. **Lob**: a 2-square kick over a stronger opponent costs the same ' +
                  'extra.',
              '**Shot**: a kick into the other goal. Blue shoots only from `k3`, `j3`, `k2`, `k4`, `j1`, `j5`; ' +
                  'Red only from `b3`, `c3`, `b2`, `b4`, `c1`, `c5`.',
            ]
          },
        ],
        figures: [{
          step: 1,
          caption: 'Blue\'s first turn, three points: the captain passes from `f3` to `d3` (`@ d3`), runs to ' +
              '`g3`, and the 1 on `d1` runs to `e1`.'
        }],
      },
      {
        title: 'Goals and the end',
        text: [
          'A goal scores 1 and ends the turn; every piece goes back to its kickoff place and the team that ' +
              'conceded kicks off. The first team to reach the goal target wins: **2 goals** unless the option ' +
              '`goals` (1 to 5) says otherwise. With the option `turns=N` the game is drawn after N turns ' +
              'without a winner.',
        ],
      },
    ],
  },
  batik: {
    record: '#! BATIK\n1   C/TL 0 0/              F/SQ 0 5/\n2   C/PL 0 1.5/\n',
    sections: [
      {
        title: 'The game',
        text: [
          'Batik is a game of balance. Two players, **Light (C)** and **Dark (F)**, each with nine pieces of ' +
              'the same shapes, drop them in turn into an upright frame; the pieces fall and settle as real ' +
              'ones would (the server simulates the fall). **Light starts.**',
        ],
      },
      {
        title: 'The frame and the pieces',
        text: [
          'The frame is a well 8 units wide and 8 high, open at the top. Each set has a square, a triangle with ' +
              'a corner cut off, a rectangle with a notch, three triangles (large, medium, small) and three ' +
              'parallelograms (long, medium, small).',
        ],
        figures: [{step: 0, caption: 'The empty frame, each player\'s nine pieces beside it.'}],
      },
      {
        title: 'A turn: one drop',
        text: [
          'On your turn you drop one of your pieces not yet in the frame. You choose the piece, its rotation (a ' +
              'multiple of 15 degrees), whether it is flipped over, and where it goes across the frame. The ' +
              'piece is let go with its lowest point on the rim and falls; it is never pushed.',
        ],
        figures: [{
          step: 3,
          caption: 'Three drops: Light\'s large triangle on the floor, Dark\'s square beside it, then Light\'s ' +
              'long parallelogram on top.'
        }],
      },
      {
        title: 'How a game ends',
        text: [
          'When the pieces have come to rest, if any piece sticks out above the rim, **the player who dropped ' +
              'loses**, whichever piece sticks out. A player who must drop and has no piece left loses.',
          'By default the players play a **match**: after each game, the loser\'s dropped piece leaves that ' +
              'player\'s set for the rest of the match, and the winner starts the next game. The match ends ' +
              'when a player has to drop and has no piece left: that player loses the match. The option ' +
              '`match=off` plays a single game.',
        ],
      },
    ],
  },
  'kopf-oder-knopf': {
    record: '#! KOPF-ODER-KNOPF\n1   R/h9 h8/            B/i3 h3/\n2   R/x b8/i8 h9/\n',
    sections: [
      {
        title: 'The game',
        text: [
          'Kopf oder Knopf ("head or button") is played with buttons on a board of holes. Two players, ' +
              '**Red (R)** and **Blue (B)**, 14 buttons each. **Red moves first.**',
        ],
      },
      {
        title: 'The board',
        text: [
          '10 × 10 squares, columns `a`–`j`, rows `1`–`10`. Each square shows 1 to 4 holes: the number of holes ' +
              'under a button is how far it moves and how strong it is. The buttons start on the second ring ' +
              'from the edge, the colours alternating all the way round.',
        ],
        figures: [{step: 0, caption: 'The start: the 28 buttons on the ring, Red on `b9`, Blue on `c9`, and so ' +
                                         'on round.'}],
      },
      {
        title: 'A turn, in three steps',
        text: [{
          list: [
            '**Penalty** (if you wish): if the opponent has a group of three or more buttons touching each ' +
                'other (along a side or a corner), you may remove one button of such a group.',
            '**Strike** (automatic): each of your pairs, exactly two of your buttons touching, attacks along ' +
                'the line through them, both ways, as far as the holes under the two add up to. The first ' +
                'button met, if it is the opponent\'s, is removed; if it is yours, the line is blocked. A group ' +
                'of three or more never attacks.',
            '**Move** (you must): one of your buttons goes in one of the 8 directions exactly as many squares ' +
                'as holes under it (from a 4-hole square, 1 to 4 squares), jumping over any buttons, onto an ' +
                'empty square.',
          ]
        }],
        figures: [{
          step: 3,
          caption: 'Red\'s second turn: the strike removes Blue\'s button on `b8` (written `x b8`), then Red ' +
              'moves `i8` to `h9`.'
        }],
      },
      {
        title: 'How the game ends',
        text: [
          'The first player to have removed **10** of the opponent\'s buttons wins, at once (the option ' +
              '`target` sets 8 to 14). A player with no legal move passes; two passes in a row end the game, and ' +
              'whoever removed more buttons wins (equal is a draw).',
        ],
      },
    ],
  },
  'bi-litaire': {
    record: '#! BI-LITAIRE\n1   M/x c5/                 T/A2 ^1/\n2   M/e5 c5/\n',
    sections: [
      {
        title: 'The game',
        text: [
          'Bi-litaire is solitaire for two. The players play **two rounds with the roles swapped**: in each ' +
              'round one is the **marble player (M)**, the other the **tray player (T)**. Player 1 holds the ' +
              'marbles in round 1.',
        ],
      },
      {
        title: 'The board',
        text: [
          'Twelve trays of 2 × 2 holes stand on a 4 × 4 grid of slots (columns `A`–`D`, rows `1`–`4`); the four ' +
              'corner slots start empty. The holes are named `a1` to `h8`. A marble fills each of the 48 holes.',
        ],
        figures: [{step: 0, caption: 'The start of a round: twelve trays, 48 marbles.'}],
      },
      {
        title: 'The turns',
        text: [
          'The marble player begins the round by removing any one marble. Then the tray player and the marble ' +
              'player take turns, the tray player first.',
          {
            list: [
              '**Tray player**: slides one tray one way (up, down, left or right) into free slots, pushing the ' +
                  'trays touching it ahead (at most 3 trays: 3 slots for one tray, 2 for two, 1 for three), or ' +
                  'removes an empty tray for good. With it, the tray player may **announce** a number k of 2 or ' +
                  'more, if some marble can then make k jumps in a row.',
              '**Marble player**: one marble jumps along a row or column over the next marble into the empty ' +
                  'hole behind it; the jumped marble is removed. After an announcement k, one marble makes ' +
                  'exactly k jumps in a row. A jump never lands on or crosses an empty slot.',
            ]
          },
        ],
        figures: [
          {step: 2, caption: 'After the first marble (`c5`) was removed, the tray player slid tray `A2` up ' +
                                 '(`A2 ^1`), pushing `A3` along.'},
          {step: 3, caption: 'The marble on `e5` jumped over `d5` into `c5` (`e5 c5`): `d5` is removed.'},
        ],
      },
      {
        title: 'How the game ends',
        text: [
          'A round ends when the tray player\'s turn leaves the marble player no jump. Its score is the number ' +
              'of marbles left: the marble player wants it low, the tray player high. After both rounds, the ' +
              'player whose marble round left **fewer marbles** wins; equal is a draw.',
        ],
      },
    ],
  },
};

// The games with a help page, in the lobby's order.
export const kHelpGames = kGames.map((g) => g.name).filter((name) => kHelp[name]);

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
         kHelpGames.map(
             (game) => el(
                 'li', {'data-game': game}, el('a', {href: `#/help/${game}`, class: 'help-game-link'}, game_title(game)),
                 ' — ', game_about(game))))));
}

// #/help/GAME: the rules in sections, the figures drawn once the replay is in.
function render_game(root, game) {
  const help = kHelp[game];
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
  const others = kHelpGames.filter((g) => g !== game);
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
  if (!kHelp[game]) {
    document.title = 'How to play — Cinq';
    root.append(el('article', {class: 'help card'}, el('h1', {}, 'No such game'),
                   el('p', {}, 'Cinq has no game by that name. ', el('a', {href: '#/help'}, 'All the games'), '.')));
    return () => {};
  }
  return render_game(root, game);
}
