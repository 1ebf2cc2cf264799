#include <gtest/gtest.h>

#include "meeple/tiles.h"

namespace meeple {
namespace {

TEST(Tiles, EmbeddedDataValidates) {
  const TileCatalog& c = TileCatalog::get();
  EXPECT_EQ(c.set("base")->total(), 72);
}

}  // namespace
}  // namespace meeple
