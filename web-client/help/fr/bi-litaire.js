// Comment jouer au Bi-litaire (#/help/bi-litaire), in French: the English page (../bi-litaire.js) section for
// section, with the same record and the same figures (the record is notation and is never translated).
// help.js shows it when the page is in French.
export default {
  record: '#! BI-LITAIRE\n1   M/x c5/                 T/A2 ^1/\n2   M/e5 c5/\n',
  sections: [
    {
      title: 'Le jeu',
      text: [
        'Le Bi-litaire est un solitaire à deux. Les joueurs jouent **deux manches en échangeant les rôles**\u00a0: ' +
            'à chaque manche, l\'un est le **joueur de billes (M)**, l\'autre le **joueur de plateaux (T)**. Le ' +
            'joueur 1 a les billes dans la première manche.',
      ],
    },
    {
      title: 'Le plateau',
      text: [
        'Douze petits plateaux coulissants de 2 × 2 trous sont posés sur une grille de 4 × 4 emplacements ' +
            '(colonnes `A`–`D`, rangées `1`–`4`)\u00a0; les quatre emplacements des coins sont vides au départ. ' +
            'Les trous sont nommés de `a1` à `h8`. Une bille occupe chacun des 48 trous.',
      ],
      figures: [{step: 0, caption: 'Le début d\'une manche\u00a0: douze petits plateaux, 48 billes.'}],
    },
    {
      title: 'Les tours',
      text: [
        'Le joueur de billes commence la manche en retirant une bille de son choix. Ensuite, le joueur de ' +
            'plateaux et le joueur de billes jouent à tour de rôle, le joueur de plateaux en premier.',
        {
          list: [
            '**Joueur de plateaux**\u00a0: il fait glisser un petit plateau dans une direction (haut, bas, ' +
                'gauche ou droite) sur des emplacements libres, en poussant devant lui les plateaux qui le ' +
                'touchent (3 plateaux au plus\u00a0: 3 emplacements pour un plateau, 2 pour deux, 1 pour ' +
                'trois), ou il retire définitivement un plateau vide. Avec ce coup, il peut **annoncer** un ' +
                'nombre k, 2 ou plus, si une bille peut alors faire k sauts à la suite.',
            '**Joueur de billes**\u00a0: une bille saute, le long d\'une rangée ou d\'une colonne, par-dessus la ' +
                'bille voisine dans le trou vide juste derrière\u00a0; la bille sautée est retirée. Après une ' +
                'annonce k, une même bille fait exactement k sauts à la suite. Un saut ne tombe jamais sur un ' +
                'emplacement vide et n\'en franchit jamais.',
          ]
        },
      ],
      figures: [
        {step: 2, caption: 'Après le retrait de la première bille (`c5`), le joueur de plateaux a fait glisser ' +
                               'le plateau `A2` vers le haut (`A2 ^1`), en poussant `A3`.'},
        {step: 3, caption: 'La bille de `e5` a sauté par-dessus `d5` jusqu\'en `c5` (`e5 c5`)\u00a0: `d5` est ' +
                               'retirée.'},
      ],
    },
    {
      title: 'La fin de la partie',
      text: [
        'Une manche prend fin quand le coup du joueur de plateaux ne laisse aucun saut au joueur de billes. ' +
            'Son score est le nombre de billes restantes\u00a0: le joueur de billes le veut bas, le joueur de ' +
            'plateaux élevé. Après les deux manches, le joueur dont la manche aux billes a laissé **le moins ' +
            'de billes** gagne\u00a0; à égalité, la partie est nulle.',
      ],
    },
  ],
};
