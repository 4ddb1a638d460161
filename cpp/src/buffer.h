// Working memory of adaptive and fractional runs (their window lists). The
// .wasm has no
// exceptions, so a failed allocation must come back as a status (kTooLarge),
// never as an abort: every buffer here is allocated with nothrow new.
#ifndef UNPOOL_SRC_BUFFER_H_
#define UNPOOL_SRC_BUFFER_H_

#include <cstdint>
#include <memory>
#include <new>

#include "checks.h"
#include "unpool/types.h"

namespace unpool {
namespace internal {

template <typename T>
class Buffer {
 public:
  explicit Buffer(int64_t n)
      : n_(n), p_(n > 0 ? new (std::nothrow) T[static_cast<size_t>(n)] : nullptr) {}
  bool ok() const { return n_ <= 0 || p_ != nullptr; }
  T* data() const { return p_.get(); }

 private:
  int64_t n_;
  std::unique_ptr<T[]> p_;
};

// "adaptiveMaxPool2d: cannot allocate the working memory of this call".
inline Check no_memory(const char* op) {
  return fail(Status::kTooLarge, Message()
                                     << op << ": cannot allocate the working memory of this call");
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_BUFFER_H_
