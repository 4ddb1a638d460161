// Operator-layer checks and messages: the Check every validation returns,
// the one way messages are built (Message), and the checks that several ops
// share. Messages name the op, the parameter and the value.
#ifndef UNPOOL_SRC_CHECKS_H_
#define UNPOOL_SRC_CHECKS_H_

#include <cstdint>
#include <string>
#include <type_traits>

#include "unpool/types.h"

namespace unpool {
namespace internal {

// Largest value accepted for any size, stride, padding, dilation or dim.
// Keeps every product of two of them inside int64.
constexpr int64_t kMaxSize = (int64_t{1} << 31) - 1;

// Builds a message with `<<` like an ostringstream, without pulling the
// iostream machinery (locales, ~100 KB) into the .wasm.
class Message {
 public:
  Message& operator<<(const std::string& v) {
    s_ += v;
    return *this;
  }
  Message& operator<<(const char* v) {
    s_ += v;
    return *this;
  }
  Message& operator<<(char v) {
    s_ += v;
    return *this;
  }
  template <typename N, typename = std::enable_if_t<std::is_integral<N>::value>>
  Message& operator<<(N v) {
    s_ += std::to_string(v);
    return *this;
  }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

// Where `ok()` is false, `status` and `message` say why.
struct Check {
  Status status = Status::kOk;
  std::string message;
  bool ok() const { return status == Status::kOk; }
};

inline Check fail(Status s, const Message& m) { return Check{s, m.str()}; }

// Copies the message out and returns the status.
inline Status report(const Check& c, std::string* error) {
  if (error) *error = c.message;
  return c.status;
}

// Name of an op as the JS API spells it: "maxPool2d", "maxUnpool3dBackward",
// from a base with "#d" where the dims go ("maxPool#d"; dims outside 1..3
// give "maxPool"). Built in place: every call names its op, and a heap
// string per call cost more than validating a small call.
class OpName {
 public:
  OpName(const char* base, int32_t dims);
  const char* c_str() const { return s_; }

 private:
  char s_[40];
};

// "[2, 3, 4]"
std::string shape_string(const Shape& s);

// `v` as printf's "%.<significant>g" writes it (exact decimal expansion,
// rounded half to even), without printf: its float formatting is a tenth
// of the WebAssembly module.
std::string format_g(double v, int significant);

Check check_dims_value(const char* op, int32_t dims);
Check check_layout(const char* op, Layout layout);

// Checks that `shape` is a (N, C, spatial...) or (C, spatial...) tensor of
// `dims` spatial dims (channels last: (N, spatial..., C) or (spatial..., C));
// `name` is the parameter's name in messages.
Check check_rank(const char* op, const char* name, int32_t dims, const Shape& shape,
                 Layout layout = Layout::kChannelsFirst);

// Checks the value and index types, and that the index type can hold every
// offset below `limit` (exclusive; 0: no offsets to hold).
// On 32-bit targets pools compute int64 indices as int32 (dispatch.h,
// kNarrowPoolIndices): a pool whose offsets exceed INT32_MAX (only windows
// wholly in padding with a huge dilation get there) is too large there.
Check check_pool_index_limit(const char* op, int64_t limit);
// Fractional pooling takes float32 and float64 values only (its intervals
// are computed in the input dtype, which PyTorch's 16-bit kernels do in
// float32: not matched here yet).
Check check_fractional_dtype(const char* op, DType dtype);
// The backward passes that add (max pool, adaptive, fractional) take float
// gradients only: an integer gradOutput is an error, as in PyTorch.
Check check_gradient_dtype(const char* op, DType dtype);
Check check_types(const char* op, DType dtype, IndexType index_type, int64_t limit = 0);

Check check_same_shape(const char* op, const char* name, const Shape& actual,
                       const Shape& expected);

// "maxUnpool2d: indices[5]=17 is out of range for output plane 4x4 (16
// elements)". `pos` is the flat position in the indices tensor, `plane` the
// D, H, W of the plane the indices point into.
Check index_error(const char* op, const char* name, int64_t pos, int64_t value,
                  const int64_t plane[3], int32_t dims, const char* what);

}  // namespace internal
}  // namespace unpool

#endif  // UNPOOL_SRC_CHECKS_H_
