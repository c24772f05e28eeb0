// Les mots des mails en français (words.h) : les mêmes clés et les mêmes {paramètres} que words_en.cpp
// (tests/mail/words_test.cpp le vérifie). Les noms des camps viennent des règles de chaque jeu
// (GameWords en français), les mêmes que ceux du client (web-client/boards/fr/).
#include "mail/words.h"

namespace cinq::mail {

namespace {

constexpr Words kWords[] = {
    // Les dates : « dimanche 29 novembre 2026 à 15:00 CET ».
    {"date.format", "{weekday} {day} {month} {year} à {time} {zone}"},
    {"date.day.0", "dimanche"}, {"date.day.1", "lundi"}, {"date.day.2", "mardi"}, {"date.day.3", "mercredi"},
    {"date.day.4", "jeudi"}, {"date.day.5", "vendredi"}, {"date.day.6", "samedi"},
    {"date.month.0", "janvier"}, {"date.month.1", "février"}, {"date.month.2", "mars"},
    {"date.month.3", "avril"}, {"date.month.4", "mai"}, {"date.month.5", "juin"}, {"date.month.6", "juillet"},
    {"date.month.7", "août"}, {"date.month.8", "septembre"}, {"date.month.9", "octobre"},
    {"date.month.10", "novembre"}, {"date.month.11", "décembre"},
    {"count.days.one", "{n} jour"}, {"count.days.other", "{n} jours"},
    {"count.games.one", "{n} partie"}, {"count.games.other", "{n} parties"},

    // Les mails d'une partie (notices.cpp).
    {"game.subject", "Cinq : {game}, {first} contre {second} ({room})"},
    {"game.open_seat", "(place libre)"},
    {"game.players", "{first}, {first_side}, contre {second}, {second_side}.\n"},
    {"game.deadline", "Date limite : {time}. Passé ce délai, le camp qui a le trait perd au temps.\n"},
    {"game.footer",
     "\nPour jouer par mail, répondez à ce message avec votre tour sur une ligne à part, par exemple\n    "
     "{letter}/.../\nou avec tout le relevé et votre tour à la suite. Les lignes citées avec « > » sont "
     "ignorées.\n"},
    {"game.footer.play", "Pour jouer dans un navigateur : {link}\n"},
    {"game.footer.watch", "Pour regarder : {link}\n"},
    {"game.footer.unsubscribe", "Plus aucun mail pour cette partie : {link}\n"},
    {"game.position", "\nLe relevé jusqu'ici :\n\n{record}\nLa position :\n\n{board}\n"},
    {"turn.head", "À vous de jouer, {name}, au {game} (partie {room}).\n"},
    {"turn.player", "joueur"},
    {"turn.last", "{name} a joué : {turn}\n"},
    {"turn.opponent", "Votre adversaire"},
    {"reminder.head", "Rappel : votre tour au {game} (partie {room}) reste à jouer.\n"},
    {"over.head", "La partie est finie : {result}\n"},
    {"over.site", "\nLa partie sur le site : {link}\n"},
    {"invite.head",
     "{inviter} vous invite à une partie de {game} par correspondance sur Cinq (partie {room}) : {days} par "
     "coup.\n"},
    {"invite.inviter", "Un joueur"},
    {"invite.side", "Vous jouez {side}. Vous pouvez jouer toute la partie en répondant à ces mails.\n"},
    {"invite.first", "\nVous jouez en premier.\n"},
    {"invite.wait", "\n{inviter} joue en premier : vous recevrez un mail quand ce sera votre tour.\n"},
    {"played.head", "Votre tour est joué.\n"},
    {"played.turn", "Votre tour est joué : {turn}\n"},
    {"played.over", "La partie est finie : {result}\n"},
    {"played.next", "C'est maintenant à {name} de jouer.\n"},
    {"played.opponent", "votre adversaire"},
    {"refused.head", "Votre mail n'a rien joué : {reason}\nRien n'a changé dans la partie.\n"},
    {"refused.no_moves",
     "votre mail ne contenait aucun coup : répondez avec le relevé et votre tour en dessous, sur une ligne à "
     "part"},
    {"refused.no_moves_like",
     "votre mail ne contenait aucun coup : répondez avec le relevé et votre tour en dessous, sur une ligne à "
     "part (comme {example})"},
    {"refused.over", "la partie est finie : {result}"},
    {"refused.old_game", "cette partie date d'avant le jeu par mail"},
    {"confirm.seat",
     "Cette adresse a été donnée pour votre place au {game} (partie {room}) sur Cinq. Pour recevoir ici les "
     "mails de la partie (votre tour, les rappels, le résultat), ouvrez\n    {link}\nou répondez à ce mail avec "
     "votre tour. Si vous n'avez rien demandé, ignorez ce mail : rien de plus ne sera envoyé.\n"},

    // Les mails d'un compte (account.cpp).
    {"account.confirm.subject", "Cinq : confirmez votre adresse"},
    {"account.confirm",
     "Cette adresse a été donnée pour le compte {name} sur Cinq. Pour recevoir ici les mails de ses parties "
     "(votre tour, les rappels, les résultats, ou un résumé quotidien), ouvrez\n    {link}\nSi vous n'avez rien "
     "demandé, ignorez ce mail : rien de plus ne sera envoyé.\n"},
    {"digest.subject", "Cinq : à vous de jouer dans {games}"},
    {"digest.head", "Bonjour {name}. C'est à vous de jouer dans {games}, la date limite la plus proche d'abord :\n"},
    {"digest.game", "\n{game} contre {opponent} (partie {room}), vous jouez {side}.\n"},
    {"digest.last", "  Son dernier tour : {turn}\n"},
    {"digest.deadline", "  Date limite : {time}\n"},
    {"digest.play", "  Jouer : {link}\n"},
    {"digest.reply", "  Ou envoyez votre tour par mail à : {address}\n"},
    {"digest.footer", "\nVos réglages de mail : {settings}\nPlus aucun mail : {unsubscribe}\n"},

    // Les résultats en mots (server/postman.cpp).
    {"result.goes_on", "la partie continue"},
    {"result.aborted", "la partie a été annulée"},
    {"result.draw", "partie nulle, {reason}"},
    {"result.wins", "{name} ({side}) gagne : {reason}"},
    {"result.seat", "place {n}"},
    {"reason.resign", "{loser} a abandonné"},
    {"reason.time", "{loser} a dépassé son temps"},
    {"reason.abandon", "{loser} a quitté la partie"},
    {"reason.escape", "le roi s'est échappé dans un coin"},
    {"reason.capture", "le roi a été capturé"},
    {"reason.blocked", "l'autre camp ne pouvait plus jouer"},
    {"reason.repetition", "la même position est revenue une troisième fois"},
    {"reason.score", "aux points"},
    {"reason.overflow", "une pièce jouée dépassait du bord du tableau de jeu"},
    {"reason.exhausted", "l'autre camp n'avait plus de pièce à lâcher"},
    {"reason.agreement", "par accord mutuel"},
    {"reason.limit", "la limite de tours a été atteinte"},
};

}  // namespace

extern constinit const std::span<const Words> kFrenchWords = kWords;

}  // namespace cinq::mail
