// 16-bit floating-point values as storage: float16 (IEEE binary16) and
// bfloat16. WebAssembly has no 16-bit float arithmetic, so the kernels work
// on the bit patterns: comparisons through a monotone integer key, sums in
// float32 rounded back after every add, as PyTorch's c10::Half and
// c10::BFloat16 do.
#ifndef UNPOOL_SRC_UKERNELS_HALF_H_
#define UNPOOL_SRC_UKERNELS_HALF_H_

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace unpool {
namespace ukernels {

// Storage types: a value is its bits. Distinct types so that templates tell
// float16 from bfloat16.
struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

inline float f32_from_bits(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}
inline uint32_t bits_from_f32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

template <typename H>
struct HalfTraits;

template <>
struct HalfTraits<Float16> {
  static constexpr uint16_t kInf = 0x7c00;  // magnitude of +-inf; above: NaN
  static constexpr uint16_t kNegInf = 0xfc00;

  // Exact: every binary16 value is a float32 value.
  static float to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
    const uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 0x1f) return f32_from_bits(sign | 0x7f800000u | (man << 13));  // inf, NaN
    if (exp != 0) return f32_from_bits(sign | ((exp + 112) << 23) | (man << 13));
    // Zero and subnormals: man * 2^-24, exact in float32.
    const float v = static_cast<float>(man) * f32_from_bits(0x33800000u);
    return sign ? -v : v;
  }

  // Round to nearest even, overflow to +-inf, subnormals kept; NaN becomes
  // the quiet NaN 0x7e00 with its sign (as fp16_ieee_from_fp32_value, which
  // c10::Half uses).
  static uint16_t from_float(float f) {
    const uint32_t u = bits_from_f32(f);
    const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000);
    const uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00);
    if (a >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00);  // rounds past 65504
    if (a < 0x38800000u) {
      // Below the smallest normal (2^-14): a multiple of 2^-24 after
      // rounding; adding 0.5 (2^-1) aligns the float32 mantissa so that its
      // low bits are that multiple, rounded to nearest even by the FPU.
      const float r = f32_from_bits(a) + 0.5f;
      return static_cast<uint16_t>(sign | (bits_from_f32(r) - 0x3f000000u));
    }
    // Normal: drop 13 mantissa bits, rounding to nearest even; a carry into
    // the exponent is the right result (up to inf at the top).
    const uint32_t rebias = a - (static_cast<uint32_t>(127 - 15) << 23);
    const uint32_t round = 0xfffu + ((rebias >> 13) & 1);
    return static_cast<uint16_t>(sign | ((rebias + round) >> 13));
  }
};

template <>
struct HalfTraits<BFloat16> {
  static constexpr uint16_t kInf = 0x7f80;
  static constexpr uint16_t kNegInf = 0xff80;

  static float to_float(uint16_t h) { return f32_from_bits(static_cast<uint32_t>(h) << 16); }

  // c10::BFloat16's round_to_nearest_even: NaN becomes 0x7fc0.
  static uint16_t from_float(float f) {
    const uint32_t u = bits_from_f32(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
    return static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
  }
};

template <typename H>
inline bool half_is_nan(uint16_t h) {
  return (h & 0x7fff) > HalfTraits<H>::kInf;
}

// A key whose integer order is the values' order, with -0 == +0: the
// magnitude, negated for negative values. NaN is tested apart.
inline int32_t half_key(uint16_t h) {
  const int32_t mag = h & 0x7fff;
  return (h & 0x8000) ? -mag : mag;
}

// g + v in float32, rounded to H: one add of PyTorch's
// grad_input[i] += grad_output[o] on c10::Half / c10::BFloat16. Not
// inlined: each scatter-add loop would carry both conversions.
template <typename H>
__attribute__((noinline)) uint16_t half_add(uint16_t g, uint16_t v) {
  return HalfTraits<H>::from_float(HalfTraits<H>::to_float(g) + HalfTraits<H>::to_float(v));
}

// Float32 semantics on the storage types, so that the generic scalar kernels
// (argmax, scatter-add, copies) run on them unchanged: comparisons are
// IEEE's (NaN unordered, -0 == +0) through the integer key, and += is one
// rounded add. -x flips the sign bit, as float negation does.
template <typename H>
struct IsHalf {
  static constexpr bool value = false;
};
template <>
struct IsHalf<Float16> {
  static constexpr bool value = true;
};
template <>
struct IsHalf<BFloat16> {
  static constexpr bool value = true;
};
template <typename H>
constexpr bool is_half_v = IsHalf<H>::value;

template <typename H, typename = typename std::enable_if<is_half_v<H>>::type>
inline bool operator>(H a, H b) {
  return !half_is_nan<H>(a.bits) && !half_is_nan<H>(b.bits) && half_key(a.bits) > half_key(b.bits);
}
template <typename H, typename = typename std::enable_if<is_half_v<H>>::type>
inline bool operator==(H a, H b) {
  return !half_is_nan<H>(a.bits) && !half_is_nan<H>(b.bits) && half_key(a.bits) == half_key(b.bits);
}
template <typename H, typename = typename std::enable_if<is_half_v<H>>::type>
inline bool operator!=(H a, H b) {
  return !(a == b);
}
template <typename H, typename = typename std::enable_if<is_half_v<H>>::type>
inline H operator-(H a) {
  return H{static_cast<uint16_t>(a.bits ^ 0x8000)};
}
template <typename H, typename = typename std::enable_if<is_half_v<H>>::type>
inline H& operator+=(H& a, H b) {
  a.bits = half_add<H>(a.bits, b.bits);
  return a;
}

}  // namespace ukernels
}  // namespace unpool

// -infinity() starts a running maximum, as for float and double.
namespace std {
template <>
class numeric_limits<unpool::ukernels::Float16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr unpool::ukernels::Float16 infinity() { return {0x7c00}; }
};
template <>
class numeric_limits<unpool::ukernels::BFloat16> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr unpool::ukernels::BFloat16 infinity() { return {0x7f80}; }
};
}  // namespace std

#endif  // UNPOOL_SRC_UKERNELS_HALF_H_
