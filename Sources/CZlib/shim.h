// System zlib (zlib1g-dev). deflateInit2 is a macro; Swift calls deflateInit2_ with the
// library's own version string instead.
#include <zlib.h>
