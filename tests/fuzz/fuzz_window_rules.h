// The rules for valid arguments of adaptive max pooling, fractional max
// pooling and the unpool without kernel, written out once more from
// PyTorch's rules (and unpool's divergences: an adaptive or fractional size
// of 0 and a fractional kernel of 0 are errors) for fuzz_adaptive.cc.
#ifndef UNPOOL_TESTS_FUZZ_FUZZ_WINDOW_RULES_H_
#define UNPOOL_TESTS_FUZZ_FUZZ_WINDOW_RULES_H_

#include <cstdint>

#include "fuzz_window_input.h"

namespace unpool_fuzz {

constexpr int64_t kMaxSize = (int64_t{1} << 31) - 1;

// What the rules resolve: channels-first planes, spatial sizes (D, H, W).
struct Geom {
  int64_t planes = 0, in[3] = {1, 1, 1}, out[3] = {1, 1, 1}, kernel[3] = {1, 1, 1};
};

// Dims must be positive except a batch dim (and, for unpools, an unbatched
// C) of 0.
inline bool dims_ok(const WindowArgs& a, bool unbatched_c_may_be_0) {
  for (int i = 0; i < a.input.rank; ++i) {
    const bool may_be_0 = (a.batched && i == 0) || (!a.batched && i == 0 && unbatched_c_may_be_0);
    if (a.input.dims[i] < (may_be_0 ? 0 : 1)) return false;
  }
  return true;
}

// One size per dim from `count` entries: 1 broadcasts; a list needs dims.
inline bool sizes_ok(const WindowArgs& a, int32_t count, bool list, const int64_t* v,
                     const bool* keep, int64_t* out) {
  if (count < 1 || (count != a.dims && (list || count != 1))) return false;
  for (int i = 0; i < a.dims; ++i) {
    const int64_t s = v[count == 1 ? 0 : i];
    if (list && keep && keep[i]) {
      out[3 - a.dims + i] = a.spatial(i);
    } else if (s < 1 || s > kMaxSize) {
      return false;
    } else {
      out[3 - a.dims + i] = s;
    }
  }
  return true;
}

inline bool adaptive_valid(const WindowArgs& a, Geom* g) {
  return dims_ok(a, false) && sizes_ok(a, a.count, a.lists, a.out, a.keep, g->out);
}

inline bool fractional_valid(const WindowArgs& a, Geom* g) {
  if (a.dims == 1 || !dims_ok(a, false)) return false;
  if (!sizes_ok(a, a.lists ? a.dims : 1, a.lists, a.kernel, nullptr, g->kernel)) return false;
  const bool size = !a.ratio_form || a.extra, ratio = a.ratio_form || a.extra;
  const bool size_given = size && (a.count != 0 || a.lists),
             ratio_given = ratio && (a.count != 0 || a.lists);
  if (size_given == ratio_given) return false;
  if (size_given && !sizes_ok(a, a.count, a.lists, a.out, nullptr, g->out)) return false;
  if (ratio_given) {
    if (a.count != a.dims && !(a.count == 1 && !a.lists)) return false;
    for (int i = 0; i < a.dims; ++i) {
      const double r = a.ratio[a.count == 1 ? 0 : i];
      if (!(r > 0 && r < 1)) return false;
      g->out[3 - a.dims + i] = static_cast<int64_t>(static_cast<double>(a.spatial(i)) * r);
      if (g->out[3 - a.dims + i] < 1) return false;
    }
  }
  for (int i = 3 - a.dims; i < 3; ++i) {
    const int64_t in = a.spatial(i - (3 - a.dims)), need = g->out[i] + g->kernel[i] - 1;
    if (a.dims == 2 ? need > in : need >= in) return false;
  }
  return a.samples_shape < 5;
}

inline bool unpool_valid(const WindowArgs& a, Geom* g) {
  if (a.extra || a.padding != 0 || a.count != a.dims || !dims_ok(a, true)) return false;
  return sizes_ok(a, a.count, true, a.out, nullptr, g->out);
}

}  // namespace unpool_fuzz

#endif  // UNPOOL_TESTS_FUZZ_FUZZ_WINDOW_RULES_H_
