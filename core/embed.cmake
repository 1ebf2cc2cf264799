# Writes IN as a C++ string constant into OUT (run at build time by core/CMakeLists.txt).
file(READ ${IN} content)
file(WRITE ${OUT} "// Generated from core/data/tiles.txt; do not edit.\nnamespace meeple {\nextern const char* const kEmbeddedTileData;\nconst char* const kEmbeddedTileData = R\"meeple_tiles(${content})meeple_tiles\";\n}  // namespace meeple\n")
