// libvips' headers, for the tests that make pictures with it (sitegen itself loads libvips at
// run time: Sources/CVipsLoader).
#include <vips/vips.h>
