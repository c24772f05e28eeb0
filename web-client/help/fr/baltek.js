// Comment jouer au Baltek (#/help/baltek), in French: the English page (../baltek.js) section for section,
// with the same record and the same figures (the record is notation and is never translated). help.js shows
// it when the page is in French.
export default {
  record: '#! BALTEK\n1   B/@ d3/f3 g3/d1 e1/\n',
  sections: [
    {
      title: 'Le jeu',
      text: [
        'Le Baltek, c\'est du football sur un plateau, pour deux équipes\u00a0: les **Bleus (B)** et les ' +
            '**Rouges (R)**. Chacune a six footballeurs dont la force est inscrite sur le pion\u00a0: un ' +
            'capitaine de force 3, deux de force 2 et trois de force 1. Il y a une seule balle. **Les Bleus ' +
            'donnent le coup d\'envoi.**',
      ],
    },
    {
      title: 'Le terrain',
      text: [
        'Le terrain compte 10 × 5 cases (de `b1` à `k5`) et deux buts\u00a0: `a3`, que défendent les Bleus, ' +
            'et `l3`, que défendent les Rouges. Un but ne reçoit que la balle. Une case du terrain accueille ' +
            'au plus un footballeur de chaque équipe, et la balle.',
      ],
      figures: [{step: 0, caption: 'L\'engagement\u00a0: la balle aux pieds du capitaine bleu, en `f3`.'}],
    },
    {
      title: 'Un tour\u00a0: trois points d\'action',
      text: [
        'À chaque tour, l\'équipe qui joue dispose de **3 points d\'action**\u00a0; les points non dépensés ' +
            'sont perdus, et une équipe peut finir son tour à tout moment. Les actions, dans l\'ordre de son ' +
            'choix\u00a0:',
        {
          list: [
            '**Courir** (1 point)\u00a0: un footballeur qui n\'a pas encore couru pendant ce tour va sur l\'une ' +
                'des 8 cases qui l\'entourent, une case du terrain sans coéquipier (un adversaire ou la balle ' +
                'peuvent s\'y trouver\u00a0; la balle ne suit pas).',
            '**Sprint** (1 point et le bonus)\u00a0: la course peut aller jusqu\'à 2 cases. Chaque équipe a un ' +
                'seul bonus, rendu aux deux équipes à chaque engagement.',
            '**Passer/tirer** (1 point)\u00a0: un footballeur qui occupe la case de la balle et n\'a pas encore ' +
                'passé pendant ce tour l\'envoie à 1 ou 2 cases en ligne droite, dans l\'une des 8 directions, ' +
                'jamais dans son propre but.',
            '**Duel**\u00a0: si un adversaire plus fort occupe la case du passeur, la passe coûte 1 point de plus ' +
                'par point d\'écart de force. **Lob**\u00a0: une passe de 2 cases par-dessus un adversaire plus ' +
                'fort coûte le même supplément.',
            '**Tir au but**\u00a0: une passe dans le but adverse. Les Bleus ne tirent que depuis `k3`, `j3`, ' +
                '`k2`, `k4`, `j1`, `j5`\u00a0; les Rouges que depuis `b3`, `c3`, `b2`, `b4`, `c1`, `c5`.',
          ]
        },
      ],
      figures: [{
        step: 1,
        caption: 'Le premier tour des Bleus, trois points\u00a0: le capitaine passe la balle de `f3` en `d3` ' +
            '(`@ d3`), court en `g3`, et le 1 de `d1` court en `e1`.'
      }],
    },
    {
      title: 'Les buts et la fin',
      text: [
        'Un but rapporte 1 et termine le tour\u00a0; tous les pions reviennent à leur place d\'engagement et ' +
            'l\'équipe qui a encaissé le but engage. La première équipe qui atteint l\'objectif gagne\u00a0: ' +
            '**2 buts**, sauf si l\'option `goals` (de 1 à 5) en fixe un autre. Avec l\'option `turns=N`, la ' +
            'partie est nulle après N tours sans vainqueur.',
      ],
    },
  ],
};
