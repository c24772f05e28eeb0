// How to play Kopf oder Knopf (#/help/kopf-oder-knopf): its rules in short, written from docs/rules/ (the rules the server
// plays), for help.js, which draws the figures with the game's board module. `record`: the turns the figures
// come from; `sections`: [{title, text: [paragraph or {list: [...]}], figures: [{step, caption}]}], where
// `step` k is the position after the record's k-th turn (0: the start). `code` and **bold** marks in text.
export default {
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
};
