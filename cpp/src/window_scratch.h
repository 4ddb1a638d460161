// The scratch buffers of ukernels::argmaxpool_windows__rows for one plane of
// a geometry, owned by the operator layer for the length of a run.
#ifndef UNPOOL_SRC_WINDOW_SCRATCH_H_
#define UNPOOL_SRC_WINDOW_SCRATCH_H_

#include <cstdint>
#include <vector>

#include "ukernels/argmaxpool_windows.h"
#include "unpool/types.h"

namespace unpool {
namespace internal {

template <typename T>
class Scratch {
 public:
  explicit Scratch(const Geometry& g)
      : rows_(g.in[0] * g.in[1]),
        best_(static_cast<size_t>(g.in[2])),
        col_(static_cast<size_t>(g.in[2])),
        row_best_(static_cast<size_t>(rows_ * g.out[2])),
        row_col_(static_cast<size_t>(rows_ * g.out[2])) {}

  ukernels::WindowScratch<T> view() const {
    return {best_.data(), col_.data(), row_best_.data(), row_col_.data(), rows_};
  }

 private:
  int64_t rows_;
  mutable std::vector<T> best_;
  mutable std::vector<int32_t> col_;
  mutable std::vector<T> row_best_;
  mutable std::vector<int32_t> row_col_;
};

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_WINDOW_SCRATCH_H_
