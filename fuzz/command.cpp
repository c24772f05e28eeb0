// libFuzzer target: the WebSocket command handler, without a network (fuzz/harness.h). An input is lines,
// each one message; a line starting with "2 " goes to a second connection, the others to the first. "$ROOM"
// in a line is replaced by the room of the last `state` the first connection got (room ids are random), so
// sequences such as hello, create, hello, sit, act reach the rooms (before a "$ROOM", the first connection
// waits up to 300 ms for the answer, a `state` or an `error`, to its last line that may open a room). The input ends with a ping both
// connections answer in order; then the connections close and the rooms leave memory.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz/harness.h"

using namespace std::chrono_literals;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto& h = cinq::fuzz::Harness::get();
  auto one = std::make_shared<cinq::fuzz::Inbox>(h.next_id());
  auto two = std::make_shared<cinq::fuzz::Inbox>(h.next_id());
  h.app().on_open(one);
  h.app().on_open(two);
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // Only the answer to a line that may open a room is worth waiting for (the wait is what makes a unit slow):
  // the count of messages the first connection had when it sent the last such line, until answered.
  std::optional<std::size_t> opening;
  for (int lines = 0; !input.empty() && lines < 64; ++lines) {
    auto end = input.find('\n');
    std::string line(input.substr(0, end));
    input = end == std::string_view::npos ? std::string_view{} : input.substr(end + 1);
    auto& to = line.starts_with("2 ") ? two : one;
    if (to == two) line.erase(0, 2);
    if (auto at = line.find("$ROOM"); at != std::string::npos) {
      if (opening) one->wait_answer(*opening, 300ms);
      opening.reset();
      line.replace(at, 5, one->last_room());
    }
    if (to == one)
      for (const char* word : {"create", "join", "watch", "seek", "bot", "import"})
        if (line.find(word) != std::string::npos) opening = one->count();
    h.app().on_message(to, std::move(line));
  }
  h.app().on_message(one, R"({"type":"ping","ref":"fuzz-end"})");
  h.app().on_message(two, R"({"type":"ping","ref":"fuzz-end"})");
  one->wait_for("fuzz-end", 2s);
  two->wait_for("fuzz-end", 2s);
  h.app().on_close(one);
  h.app().on_close(two);
  h.app().drop_rooms();
  return 0;
}
