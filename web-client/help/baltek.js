// How to play Baltek (#/help/baltek): its rules in short, written from docs/rules/ (the rules the server
// plays), for help.js, which draws the figures with the game's board module. `record`: the turns the figures
// come from; `sections`: [{title, text: [paragraph or {list: [...]}], figures: [{step, caption}]}], where
// `step` k is the position after the record's k-th turn (0: the start). `code` and **bold** marks in text.
export default {
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
};
