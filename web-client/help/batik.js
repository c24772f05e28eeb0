// How to play Batik (#/help/batik): its rules in short, written from docs/rules/ (the rules the server
// plays), for help.js, which draws the figures with the game's board module. `record`: the turns the figures
// come from; `sections`: [{title, text: [paragraph or {list: [...]}], figures: [{step, caption}]}], where
// `step` k is the position after the record's k-th turn (0: the start). `code` and **bold** marks in text.
export default {
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
};
