// How to play Tablut (#/help/tablut): its rules in short, written from docs/rules/ (the rules the server
// plays), for help.js, which draws the figures with the game's board module. `record`: the turns the figures
// come from; `sections`: [{title, text: [paragraph or {list: [...]}], figures: [{step, caption}]}], where
// `step` k is the position after the record's k-th turn (0: the start). `code` and **bold** marks in text.
export default {
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
};
