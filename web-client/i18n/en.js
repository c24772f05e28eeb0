// English: the catalog every other language follows key for key (web-client/i18n.js says how texts are
// written: {parameters}, and plural forms as objects).
export default {
  // ---- common: the header, the language
  'language.label': 'Language',
  'language.switch_title': 'The language of the pages',
  'games.load_failed': 'Could not load the games: {error}',
  'header.your_name': 'Your name',
  'header.your_page': 'Your ratings and games',
  // ---- end common

  // ---- errors: the server's refusals by code (errors.js)
  'error.unknown': 'Something went wrong.',
  'error.other': 'The server refused: {message}',
  'error.bad_json': 'The server did not understand the message.',
  'error.bad_message': 'The server did not understand the request.',
  'error.bad_request': 'The server did not understand the request.',
  'error.unknown_type': 'This server does not know that command.',
  'error.too_big': 'That is too long to send.',
  'error.too_large': 'That is too large to send.',
  'error.rate_limited': 'Too much at once: wait a moment and try again.',
  'error.rate': 'Too much at once: wait a moment and try again.',
  'error.hello_required': 'The connection is not ready yet: try again.',
  'error.bad_token': 'This seat\'s link is not valid, or no longer.',
  'error.bad_name': 'That name cannot be used.',
  'error.unknown_game': 'This server does not play that game.',
  'error.bad_options': 'Those options are not allowed for this game.',
  'error.bad_clock': 'That clock is not allowed.',
  'error.no_room': 'There is no such game.',
  'error.not_found': 'Not found.',
  'error.seat_taken': 'That seat is taken.',
  'error.already_seated': 'You already have a seat in this game.',
  'error.seat_owned': 'This seat belongs to an account: log in to play it.',
  'error.seat_held': 'This seat is open in another browser.',
  'error.not_seated': 'You have no seat in this game.',
  'error.not_started': 'The game waits for a second player.',
  'error.not_your_turn': 'It is not your turn.',
  'error.illegal': 'That move is not allowed here.',
  'error.game_over': 'The game is over.',
  'error.cannot_abort': 'Both players have played: resign or offer a draw instead.',
  'error.cannot_take_back': 'There is no move to take back.',
  'error.no_takeback_offer': 'There is no takeback offer to answer.',
  'error.bad_chat': 'That message cannot be sent.',
  'error.chat_limit': 'Too many messages: wait a moment.',
  'error.already_offered': 'You have already offered.',
  'error.no_draw_offer': 'There is no draw offer to answer.',
  'error.not_finished': 'The game is not finished.',
  'error.already_asked': 'You have already asked.',
  'error.rematch_exists': 'A rematch already exists.',
  'error.storage': 'The server could not save that: try again in a moment.',
  'error.busy': 'The server is busy: try again in a moment.',
  'error.too_many_rooms': 'You have too many games open: finish or close one first.',
  'error.bad_record': 'The record cannot be read.',
  'error.bad_login': 'Wrong user name or password.',
  'error.bad_password': 'That password cannot be used.',
  'error.username_taken': 'That user name is taken.',
  'error.already_registered': 'You are already registered.',
  'error.account_required': 'Log in first.',
  'error.no_account': 'There is no such account.',
  'error.bad_address': 'That is not an e-mail address.',
  'error.bad_zone': 'That time zone is not known.',
  'error.bad_reminders': 'Those reminders are not allowed.',
  'error.no_mail': 'This server does not send mail.',
  'error.no_account_address': 'The account has no confirmed e-mail address.',
  // ---- end errors

  // ---- play: the lobby, the room, the move list, imports, chat (lobby.js, room*.js, ...)
  // ---- end play

  // ---- games: each game's words: titles, sides, options, actions (ui.js, words.js, boards/)
  // ---- end games

  // ---- help: the how-to-play pages (help.js)
  // ---- end help

  // ---- account: accounts, archives, ratings, mail settings (account*.js, archive*.js, ...)
  // ---- end account
};
