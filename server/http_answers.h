// The answers of the HTTP API (rest.cpp, mail.cpp, ...): JSON, a body or {"error": {code, message[, line]}};
// and plain text for the pages a person opens from a mail.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "server/net/transport.h"

namespace cinq::server {

inline net::HttpResponse json_response(int status, const nlohmann::json& body) {
  net::HttpResponse r;
  r.status = status;
  // Invalid UTF-8 from the request (a path's bytes echoed in a message) becomes U+FFFD: an answer, not a 500.
  r.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  r.headers.emplace_back("Access-Control-Allow-Origin", "*");
  return r;
}

inline net::HttpResponse error_response(int status, const std::string& code, const std::string& message,
                                        int line = 0) {
  nlohmann::json error = {{"code", code}, {"message", message}};
  if (line > 0) error["line"] = line;
  return json_response(status, {{"error", error}});
}

// A page for a person (the one-click links in mails: a browser shows it): plain text, one paragraph.
inline net::HttpResponse text_response(int status, const std::string& text) {
  net::HttpResponse r;
  r.status = status;
  r.content_type = "text/plain; charset=utf-8";
  r.body = text + "\n";
  return r;
}

// The workers' queue is full (server/workers.h): nothing was done, the client may try again.
inline net::HttpResponse busy_response() {
  net::HttpResponse r = error_response(503, "busy", "the server is busy: try again in a moment");
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

// A save failed (docs/protocol.md, "When a save fails"): what the request did was dropped, nothing of it is
// stored or shown; the room is reloaded from the store at the next request.
inline net::HttpResponse storage_response() {
  net::HttpResponse r = error_response(503, "storage", "the server could not store this: nothing of it was kept; "
                                                       "try again");
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

// A body with nothing but white space is no record (notation.md reads a text without `#!` as Baltek, so an
// empty text would otherwise be an empty Baltek game): 422, line 1.
inline bool blank(const std::string& body) {
  return body.find_first_not_of(" \t\r\n") == std::string::npos;
}
inline net::HttpResponse blank_record_response() {
  return error_response(422, "bad_record", "line 1: the record is empty", 1);
}

}  // namespace cinq::server
