// The chunk loop of integer pools on keys, and the key conversions it is
// given (pool_keys.h).
#include "pool_keys.h"

#include <cstdint>

#include "ukernels/config.h"
#include "window_scratch.h"

namespace unpool {
namespace internal {

// The conversions of pool_keys.h: the variant config.h picks, behind the
// untyped pointers of KeyConversion, one copy per pair in this -Oz file.
template <typename T, typename K>
void keys_in(const void* x, void* keys, int64_t n) {
  ukernels::config::keys_in<T, K>(static_cast<const T*>(x), static_cast<K*>(keys), n);
}

template <typename T, typename K>
void keys_out(const void* keys, void* y, int64_t n) {
  ukernels::config::keys_out<T, K>(static_cast<const K*>(keys), static_cast<T*>(y), n);
}

#define UNPOOL_KEYS(T, K)                                            \
  template void keys_in<T, K>(const void* x, void* keys, int64_t n); \
  template void keys_out<T, K>(const void* keys, void* y, int64_t n);
UNPOOL_KEYS(uint8_t, float)
UNPOOL_KEYS(int8_t, float)
UNPOOL_KEYS(int8_t, uint8_t)
UNPOOL_KEYS(int16_t, float)
UNPOOL_KEYS(int32_t, double)
#undef UNPOOL_KEYS

Check pool_on_keys(const char* op, const Geometry& g, const void* x, void* y, void* idx,
                   int64_t index_bytes, const KeyConversion& conv, KeyPool pool, const void* ctx) {
  const bool last = g.layout == Layout::kChannelsLast;
  // A unit: one plane, or one batch item of C planes side by side.
  const int64_t per = last ? g.channels : 1;
  const int64_t units = per == 0 ? 0 : g.planes / per;
  const int64_t unit_in = g.in_plane() * per, unit_out = g.out_plane() * per;
  // About 64 KB of keys a chunk (at least one unit): they stay in L2.
  const int64_t chunk_keys = (64 * 1024) / conv.key_bytes;
  int64_t step = unit_in + unit_out > 0 ? chunk_keys / (unit_in + unit_out) : units;
  if (step < 1) step = 1;
  if (step > units) step = units;
  Buffer<unsigned char> kx(step * unit_in * conv.key_bytes), ky(step * unit_out * conv.key_bytes);
  if (!kx.ok() || !ky.ok()) return no_memory(op);
  const unsigned char* px = static_cast<const unsigned char*>(x);
  unsigned char* py = static_cast<unsigned char*>(y);
  unsigned char* pi = static_cast<unsigned char*>(idx);
  for (int64_t u = 0; u < units; u += step) {
    const int64_t n = units - u < step ? units - u : step;
    Geometry chunk = g;
    chunk.planes = n * per;
    conv.in(px + u * unit_in * conv.value_bytes, kx.data(), n * unit_in);
    const Check c = pool(chunk, kx.data(), ky.data(), pi + u * unit_out * index_bytes, ctx);
    if (!c.ok()) return c;
    conv.out(ky.data(), py + u * unit_out * conv.value_bytes, n * unit_out);
  }
  return {};
}

}  // namespace internal
}  // namespace unpool
