// How to play Bi-litaire (#/help/bi-litaire): its rules in short, written from docs/rules/ (the rules the server
// plays), for help.js, which draws the figures with the game's board module. `record`: the turns the figures
// come from; `sections`: [{title, text: [paragraph or {list: [...]}], figures: [{step, caption}]}], where
// `step` k is the position after the record's k-th turn (0: the start). `code` and **bold** marks in text.
export default {
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
};
