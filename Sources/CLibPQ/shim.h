// System libpq (libpq-dev), PostgreSQL's client library. Includes only: every call the store
// makes is a plain function, so no shim target is needed.
#include <libpq-fe.h>
