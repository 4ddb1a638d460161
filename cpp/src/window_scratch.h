// Working memory of adaptive and fractional runs: window lists and the
// scratch of ukernels::argmaxpool_windows__rows. The .wasm has no
// exceptions, so a failed allocation must come back as a status (kTooLarge),
// never as an abort: every buffer here is allocated with nothrow new.
#ifndef UNPOOL_SRC_WINDOW_SCRATCH_H_
#define UNPOOL_SRC_WINDOW_SCRATCH_H_

#include <cstdint>
#include <memory>
#include <new>

#include "checks.h"
#include "ukernels/argmaxpool_windows.h"
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

// The scratch of argmaxpool_windows__rows for one plane of `g`, or none.
template <typename T>
class Scratch {
 public:
  Scratch(const Geometry& g, bool needed)
      : rows_(needed ? g.in[0] * g.in[1] : 0),
        best_(needed ? g.in[2] : 0),
        col_(needed ? g.in[2] : 0),
        row_best_(rows_ * g.out[2]),
        row_col_(rows_ * g.out[2]) {}

  bool ok() const { return best_.ok() && col_.ok() && row_best_.ok() && row_col_.ok(); }
  ukernels::WindowScratch<T> view() const {
    return {best_.data(), col_.data(), row_best_.data(), row_col_.data(), rows_};
  }

 private:
  int64_t rows_;
  Buffer<T> best_;
  Buffer<int32_t> col_;
  Buffer<T> row_best_;
  Buffer<int32_t> row_col_;
};

// "adaptiveMaxPool2d: cannot allocate the working memory of this call".
inline Check no_memory(const char* op) {
  return fail(Status::kTooLarge, Message()
                                     << op << ": cannot allocate the working memory of this call");
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_WINDOW_SCRATCH_H_
