// Scenario tests for The River II (R1-R8) and King & Robber Baron (K1-K3) of RULES.md.
#include "scenario.h"
