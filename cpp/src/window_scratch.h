// Working memory of adaptive and fractional runs: window lists and the
// scratch of ukernels::argmaxpool_windows__cols. The .wasm has no
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

// The scratch of argmaxpool_windows__cols (and of its 16-bit form,
// argmaxpool_windows_half__cols) for one plane of `g`, or none.
template <typename T>
class Scratch {
  using Value = ukernels::window_value_t<T>;
  static constexpr bool kHalf = ukernels::is_half_v<T>;

 public:
  Scratch(const Geometry& g, bool needed)
      : best_(needed ? g.in[2] : 0),
        at_(needed ? g.in[2] : 0),
        run_(needed ? g.in[2] : 0),
        run_at_(needed ? g.in[2] : 0),
        order_(needed ? g.out[2] : 0),
        keys_(needed && kHalf ? g.in_plane() : 0),
        out_(needed && kHalf ? g.out_plane() : 0) {}

  bool ok() const {
    return best_.ok() && at_.ok() && run_.ok() && run_at_.ok() && order_.ok() && keys_.ok() &&
           out_.ok();
  }
  ukernels::WindowScratch<T> view() const {
    return {best_.data(),  at_.data(),   run_.data(), run_at_.data(),
            order_.data(), keys_.data(), out_.data()};
  }

 private:
  Buffer<Value> best_;
  Buffer<int32_t> at_;
  Buffer<Value> run_;
  Buffer<int32_t> run_at_;
  Buffer<int32_t> order_;
  Buffer<Value> keys_;
  Buffer<Value> out_;
};

// "adaptiveMaxPool2d: cannot allocate the working memory of this call".
inline Check no_memory(const char* op) {
  return fail(Status::kTooLarge, Message()
                                     << op << ": cannot allocate the working memory of this call");
}

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_WINDOW_SCRATCH_H_
