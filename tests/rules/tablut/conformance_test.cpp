// Tablut under the shared conformance suite (tests/support.h), beyond the default options the shared
// run uses: every other value of every option.
#include "tests/rules/tablut/helpers.h"
#include "tests/support.h"

namespace cinq::tablut::test {
namespace {

TEST_CASE("Tablut conformance: random games under every option") {
  for (const char* options :
       {"first=defenders", "king=unarmed", "throne=plain", "first=defenders king=unarmed throne=plain"}) {
    CAPTURE(options);
    cinq::test::check_conformance(game(), options, 5u, 3);
  }
}

}  // namespace
}  // namespace cinq::tablut::test
