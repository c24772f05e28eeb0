// Asio (its OpenSSL streams too), Beast and Boost.URL compiled once for the whole program (BOOST_*_SEPARATE_COMPILATION, server/CMakeLists.txt):
// every other translation unit includes only their headers, which keeps rebuilds fast.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
#include <boost/url/src.hpp>
