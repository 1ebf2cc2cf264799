// Scenario tests for the base game rules B1-B13 of RULES.md (written by a helper).
#include "scenario.h"
