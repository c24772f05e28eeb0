// Comment jouer au Kopf oder Knopf (#/help/kopf-oder-knopf), in French: the English page
// (../kopf-oder-knopf.js) section for section, with the same record and the same figures (the record is
// notation and is never translated). help.js shows it when the page is in French.
export default {
  record: '#! KOPF-ODER-KNOPF\n1   R/h9 h8/            B/i3 h3/\n2   R/x b8/i8 h9/\n',
  sections: [
    {
      title: 'Le jeu',
      text: [
        'Kopf oder Knopf («\u00a0tête ou bouton\u00a0») se joue avec des boutons sur un plateau percé de ' +
            'trous. Deux joueurs, **Rouge (R)** et **Bleu (B)**, ont 14 boutons chacun. **Rouge joue en ' +
            'premier.**',
      ],
    },
    {
      title: 'Le plateau',
      text: [
        '10 × 10 cases, colonnes `a`–`j`, rangées `1`–`10`. Chaque case montre de 1 à 4 trous\u00a0: le nombre ' +
            'de trous sous un bouton dit de combien de cases il se déplace et quelle est sa force. Au départ, les ' +
            'boutons sont sur le deuxième rang à partir du bord, les couleurs alternant tout autour.',
      ],
      figures: [{step: 0, caption: 'Le départ\u00a0: les 28 boutons sur leur rang, Rouge en `b9`, Bleu en ' +
                                       '`c9`, et ainsi de suite tout autour.'}],
    },
    {
      title: 'Un tour, en trois temps',
      text: [{
        list: [
          '**Pénalité** (si vous le voulez)\u00a0: si l\'adversaire a un groupe de trois boutons ou plus qui ' +
              'se touchent (par un côté ou par un coin), vous pouvez retirer un bouton de ce groupe.',
          '**Frappe** (automatique)\u00a0: chacune de vos paires, exactement deux de vos boutons qui se ' +
              'touchent, attaque sur la ligne qui passe par eux, dans les deux sens, aussi loin que la somme ' +
              'des trous sous les deux boutons. Le premier bouton rencontré, s\'il est à l\'adversaire, est ' +
              'retiré\u00a0; s\'il est à vous, la ligne est bloquée. Un groupe de trois boutons ou plus ' +
              'n\'attaque jamais.',
          '**Déplacement** (obligatoire)\u00a0: un de vos boutons va, dans l\'une des 8 directions, d\'exactement ' +
              'autant de cases qu\'il a de trous sous lui (depuis une case à 4 trous, de 1 à 4 cases), en ' +
              'sautant par-dessus tous les boutons, jusqu\'à une case vide.',
        ]
      }],
      figures: [{
        step: 3,
        caption: 'Le deuxième tour de Rouge\u00a0: la frappe retire le bouton bleu de `b8` (noté `x b8`), puis ' +
            'Rouge joue `i8` en `h9`.'
      }],
    },
    {
      title: 'La fin de la partie',
      text: [
        'Le premier joueur qui a retiré **10** boutons à l\'adversaire gagne, aussitôt (l\'option `target` ' +
            'fixe ce nombre entre 8 et 14). Un joueur sans coup permis passe\u00a0; deux passes de suite ' +
            'terminent la partie, et celui qui a retiré le plus de boutons gagne (à égalité, la partie est ' +
            'nulle).',
      ],
    },
  ],
};
