#include "unpool/unpool.h"

namespace unpool {

const char* status_name(Status status) {
  switch (status) {
#define UNPOOL_STATUS_CASE(e, code, name) \
  case Status::e: return name;
    UNPOOL_STATUS_LIST(UNPOOL_STATUS_CASE)
#undef UNPOOL_STATUS_CASE
  }
  return "unknown";
}

int64_t numel(const Shape& shape) {
  if (shape.rank < 0 || shape.rank > kMaxRank) return -1;
  int64_t n = 1;
  for (int i = 0; i < shape.rank; ++i) {
    const int64_t d = shape.dims[i];
    if (d < 0) return -1;
    if (d == 0) return 0;
  }
  for (int i = 0; i < shape.rank; ++i) {
    if (n > INT64_MAX / shape.dims[i]) return -1;
    n *= shape.dims[i];
  }
  return n;
}

}  // namespace unpool
