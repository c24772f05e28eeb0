// The browser client's files, served from one directory and never from outside it. No Boost: plain
// request-target in, status and bytes out, so it is easy to test on its own.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cinq::net {

struct StaticFile {
  int status = 404;  // 200 or 404
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

// The file `target` names under `web_dir` ("/" is index.html, a directory is its index.html). Any path
// containing "..", a NUL or a backslash once percent-decoded, or resolving outside `web_dir` (symbolic
// links included), is a 404 like a missing file: an attacker learns nothing from the difference.
StaticFile read_static_file(const std::string& web_dir, std::string_view target);

// "%2e%2E" -> "..". nullopt on a malformed escape. Boost.URL's decoder (the REST API's too): the only one.
std::optional<std::string> percent_decode(std::string_view text);
// By extension; application/octet-stream when unknown.
std::string_view mime_type(std::string_view path);

}  // namespace cinq::net
