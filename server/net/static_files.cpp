#include "server/net/static_files.h"

#include <algorithm>
#include <boost/url/pct_string_view.hpp>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

namespace cinq::net {

namespace fs = std::filesystem;

namespace {

StaticFile not_found() { return StaticFile{404, "text/plain; charset=utf-8", "not found\n"}; }

// True when `path` is `root` or lies under it, comparing whole components (so /web2 is not under /web).
bool is_within(const fs::path& root, const fs::path& path) {
  auto [root_end, path_it] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  // weakly_canonical keeps a trailing empty component for "dir/"; ignore it on the root side.
  return root_end == root.end() || (std::next(root_end) == root.end() && root_end->empty());
}

}  // namespace

std::optional<std::string> percent_decode(std::string_view text) {
  // Boost.URL's decoder, the only one in the code base (the REST API's paths and queries use it too).
  auto escaped = boost::urls::make_pct_string_view(text);
  if (!escaped) return std::nullopt;
  return escaped->decode();
}

std::string_view mime_type(std::string_view path) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kTypes{{
      {".html", "text/html; charset=utf-8"},
      {".htm", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".map", "application/json"},
  }};
  const auto dot = path.rfind('.');
  if (dot != std::string_view::npos && path.find('/', dot) == std::string_view::npos) {
    std::string extension(path.substr(dot));
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const auto& [ext, type] : kTypes) {
      if (ext == extension) return type;
    }
  }
  return "application/octet-stream";
}

StaticFile read_static_file(const std::string& web_dir, std::string_view target) {
  if (web_dir.empty()) return not_found();
  const auto path_end = target.find_first_of("?#");
  auto decoded = percent_decode(target.substr(0, path_end));
  if (!decoded || decoded->empty() || decoded->front() != '/') return not_found();
  const std::string& path = *decoded;
  if (path.find("..") != std::string::npos || path.find('\0') != std::string::npos ||
      path.find('\\') != std::string::npos) {
    return not_found();
  }

  std::error_code ec;
  const fs::path root = fs::weakly_canonical(fs::path(web_dir), ec);
  if (ec) return not_found();
  std::string relative = path.substr(1);
  if (relative.empty() || relative.back() == '/') relative += "index.html";
  fs::path file = fs::weakly_canonical(root / relative, ec);
  if (ec || !is_within(root, file)) return not_found();
  if (fs::is_directory(file, ec)) {
    // Checked again: the directory's index.html could itself be a link to elsewhere.
    file = fs::weakly_canonical(file / "index.html", ec);
    if (ec || !is_within(root, file)) return not_found();
  }
  if (!fs::is_regular_file(file, ec)) return not_found();

  std::ifstream in(file, std::ios::binary);
  if (!in) return not_found();
  std::ostringstream body;
  body << in.rdbuf();
  return StaticFile{200, std::string(mime_type(file.string())), std::move(body).str()};
}

}  // namespace cinq::net
