// Helpers shared by the native tests: typed buffers and exact comparison.
#ifndef UNPOOL_TESTS_CPP_TEST_UTIL_H_
#define UNPOOL_TESTS_CPP_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "unpool/unpool.h"

namespace unpool_test {

using unpool::DType;
using unpool::IndexType;
using unpool::Shape;

inline Shape make_shape(const std::vector<int64_t>& v) {
  Shape s;
  s.rank = static_cast<int32_t>(v.size());
  for (size_t i = 0; i < v.size() && i < unpool::kMaxRank; ++i) s.dims[i] = v[i];
  return s;
}

inline std::vector<int64_t> shape_vec(const Shape& s) {
  return std::vector<int64_t>(s.dims, s.dims + s.rank);
}

inline size_t count(const Shape& s) {
  const int64_t n = unpool::numel(s);
  return n < 0 ? 0 : static_cast<size_t>(n);
}

// Values of either float type, kept as doubles for comparison. `guard`
// elements of a canary value are placed on both sides to catch writes out of
// bounds.
class Values {
 public:
  static constexpr size_t kGuard = 64;
  Values(DType t, size_t n, double fill = 0.0)
      : type_(t),
        n_(n),
        f_(t == DType::kFloat32 ? n + 2 * kGuard : 0),
        d_(t == DType::kFloat64 ? n + 2 * kGuard : 0),
        h_(half(t) ? n + 2 * kGuard : 0) {
    for (auto& v : f_) v = kCanaryF;
    for (auto& v : d_) v = kCanaryD;
    for (auto& v : h_) v = kCanaryH;
    for (size_t i = 0; i < n; ++i) set(i, fill);
  }
  Values(DType t, const std::vector<double>& v) : Values(t, v.size()) {
    for (size_t i = 0; i < v.size(); ++i) set(i, v[i]);
  }
  static bool half(DType t) { return t == DType::kFloat16 || t == DType::kBFloat16; }
  // 16-bit values: the value rounded to nearest even (exact for the values
  // the tests write).
  void set(size_t i, double v) {
    if (type_ == DType::kFloat32) f_[kGuard + i] = static_cast<float>(v);
    else if (type_ == DType::kFloat64) d_[kGuard + i] = v;
    else h_[kGuard + i] = half_from_float(type_, static_cast<float>(v));
  }
  void set_bits(size_t i, uint16_t b) { h_[kGuard + i] = b; }
  uint16_t bits(size_t i) const { return h_[kGuard + i]; }
  double get(size_t i) const {
    if (type_ == DType::kFloat32) return f_[kGuard + i];
    if (type_ == DType::kFloat64) return d_[kGuard + i];
    return half_to_float(type_, h_[kGuard + i]);
  }
  void* data() {
    if (type_ == DType::kFloat32) return f_.data() + kGuard;
    if (type_ == DType::kFloat64) return d_.data() + kGuard;
    return h_.data() + kGuard;
  }
  size_t size() const { return n_; }
  DType type() const { return type_; }
  // True when every guard element still holds the canary.
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard; ++i) {
      if (type_ == DType::kFloat32) {
        if (!same_bits(f_[i], kCanaryF) || !same_bits(f_[kGuard + n_ + i], kCanaryF)) return false;
      } else if (type_ == DType::kFloat64) {
        if (!same_bits(d_[i], kCanaryD) || !same_bits(d_[kGuard + n_ + i], kCanaryD)) return false;
      } else if (h_[i] != kCanaryH || h_[kGuard + n_ + i] != kCanaryH) {
        return false;
      }
    }
    return true;
  }
  template <typename T>
  static bool same_bits(T a, T b) {
    return std::memcmp(&a, &b, sizeof(T)) == 0;
  }

  // The tests' own conversions (not the library's): float16 through
  // frexp/ldexp arithmetic, bfloat16 by bit arithmetic, both rounding to
  // nearest even.
  static double half_to_float(DType t, uint16_t h) {
    if (t == DType::kBFloat16) {
      const uint32_t u = static_cast<uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 0x1f) return m ? std::nan("") : sign * INFINITY;
    if (e == 0) return sign * std::ldexp(m, -24);
    return sign * std::ldexp(1024 + m, e - 25);
  }
  static uint16_t half_from_float(DType t, float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if (t == DType::kBFloat16) {
      if (std::isnan(f)) return 0x7fc0;
      return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
    }
    const uint16_t sign = (u >> 31) ? 0x8000 : 0;
    const double a = std::fabs(static_cast<double>(f));
    if (std::isnan(f)) return sign | 0x7e00;
    // Exhaustive: the nearest of the 0x7c01 non-negative codes, ties to even.
    uint16_t lo = 0, hi = 0x7c00;
    while (lo < hi) {  // first code whose value >= a
      const uint16_t mid = static_cast<uint16_t>((lo + hi) / 2);
      if (half_to_float(DType::kFloat16, mid) < a) lo = static_cast<uint16_t>(mid + 1);
      else hi = mid;
    }
    if (lo == 0x7c00 && a > 65504.0) {  // above the largest finite value
      return (a - 65504.0 >= 16.0) ? sign | 0x7c00 : sign | 0x7bff;
    }
    uint16_t r = lo;
    if (lo > 0) {
      const double up = half_to_float(DType::kFloat16, lo) - a;
      const double down = a - half_to_float(DType::kFloat16, static_cast<uint16_t>(lo - 1));
      if (down < up || (down == up && (lo & 1))) r = static_cast<uint16_t>(lo - 1);
    }
    return sign | r;
  }

 private:
  static constexpr float kCanaryF = 12345.678f;
  static constexpr double kCanaryD = 98765.4321;
  static constexpr uint16_t kCanaryH = 0x5a5a;
  DType type_;
  size_t n_;
  std::vector<float> f_;
  std::vector<double> d_;
  std::vector<uint16_t> h_;
};

// Indices of either type, with guards like Values.
class Indices {
 public:
  static constexpr size_t kGuard = 64;
  Indices(IndexType t, size_t n) : type_(t), n_(n) {
    if (t == IndexType::kInt32) i32_.assign(n + 2 * kGuard, kCanary);
    else i64_.assign(n + 2 * kGuard, kCanary);
  }
  Indices(IndexType t, const std::vector<int64_t>& v) : Indices(t, v.size()) {
    for (size_t i = 0; i < v.size(); ++i) set(i, v[i]);
  }
  void set(size_t i, int64_t v) {
    if (type_ == IndexType::kInt32) i32_[kGuard + i] = static_cast<int32_t>(v);
    else i64_[kGuard + i] = v;
  }
  int64_t get(size_t i) const {
    return type_ == IndexType::kInt32 ? i32_[kGuard + i] : i64_[kGuard + i];
  }
  void* data() {
    return type_ == IndexType::kInt32 ? static_cast<void*>(i32_.data() + kGuard)
                                      : static_cast<void*>(i64_.data() + kGuard);
  }
  size_t size() const { return n_; }
  IndexType type() const { return type_; }
  bool guards_intact() const {
    for (size_t i = 0; i < kGuard; ++i) {
      if (type_ == IndexType::kInt32 ? (i32_[i] != kCanary || i32_[kGuard + n_ + i] != kCanary)
                                     : (i64_[i] != kCanary || i64_[kGuard + n_ + i] != kCanary)) {
        return false;
      }
    }
    return true;
  }

 private:
  static constexpr int32_t kCanary = 0x5a5a5a5a;
  IndexType type_;
  size_t n_;
  std::vector<int32_t> i32_;
  std::vector<int64_t> i64_;
};

// Exact equality for values stored as `t`: NaN equals NaN, -0 is not +0.
inline bool exact_equal(DType t, double got, double want) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (Values::half(t)) return Values::same_bits(got, want);  // both exact in double
  if (t == DType::kFloat32) {
    return Values::same_bits(static_cast<float>(got), static_cast<float>(want));
  }
  return Values::same_bits(got, want);
}

// Empty string when equal, else a description of the first difference.
inline std::string diff_values(const Values& got, const std::vector<double>& want) {
  if (got.size() != want.size()) {
    return "size " + std::to_string(got.size()) + " != " + std::to_string(want.size());
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (!exact_equal(got.type(), got.get(i), want[i])) {
      std::ostringstream m;
      m.precision(17);
      m << "element " << i << ": got " << got.get(i) << ", want " << want[i];
      return m.str();
    }
  }
  return got.guards_intact() ? "" : "a write outside the buffer";
}

inline std::string diff_indices(const Indices& got, const std::vector<int64_t>& want) {
  if (got.size() != want.size()) {
    return "size " + std::to_string(got.size()) + " != " + std::to_string(want.size());
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (got.get(i) != want[i]) {
      return "index " + std::to_string(i) + ": got " + std::to_string(got.get(i)) + ", want " +
             std::to_string(want[i]);
    }
  }
  return got.guards_intact() ? "" : "a write outside the buffer";
}

// The one-shot ops on a range of planes: plan, then run on `r`.
inline unpool::Status pool_range(const unpool::PoolParams& pp, const Shape& in, DType t,
                                 IndexType it, unpool::PlaneRange r, const void* x, void* y,
                                 void* idx, std::string* err) {
  unpool::Plan p;
  const unpool::Status s = unpool::plan_max_pool(pp, in, t, it, &p, err);
  return s != unpool::Status::kOk ? s : unpool::run_max_pool(p, r, x, y, idx, err);
}

inline unpool::Status unpool_range(const unpool::UnpoolParams& up, const Shape& in, DType t,
                                   IndexType it, unpool::PlaneRange r, const void* x,
                                   const void* idx, void* y, std::string* err) {
  unpool::Plan p;
  const unpool::Status s = unpool::plan_max_unpool(up, in, t, it, &p, err);
  return s != unpool::Status::kOk ? s : unpool::run_max_unpool(p, r, x, idx, y, err);
}

inline unpool::Status pool_backward_range(const unpool::PoolParams& pp, const Shape& in,
                                          const Shape& out, DType t, IndexType it,
                                          unpool::PlaneRange r, const void* go, const void* idx,
                                          void* gi, std::string* err) {
  unpool::Plan p;
  const unpool::Status s = unpool::plan_max_pool_backward(pp, in, out, t, it, &p, err);
  return s != unpool::Status::kOk ? s : unpool::run_max_pool_backward(p, r, go, idx, gi, err);
}

inline unpool::Status unpool_backward_range(int dims, const Shape& go_shape, const Shape& idx_shape,
                                            DType t, IndexType it, unpool::PlaneRange r,
                                            const void* go, const void* idx, void* gi,
                                            std::string* err) {
  unpool::Plan p;
  const unpool::Status s = unpool::plan_max_unpool_backward(dims, unpool::Layout::kChannelsFirst,
                                                            go_shape, idx_shape, t, it, &p, err);
  return s != unpool::Status::kOk ? s : unpool::run_max_unpool_backward(p, r, go, idx, gi, err);
}

}  // namespace unpool_test

#endif  // UNPOOL_TESTS_CPP_TEST_UTIL_H_
