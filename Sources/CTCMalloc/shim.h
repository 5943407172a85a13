// tcmalloc's C interface to its own state (gperftools; Debian: libgoogle-perftools-dev).
#include <gperftools/malloc_extension_c.h>
