// Unpool and backward microkernels: index range checks, scatter, scatter-add
// and gather over one plane. Offsets are trusted here: the operator layer
// checks them with check_indices__scalar first.
#ifndef UNPOOL_SRC_UKERNELS_SCATTER_H_
#define UNPOOL_SRC_UKERNELS_SCATTER_H_

#include <cstdint>
#include <limits>
#include <type_traits>

namespace unpool {
namespace ukernels {

// True when every idx[i] (i < n) lies in [0, limit). Branch-free reduction so
// the common all-valid case runs at memory speed: one unsigned compare tests
// both bounds (a negative index wraps to a huge unsigned one), which GCC
// vectorises and the int64 form was not.
template <typename I>
bool check_indices__scalar(const I* idx, int64_t n, int64_t limit) {
  using U = typename std::make_unsigned<I>::type;
  constexpr int64_t kMax = static_cast<int64_t>(std::numeric_limits<I>::max());
  // Every non-negative I is below a limit past its maximum.
  const U lim = limit > kMax ? static_cast<U>(static_cast<U>(kMax) + 1) : static_cast<U>(limit);
  U bad = 0;  // an integer OR reduction: GCC does not vectorise a bool AND
  for (int64_t i = 0; i < n; ++i) bad |= static_cast<U>(static_cast<U>(idx[i]) >= lim);
  return bad == 0;
}

// y[idx[i]] = x[i] in order: the later of duplicate indices wins.
template <typename T, typename I>
void unpool_scatter__scalar(const T* x, const I* idx, int64_t n, T* y) {
  for (int64_t i = 0; i < n; ++i) y[idx[i]] = x[i];
}

// gi[idx[o]] += go[o] in output order.
template <typename T, typename I>
void scatter_add__scalar(const T* go, const I* idx, int64_t n, T* gi) {
  for (int64_t o = 0; o < n; ++o) gi[idx[o]] += go[o];
}

// The same, skipping offsets outside [0, limit): those of pool windows that
// lie wholly in padding, where PyTorch writes outside the plane.
template <typename T, typename I>
void scatter_add_in_range__scalar(const T* go, const I* idx, int64_t n, int64_t limit, T* gi) {
  for (int64_t o = 0; o < n; ++o) {
    const int64_t v = static_cast<int64_t>(idx[o]);
    if (v >= 0 && v < limit) gi[v] += go[o];
  }
}

// gi[i] = go[idx[i]].
template <typename T, typename I>
void gather__scalar(const T* go, const I* idx, int64_t n, T* gi) {
  for (int64_t i = 0; i < n; ++i) gi[i] = go[idx[i]];
}

}  // namespace ukernels
}  // namespace unpool

#endif  // UNPOOL_SRC_UKERNELS_SCATTER_H_
