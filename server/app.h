// The application behind the transport: guest identities, the lobby (rooms directory and seeks), the
// protocol's messages (docs/protocol.md), the REST API and /metrics, and the trust rules of DESIGN.md
// ("Limits and trust"). Rooms themselves live in RoomActor, one strand each.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "lobby/seeks.h"
#include "server/bot_runner.h"
#include "server/room_actor.h"
#include "server/services.h"

namespace cinq::server {

struct Limits {
  std::size_t max_message = 4096;  // bytes of one client message; larger ones get `too_big`
  double connection_rate = 20;     // messages per second, per connection (token bucket)
  double connection_burst = 40;
  double address_rate = 100;  // messages per second, per IP address, all its connections together; 0: none
  double address_burst = 200;
  int strikes_before_close = 200;  // rate-limited messages in a row before the connection is closed
};

// A token bucket: `rate` tokens a second, at most `burst`.
struct Bucket {
  double tokens = -1;  // -1: full, not yet used
  std::int64_t last_ms = 0;
  bool take(std::int64_t now_ms, double rate, double burst);
};

class App : public net::Handler {
 public:
  App(store::Store& store, store::Worker& writer, Limits limits = {}, BotConfig bots = {});
  ~App() override;

  // Binds the app to its transport, then reopens every unfinished game from the store; returns how many.
  int attach(net::Server& server);
  Services& services() { return services_; }
  // Stops the bot threads (a bot thinking is cancelled), then drops every room and connection record: call
  // after the transport stopped, before it is destroyed.
  void shutdown();

  void on_open(const std::shared_ptr<net::Connection>& c) override;
  void on_message(const std::shared_ptr<net::Connection>& c, std::string text) override;
  void on_close(const std::shared_ptr<net::Connection>& c) override;
  void on_http(net::HttpRequest request, std::function<void(net::HttpResponse)> respond) override;

 private:
  struct Client {
    std::weak_ptr<net::Connection> connection;
    std::optional<lobby::Player> player;  // after `hello`
    Bucket bucket;
    int strikes = 0;
    std::int64_t last_limit_error_ms = 0;
    std::set<std::string> rooms;  // rooms this connection is in
  };
  struct Request;  // one parsed message (protocol.cpp)

  // --- protocol.cpp: one function per message type
  void dispatch(const std::shared_ptr<net::Connection>& c, Request& r);
  void on_hello(Request& r);
  void on_name(Request& r);
  void on_create(Request& r);
  void create_bot_room(Request& r, lobby::Room room, std::array<std::optional<int>, 2> levels,
                       std::optional<int> seat);
  void on_join(Request& r);
  void on_sit(Request& r);
  void on_leave(Request& r);
  void on_act(Request& r);
  void on_room_command(Request& r);  // resign, draw, decline_draw, abort, rematch
  void on_seek(Request& r);
  void on_unseek(Request& r);
  void on_rooms(Request& r);
  void on_my_games(Request& r);

  // --- app.cpp
  bool admit(const std::shared_ptr<net::Connection>& c, std::size_t size);  // size cap and rate limits
  void reply_error(const std::shared_ptr<net::Connection>& c, const std::string& code,
                   const std::string& message, const std::string& ref = {}, const std::string& room = {});
  std::shared_ptr<RoomActor> find_room(const std::string& id);  // in memory, or reloaded from the store
  std::shared_ptr<RoomActor> add_room(lobby::Room room);
  std::string new_room_id();
  std::optional<lobby::Player> player_of(std::uint64_t connection);
  void remember_room(std::uint64_t connection, const std::string& room);
  void open_rematch(const std::shared_ptr<RoomActor>& old);
  void forget_room(const std::string& id);
  nlohmann::json room_list();

  // --- identity.cpp
  std::optional<store::PlayerRow> load_player(const std::string& id);
  store::PlayerRow create_player(const std::string& name);
  void save_player(const store::PlayerRow& row);

  // --- rest.cpp
  net::HttpResponse metrics_text();

  // --- mail.cpp: correspondence over HTTP (docs/protocol.md, "Correspondence")
  // Gives each seat of a new correspondence room a secret token (only its hash stays in the room); returns
  // the seats' private links `/#/room/ID?seat=S&token=T`.
  std::array<std::string, 2> issue_seat_tokens(lobby::Room& room);
  void post_record(const std::string& room_id, const net::HttpRequest& request,
                   std::function<void(net::HttpResponse)> respond);
  void import_game(const net::HttpRequest& request, std::function<void(net::HttpResponse)> respond);

  Services services_;
  std::unique_ptr<store::Saver> saver_;
  BotConfig bot_config_;
  std::unique_ptr<BotRunner> bot_runner_;  // after services_: its threads are joined before the metrics go
  Limits limits_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

  std::mutex clients_mutex_;
  std::unordered_map<std::uint64_t, Client> clients_;
  std::unordered_map<std::string, Bucket> address_buckets_;

  std::mutex rooms_mutex_;
  std::unordered_map<std::string, std::shared_ptr<RoomActor>> rooms_;
  // The computer-vs-computer rooms each player opened (under rooms_mutex_): their bots think whether anyone
  // watches or not, so a player may keep only a few of them going (kMaxWatchedBotRooms).
  std::unordered_map<std::string, std::vector<std::weak_ptr<RoomActor>>> bot_rooms_of_;
  static constexpr std::size_t kMaxWatchedBotRooms = 2;

  std::mutex seeks_mutex_;
  lobby::SeekBook seeks_;

  std::mutex players_mutex_;
  std::unordered_map<std::string, store::PlayerRow> players_;  // players seen since start
};

// A name a record can hold: 1 to 32 characters after trimming, no control characters, none of `= # / >`.
std::optional<std::string> clean_name(const std::string& name, std::string& why);
// Random identifiers: `length` characters of [0-9A-Za-z] from the system's random source.
std::string random_id(std::size_t length);
// The stored form of a token: its SHA-1, in hex (tokens are 128-bit random: no salt or stretching needed).
std::string token_hash(const std::string& token);
// A seat's private link, relative to the site: `/#/room/ID?seat=S&token=T`.
std::string seat_link(const std::string& room, int seat, const std::string& token);

}  // namespace cinq::server
