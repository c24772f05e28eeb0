// The server's TLS certificate and key (cinq serve --tls-cert/--tls-key): loaded into an OpenSSL context at
// start, loaded again on SIGHUP (a certificate renewed by certbot). Each new connection takes the context in
// force when it is accepted, and keeps it: open connections go on with the certificate they began with.
// Internal to server/net; its header names no Asio type beyond a declaration, so server.cpp stays light.
#pragma once

#include <memory>
#include <mutex>
#include <string>

namespace boost::asio::ssl {
class context;
}

namespace cinq::net {

class TlsFiles {
 public:
  // Loads both files; std::runtime_error naming the file and what is wrong with it (unreadable, not PEM,
  // a key that does not match the certificate).
  TlsFiles(std::string cert_file, std::string key_file);

  // The context new connections use.
  std::shared_ptr<boost::asio::ssl::context> current() const;
  // Reads the files again; on failure keeps the context in force and says why in `why`.
  bool reload(std::string& why);

  const std::string& cert_file() const { return cert_file_; }

 private:
  const std::string cert_file_, key_file_;
  mutable std::mutex mutex_;
  std::shared_ptr<boost::asio::ssl::context> context_;
};

}  // namespace cinq::net
