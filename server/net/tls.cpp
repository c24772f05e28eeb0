#include "server/net/tls.h"

#include <openssl/ssl.h>

#include <boost/asio/ssl/context.hpp>
#include <boost/system/system_error.hpp>
#include <filesystem>
#include <stdexcept>

namespace cinq::net {

namespace ssl = boost::asio::ssl;

namespace {

// A server context from the two PEM files: TLS 1.2 and later, with OpenSSL's default ciphers (the system's
// policy, kept up to date with the package).
std::shared_ptr<ssl::context> load(const std::string& cert_file, const std::string& key_file) {
  auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
  context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                       ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  SSL_CTX_set_min_proto_version(context->native_handle(), TLS1_2_VERSION);
  auto step = [](const std::string& option, const std::string& file, auto&& fn) {
    std::error_code exists_ec;
    if (!std::filesystem::is_regular_file(file, exists_ec))
      throw std::runtime_error(option + " " + file + ": no such file");
    try {
      fn();
    } catch (const boost::system::system_error& e) {
      throw std::runtime_error(option + " " + file + ": " + e.code().message());
    }
  };
  step("--tls-cert", cert_file, [&] { context->use_certificate_chain_file(cert_file); });
  step("--tls-key", key_file, [&] {
    // OpenSSL checks the key against the certificate as it loads it: its "key values mismatch" said plainly.
    try {
      context->use_private_key_file(key_file, ssl::context::pem);
    } catch (const boost::system::system_error& e) {
      if (e.code().message().find("key values mismatch") == std::string::npos) throw;
      throw std::runtime_error("--tls-key " + key_file + ": not the key of the certificate " + cert_file);
    }
  });
  if (SSL_CTX_check_private_key(context->native_handle()) != 1)
    throw std::runtime_error("--tls-key " + key_file + ": not the key of the certificate " + cert_file);
  return context;
}

}  // namespace

TlsFiles::TlsFiles(std::string cert_file, std::string key_file)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)), context_(load(cert_file_, key_file_)) {}

std::shared_ptr<ssl::context> TlsFiles::current() const {
  std::lock_guard lock(mutex_);
  return context_;
}

bool TlsFiles::reload(std::string& why) {
  try {
    auto fresh = load(cert_file_, key_file_);
    std::lock_guard lock(mutex_);
    context_ = std::move(fresh);
    return true;
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
}

}  // namespace cinq::net
