// Bi-litaire (docs/rules/bilitaire.md) through the shared conformance suite: more random games than the
// suite over every game runs, both rounds played out each time.
#include <doctest/doctest.h>

#include "rules/bilitaire/bilitaire.h"
#include "tests/support.h"

TEST_CASE("Bi-litaire: random two-round games pass the conformance suite") {
  cinq::test::check_conformance(cinq::bilitaire::game(), "", 5u, 12, 1000);
}
