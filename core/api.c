/* api.c - implements pcx.h on top of every layer. */
#include "pcx/pcx.h"

const char *pcx_version(void) { return PCX_VERSION; }
