// Français : les mêmes clés que le catalogue anglais (en.js).
export default {
  'language.label': 'Langue',
  'language.switch_title': 'La langue des pages',
  'games.load_failed': 'Impossible de charger les jeux\u00a0: {error}',
  'header.your_name': 'Votre nom',
  'header.your_page': 'Vos classements et vos parties',
};
