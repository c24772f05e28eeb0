// libFuzzer target: HTTP targets and queries (fuzz/harness.h). An input's first line is "METHOD TARGET", the
// rest the body: the request goes to the HTTP API (App::on_http: route table, Boost.URL parsing and decoding,
// queries, handlers), and a GET target to the static file resolver too. A request must be answered once,
// within 30 s, never with a 500.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <string>
#include <string_view>

#include "fuzz/harness.h"
#include "server/net/static_files.h"

using namespace std::chrono_literals;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto& h = cinq::fuzz::Harness::get();
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto end = input.find('\n');
  std::string_view line = input.substr(0, end);
  std::string body(end == std::string_view::npos ? std::string_view{} : input.substr(end + 1));
  auto space = line.find(' ');
  if (space == std::string_view::npos) return 0;
  std::string method(line.substr(0, space));
  std::string target(line.substr(space + 1));
  if (target.empty() || target.front() != '/') return 0;  // Beast hands the API origin-form targets only

  if (method == "GET") (void)cinq::net::read_static_file(h.web_dir(), target);
  if (!target.starts_with("/api/") && target != "/metrics" && !target.starts_with("/metrics?")) return 0;
  auto answered = std::make_shared<std::promise<int>>();
  auto done = answered->get_future();
  cinq::net::HttpRequest request{method, target, std::move(body), "text/plain", "127.0.0.1"};
  h.app().on_http(std::move(request), [answered](cinq::net::HttpResponse r) {
    try {
      answered->set_value(r.status);
    } catch (const std::future_error&) {
      std::abort();  // answered twice
    }
  });
  // Never answered (30 s: a loaded machine may take seconds to replay a long record under ASan).
  if (done.wait_for(30s) != std::future_status::ready) std::abort();
  const int status = done.get();
  if (status >= 500 && status != 503) std::abort();  // a 500: the server failed
  h.app().drop_rooms();
  return 0;
}
