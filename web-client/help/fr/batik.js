// Comment jouer au Batik (#/help/batik), in French: the English page (../batik.js) section for section, with
// the same record and the same figures (the record is notation and is never translated). help.js shows it
// when the page is in French.
export default {
  record: '#! BATIK\n1   C/TL 0 0/              F/SQ 0 5/\n2   C/PL 0 1.5/\n',
  sections: [
    {
      title: 'Le jeu',
      text: [
        'Le Batik est un jeu d\'équilibre. Deux joueurs, **Clair (C)** et **Foncé (F)**, ont chacun neuf ' +
            'pièces des mêmes formes et les laissent tomber à tour de rôle dans un tableau de jeu vertical\u00a0; ' +
            'les pièces tombent et se posent comme de vraies pièces (le serveur simule la chute). **Clair ' +
            'commence.**',
      ],
    },
    {
      title: 'Le tableau de jeu et les pièces',
      text: [
        'Le tableau de jeu est un puits de 8 unités de large sur 8 de haut, ouvert en haut. Chaque jeu de ' +
            'pièces comprend un carré, un triangle au coin coupé, un rectangle entaillé, trois triangles ' +
            '(grand, moyen, petit) et trois parallélogrammes (long, moyen, petit).',
      ],
      figures: [{step: 0, caption: 'Le tableau de jeu vide, les neuf pièces de chaque joueur à côté.'}],
    },
    {
      title: 'Un tour\u00a0: une pièce lâchée',
      text: [
        'À votre tour, vous lâchez une de vos pièces qui n\'est pas encore dans le tableau. Vous choisissez la ' +
            'pièce, son angle (un multiple de 15 degrés), si elle est retournée, et l\'endroit où elle entre dans ' +
            'le tableau. La pièce est lâchée avec son point le plus bas au niveau du bord et tombe\u00a0; elle ' +
            'n\'est jamais poussée.',
      ],
      figures: [{
        step: 3,
        caption: 'Trois pièces lâchées\u00a0: le grand triangle de Clair au fond, le carré de Foncé à côté, ' +
            'puis le long parallélogramme de Clair par-dessus.'
      }],
    },
    {
      title: 'La fin d\'une partie',
      text: [
        'Quand les pièces sont immobiles, si une pièce dépasse du bord supérieur, **le joueur qui vient de ' +
            'jouer perd**, quelle que soit la pièce qui dépasse. Un joueur qui doit jouer et n\'a plus de pièce ' +
            'perd.',
        'Par défaut, les joueurs disputent un **match**\u00a0: après chaque partie, la pièce lâchée par le ' +
            'perdant quitte son jeu pour le reste du match, et le gagnant commence la partie suivante. Le match ' +
            'prend fin quand un joueur doit jouer et n\'a plus de pièce\u00a0: ce joueur perd le match. ' +
            'L\'option `match=off` fait jouer une seule partie.',
      ],
    },
  ],
};
