// Français : les mêmes clés que le catalogue anglais (en.js).
export default {
  // ---- common: the header, the language
  'language.label': 'Langue',
  'language.switch_title': 'La langue des pages',
  'games.load_failed': 'Impossible de charger les jeux\u00a0: {error}',
  'header.your_name': 'Votre nom',
  'header.your_page': 'Vos classements et vos parties',
  // ---- end common

  // ---- errors: the server's refusals by code (errors.js)
  'error.unknown': 'Quelque chose s\'est mal passé.',
  'error.other': 'Le serveur a refusé : {message}',
  'error.bad_json': 'Le serveur n\'a pas compris le message.',
  'error.bad_message': 'Le serveur n\'a pas compris la demande.',
  'error.bad_request': 'Le serveur n\'a pas compris la demande.',
  'error.unknown_type': 'Ce serveur ne connaît pas cette commande.',
  'error.too_big': 'C\'est trop long pour être envoyé.',
  'error.too_large': 'C\'est trop volumineux pour être envoyé.',
  'error.rate_limited': 'Trop de demandes à la fois : attendez un instant et réessayez.',
  'error.rate': 'Trop de demandes à la fois : attendez un instant et réessayez.',
  'error.hello_required': 'La connexion n\'est pas encore prête : réessayez.',
  'error.bad_token': 'Le lien de cette place n\'est pas valable, ou ne l\'est plus.',
  'error.bad_name': 'Ce nom ne peut pas être utilisé.',
  'error.unknown_game': 'Ce serveur ne joue pas à ce jeu.',
  'error.bad_options': 'Ces options ne sont pas permises pour ce jeu.',
  'error.bad_clock': 'Cette pendule n\'est pas permise.',
  'error.no_room': 'Cette partie n\'existe pas.',
  'error.not_found': 'Introuvable.',
  'error.seat_taken': 'Cette place est prise.',
  'error.already_seated': 'Vous avez déjà une place dans cette partie.',
  'error.seat_owned': 'Cette place appartient à un compte : connectez-vous pour la jouer.',
  'error.seat_held': 'Cette place est ouverte dans un autre navigateur.',
  'error.not_seated': 'Vous n\'avez pas de place dans cette partie.',
  'error.not_started': 'La partie attend un second joueur.',
  'error.not_your_turn': 'Ce n\'est pas votre tour.',
  'error.illegal': 'Ce coup n\'est pas permis ici.',
  'error.game_over': 'La partie est terminée.',
  'error.cannot_abort': 'Les deux joueurs ont joué : abandonnez ou proposez la nulle.',
  'error.cannot_take_back': 'Il n\'y a pas de coup à reprendre.',
  'error.no_takeback_offer': 'Il n\'y a pas de demande de reprise en attente.',
  'error.bad_chat': 'Ce message ne peut pas être envoyé.',
  'error.chat_limit': 'Trop de messages : attendez un instant.',
  'error.already_offered': 'Vous l\'avez déjà proposé.',
  'error.no_draw_offer': 'Il n\'y a pas de proposition de nulle en attente.',
  'error.not_finished': 'La partie n\'est pas terminée.',
  'error.already_asked': 'Vous l\'avez déjà demandé.',
  'error.rematch_exists': 'Une revanche existe déjà.',
  'error.storage': 'Le serveur n\'a pas pu l\'enregistrer : réessayez dans un instant.',
  'error.busy': 'Le serveur est occupé : réessayez dans un instant.',
  'error.too_many_rooms': 'Vous avez trop de parties ouvertes : terminez-en ou fermez-en une d\'abord.',
  'error.bad_record': 'La notation ne peut pas être lue.',
  'error.bad_login': 'Nom d\'utilisateur ou mot de passe incorrect.',
  'error.bad_password': 'Ce mot de passe ne peut pas être utilisé.',
  'error.username_taken': 'Ce nom d\'utilisateur est déjà pris.',
  'error.already_registered': 'Vous êtes déjà inscrit.',
  'error.account_required': 'Connectez-vous d\'abord.',
  'error.no_account': 'Ce compte n\'existe pas.',
  'error.bad_address': 'Ce n\'est pas une adresse électronique.',
  'error.bad_zone': 'Ce fuseau horaire est inconnu.',
  'error.bad_reminders': 'Ces rappels ne sont pas permis.',
  'error.no_mail': 'Ce serveur n\'envoie pas de courrier.',
  'error.no_account_address': 'Le compte n\'a pas d\'adresse électronique confirmée.',
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
