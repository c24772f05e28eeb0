// The mails' words in English (words.h): the reference catalog, every key; the other languages have the same
// keys with the same {parameters} (tests/mail/words_test.cpp checks it).
#include "mail/words.h"

namespace cinq::mail {

namespace {

constexpr Words kWords[] = {
    // Dates (words.h, human_time): "Sunday 29 November 2026, 15:00 CET".
    {"date.format", "{weekday} {day} {month} {year}, {time} {zone}"},
    {"date.day.0", "Sunday"}, {"date.day.1", "Monday"}, {"date.day.2", "Tuesday"}, {"date.day.3", "Wednesday"},
    {"date.day.4", "Thursday"}, {"date.day.5", "Friday"}, {"date.day.6", "Saturday"},
    {"date.month.0", "January"}, {"date.month.1", "February"}, {"date.month.2", "March"},
    {"date.month.3", "April"}, {"date.month.4", "May"}, {"date.month.5", "June"}, {"date.month.6", "July"},
    {"date.month.7", "August"}, {"date.month.8", "September"}, {"date.month.9", "October"},
    {"date.month.10", "November"}, {"date.month.11", "December"},
    {"count.days.one", "{n} day"}, {"count.days.other", "{n} days"},
    {"count.games.one", "{n} game"}, {"count.games.other", "{n} games"},

    // A game's mails (notices.cpp).
    {"game.subject", "Cinq: {game}, {first} vs {second} ({room})"},
    {"game.open_seat", "(open seat)"},
    {"game.players", "{first}, {first_side}, against {second}, {second_side}.\n"},
    {"game.deadline", "Deadline: {time}. Past it, the side to move loses on time.\n"},
    {"game.footer",
     "\nTo play by mail, reply to this message with your turn on a line of its own, for example\n    {letter}/.../\n"
     "or with the whole log and your turn appended. Lines quoted with '>' are ignored.\n"},
    {"game.footer.play", "To play in a browser: {link}\n"},
    {"game.footer.watch", "To watch: {link}\n"},
    {"game.footer.unsubscribe", "No more mail for this game: {link}\n"},
    {"game.position", "\nThe log so far:\n\n{record}\nThe position:\n\n{board}\n"},
    {"turn.head", "It is your turn, {name}, in {game} (game {room}).\n"},
    {"turn.player", "player"},
    {"turn.last", "{name} played: {turn}\n"},
    {"turn.opponent", "Your opponent"},
    {"reminder.head", "Reminder: your turn in {game} (game {room}) is still to be played.\n"},
    {"over.head", "The game is over: {result}\n"},
    {"over.site", "\nThe game on the site: {link}\n"},
    {"invite.head",
     "{inviter} invites you to a game of {game} by correspondence on Cinq (game {room}): {days} per move.\n"},
    {"invite.inviter", "A player"},
    {"invite.side", "You play {side}. You can play the whole game by replying to these mails.\n"},
    {"invite.first", "\nYou move first.\n"},
    {"invite.wait", "\n{inviter} moves first: you will get a mail when it is your turn.\n"},
    {"played.head", "Your turn is played.\n"},
    {"played.turn", "Your turn is played: {turn}\n"},
    {"played.over", "The game is over: {result}\n"},
    {"played.next", "Now {name} is to move.\n"},
    {"played.opponent", "your opponent"},
    {"refused.head", "Your mail played nothing: {reason}\nNothing changed in the game.\n"},
    {"refused.no_moves", "your mail had no moves: reply with the log and your turn under it, on a line of its own"},
    {"refused.no_moves_like",
     "your mail had no moves: reply with the log and your turn under it, on a line of its own (like {example})"},
    {"refused.over", "the game is over: {result}"},
    {"refused.old_game", "this game was made before games could be played by mail"},
    {"confirm.seat",
     "This address was given for your seat in {game} (game {room}) on Cinq. To get the game's mails here (your "
     "turn, reminders, the result), open\n    {link}\nor reply to this mail with your turn. If you did not ask "
     "for it, ignore this mail: nothing more will be sent.\n"},

    // An account's mails (account.cpp).
    {"account.confirm.subject", "Cinq: confirm your address"},
    {"account.confirm",
     "This address was given for the account {name} on Cinq. To get its games' mails here (your turn, reminders, "
     "results, or a daily digest), open\n    {link}\nIf you did not ask for it, ignore this mail: nothing more "
     "will be sent.\n"},
    {"digest.subject", "Cinq: your turn in {games}"},
    {"digest.head", "Good day, {name}. It is your turn in {games}, the nearest deadline first:\n"},
    {"digest.game", "\n{game} against {opponent} (game {room}), you play {side}.\n"},
    {"digest.last", "  Their last turn: {turn}\n"},
    {"digest.deadline", "  Deadline: {time}\n"},
    {"digest.play", "  Play: {link}\n"},
    {"digest.reply", "  Or mail your turn to: {address}\n"},
    {"digest.footer", "\nYour mail settings: {settings}\nNo more mail at all: {unsubscribe}\n"},

    // Results in words (server/postman.cpp; docs/notation.md, "Results").
    {"result.goes_on", "the game goes on"},
    {"result.aborted", "the game was aborted"},
    {"result.draw", "a draw, {reason}"},
    {"result.wins", "{name} ({side}) wins: {reason}"},
    {"result.seat", "seat {n}"},
    {"reason.resign", "{loser} resigned"},
    {"reason.time", "{loser} ran out of time"},
    {"reason.abandon", "{loser} abandoned the game"},
    {"reason.escape", "the king escaped to a corner"},
    {"reason.capture", "the king was captured"},
    {"reason.blocked", "the other side could not move"},
    {"reason.repetition", "the same position came a third time"},
    {"reason.score", "on score"},
    {"reason.overflow", "a dropped piece stuck out"},
    {"reason.exhausted", "the other side had no piece left to drop"},
    {"reason.agreement", "by agreement"},
    {"reason.limit", "the turn limit was reached"},
};

}  // namespace

extern constinit const std::span<const Words> kEnglishWords = kWords;

}  // namespace cinq::mail
