// Comment jouer au Tablut (#/help/tablut), in French: the English page (../tablut.js) section for section,
// with the same record and the same figures (the record is notation and is never translated). help.js shows
// it when the page is in French.
export default {
  record: '#! TABLUT\n1   A/e2 c2/              D/e3 c3/\n2   A/a4 c4 x c3/\n',
  sections: [
    {
      title: 'Le jeu',
      text: [
        'Le Tablut est un jeu de la famille du tafl, les jeux de siège du monde scandinave\u00a0: un roi et sa ' +
            'garde encerclés par deux fois plus d\'ennemis. Deux camps\u00a0: les **Attaquants (A)**, 16 pions ' +
            'foncés, et les **Défenseurs (D)**, 8 pions clairs et le roi. **Les Attaquants jouent en premier** ' +
            '(l\'option `first=defenders` inverse l\'ordre).',
      ],
    },
    {
      title: 'Le tablier',
      text: [
        '9 × 9 cases, colonnes `a`–`i` de gauche à droite, rangées `1`–`9` de bas en haut. Les quatre coins ' +
            '(`a1`, `a9`, `i1`, `i9`) sont le refuge que cherche le roi\u00a0; la case centrale `e5` est le ' +
            'trône, où le roi commence.',
      ],
      figures: [{step: 0, caption: 'Le départ\u00a0: les Attaquants sur les quatre bords, les Défenseurs en ' +
                                       'croix autour du roi sur son trône.'}],
    },
    {
      title: 'Un tour',
      text: [
        'Un tour est un coup. Chaque pion, roi compris, se déplace comme la tour aux échecs\u00a0: d\'autant de ' +
            'cases vides qu\'il veut le long d\'une rangée ou d\'une colonne, sans jamais sauter par-dessus un ' +
            'pion. On ne peut pas passer son tour.',
        {
          list: [
            'Seul le roi peut s\'arrêter sur un coin.',
            'Seul le roi peut s\'arrêter sur le trône\u00a0; tout pion peut le traverser quand il est vide, et le ' +
                'roi peut y revenir (l\'option `throne=plain` en fait une case ordinaire dès que le roi l\'a ' +
                'quitté).',
          ]
        },
      ],
    },
    {
      title: 'Les captures',
      text: [
        'Un pion est capturé quand le coup de l\'adversaire le prend en étau, le long d\'une rangée ou d\'une ' +
            'colonne, entre le pion qui vient de bouger et une autre case hostile. Seul le camp qui joue ' +
            'capture\u00a0: un pion peut aller sans risque entre deux ennemis. Il n\'y a pas de capture en ' +
            'diagonale\u00a0; un seul coup peut capturer jusqu\'à trois pions.',
        'Cases hostiles\u00a0: un pion ennemi (le roi capture avec les Défenseurs, sauf si l\'option ' +
            '`king=unarmed` le désarme), un coin (pour les deux camps), et le trône\u00a0: toujours pour les ' +
            'Attaquants (sauf si le roi, désarmé, l\'occupe), pour les Défenseurs seulement quand il est ' +
            'vide\u00a0; avec `throne=plain`, il n\'est jamais hostile.',
        '**Le roi** n\'est capturé que lorsque les Attaquants occupent les quatre cases qui l\'entourent (ou ' +
            'trois d\'entre elles, la quatrième étant le trône), la dernière par le coup qui vient d\'être joué. ' +
            'Au bord du tablier, le roi ne peut pas être capturé.',
      ],
      figures: [{
        step: 3,
        caption: 'L\'Attaquant de `a4` est venu en `c4`\u00a0: le Défenseur de `c3`, pris entre `c4` et ' +
            'l\'Attaquant de `c2`, est capturé (noté `a4 c4 x c3`).'
      }],
    },
    {
      title: 'La fin de la partie',
      text: [{
        list: [
          'Les **Défenseurs** gagnent quand le roi atteint un coin.',
          'Les **Attaquants** gagnent quand ils capturent le roi.',
          'Un camp qui n\'a aucun coup permis à son tour perd.',
          'La même position (tous les pions et le camp qui doit jouer) pour la troisième fois\u00a0: la partie ' +
              'est nulle.',
        ]
      }],
    },
  ],
};
