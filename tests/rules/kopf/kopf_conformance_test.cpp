// Kopf oder Knopf (docs/rules/kopf-oder-knopf.md): the shared conformance suite, on more games than the
// registry-wide run, with the quick and the full target.
#include <doctest/doctest.h>

#include "rules/kopf/kopf.h"
#include "tests/support.h"

namespace cinq::kopf::test {

TEST_CASE("Kopf conformance: random games at the bounded options (target=8)") {
  cinq::test::check_conformance(game(), "", 4u, 12);
}

TEST_CASE("Kopf conformance: random games at the default target 10 and at 14") {
  cinq::test::check_conformance(game(), "target=10", 5u, 4);
  cinq::test::check_conformance(game(), "target=14", 6u, 2);
}

}  // namespace cinq::kopf::test
