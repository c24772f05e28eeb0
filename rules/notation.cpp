#include "rules/notation.h"
