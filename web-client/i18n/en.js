// English: the catalog every other language follows key for key (web-client/i18n.js says how texts are
// written: {parameters}, and plural forms as objects).
export default {
  'language.label': 'Language',
  'language.switch_title': 'The language of the pages',
  'games.load_failed': 'Could not load the games: {error}',
  'header.your_name': 'Your name',
  'header.your_page': 'Your ratings and games',
};
