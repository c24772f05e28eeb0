// The computer opponents' threads: a small pool of its own that runs bots::choose_turn, so a bot
// that thinks for seconds never holds a network thread or a room's strand. A room posts one job per bot turn
// with a CLONE of its state; the answer comes back through the job's `done`, which the room turns into a post
// to its own strand (RoomActor::on_bot_turn). The pool owns nothing of the rooms: a job's cancel flag is set
// by the room (closed, finished) or by stop() (the server is going), and a cancelled job is never answered.
//
// Bot seats: a bot holds a seat like a player, under the player id `bot:L` (L its level, 0..kMaxLevel; see
// bot_player for two bots of one level) and
// the name bots::bot_name(L). `hello` never issues such ids (they start with `p`), so no person can act for a
// bot, and a room reopened after a restart still knows its bot seats from the stored ids.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "bots/bot.h"
#include "server/fair_queue.h"
#include "lobby/room.h"
#include "rules/game.h"
#include "server/analyst.h"

namespace cinq::server {

struct Metrics;

// A bot's turn is shown no sooner than this after the move it answers, in a room with a person: a move
// appears on the board before the answer to it, even when the bot answers at once (level 0, forced moves).
inline constexpr std::chrono::milliseconds kBotAnswerDelay{400};
// Between two turns of a computer-vs-computer room: slow enough for a spectator to follow each move.
inline constexpr std::chrono::milliseconds kBotPaceDelay{600};

struct BotConfig {
  int threads = 1;                                           // `cinq serve --bot-threads N`
  std::chrono::milliseconds answer_delay = kBotAnswerDelay;  // `--bot-answer-ms` (tests shorten both)
  std::chrono::milliseconds pace_delay = kBotPaceDelay;      // `--bot-pace-ms`
  std::size_t max_queue = 256;                               // bot turns waiting for a thread
  AnalystConfig analysis;  // the analyses' threads and limits (server/analyst.h): the strongest bot's search too
};

// The player a bot of `level` is seated as: `bot:L`; in a room of two bots, `bot:L-S` with its seat S (a
// room seats one player id once, and two bots of one level are two players).
lobby::Player bot_player(int level, std::optional<int> seat = std::nullopt);
// The level of a bot's player id (`bot:L` or `bot:L-S`), or nothing for a person.
std::optional<int> bot_level(std::string_view player_id);

// A bot's turn as the room plays it: the texts of the turn's actions (what a person would send in `act`),
// and whether it ends with an explicit end of turn.
struct BotAnswer {
  std::vector<std::string> items;
  bool end_turn = false;
  std::uint64_t playouts = 0;
  std::chrono::microseconds think{0};  // wall time of choose_turn on the bot thread
  bool hit_hard_limit = false;
};

class BotRunner {
 public:
  struct Job {
    std::unique_ptr<State> state;  // the room's state, cloned on its strand: the job's own
    bots::Settings settings;
    std::shared_ptr<std::atomic<bool>> cancel;
    // Runs on a bot thread with the turn (never when cancelled): it must only post to the room.
    std::function<void(BotAnswer)> done;
    // Whose turn this is thought for: the person playing the bot ("" for a room of two bots). The threads
    // take the owners in turn, so one player's many bots never delay another's by more than the one turn
    // being thought.
    std::string owner;
  };

  // `threads` bot threads (at least 1); at most `max_queue` jobs wait, taken one owner at a time.
  BotRunner(int threads, Metrics& metrics, std::size_t max_queue = 256);
  ~BotRunner();  // stop()
  BotRunner(const BotRunner&) = delete;
  BotRunner& operator=(const BotRunner&) = delete;

  // Queues a job; false (and the job dropped) when the queue is full or the pool stopped.
  bool submit(Job job);
  // Cancels every job, waiting or running, and joins the threads. Idempotent; submit() fails afterwards.
  void stop();

 private:
  void run();
  void think(Job& job);

  Metrics& metrics_;
  std::size_t max_queue_;
  std::mutex mutex_;
  std::condition_variable wake_;
  // Fair queueing: each owner's jobs in order, and the owners with jobs waiting, taken in turn.
  FairQueue<Job> waiting_;  // by owner, taken in turn
  std::vector<std::shared_ptr<std::atomic<bool>>> running_;  // the cancel flags of the jobs being thought
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace cinq::server
