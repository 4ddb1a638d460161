// libFuzzer target: max_unpool{1,2,3}d forward and backward (gather), both
// dtypes and index types, with hostile indices and output sizes, then both
// on an integer value type in either layout. Checks validation against an
// independent rule list and results against the naive reference; any
// mismatch aborts.
#include <cstdint>
#include <initializer_list>
#include <string>

#include "fuzz_input.h"
#include "reference.h"
#include "test_util.h"
#include "window_test_util.h"

using namespace unpool_fuzz;
using unpool::Status;
using unpool_test::Indices;
using unpool_test::Values;

namespace {

// Whether the product of `v` is at most `limit` (true when one is 0).
bool product_within(std::initializer_list<int64_t> v, int64_t limit) {
  for (const int64_t x : v) {
    if (x == 0) return true;
  }
  int64_t n = 1;
  for (const int64_t x : v) {
    if (n > limit / x) return false;
    n *= x;
  }
  return true;
}

// The rules for a valid unpool (PyTorch's, plus unpool's stricter kernel,
// stride and padding checks); `g->in` is the pooled and `g->out` the
// unpooled size. `*too_large` is set when the sizes are valid but the output
// is not addressable with 64-bit byte offsets (its plane, or the whole
// tensor, over INT64_MAX / 8 elements).
bool expect_valid(const Args& a, unpool_test::RefGeom* g, bool* too_large) {
  *too_large = false;
  const unpool::Shape& s = a.input;
  for (int i = 1; i < s.rank; ++i) {
    if (s.dims[i] <= 0) return false;
  }
  g->planes = a.batched ? s.dims[0] * s.dims[1] : s.dims[0];
  const int n = a.output_size_count;
  if (n >= 0 && n != a.dims && n != a.dims + 2 && !(n == a.dims + 1 && !a.batched)) return false;
  for (int i = 0; i < a.dims; ++i) {
    const int slot = 3 - a.dims + i;
    g->k[slot] = a.kernel[a.lists ? i : 0];
    g->s[slot] = a.has_stride ? a.stride[a.lists ? i : 0] : g->k[slot];
    g->p[slot] = a.padding[a.lists ? i : 0];
    g->in[slot] = s.dims[s.rank - a.dims + i];
    if (g->k[slot] < 1 || g->s[slot] < 1 || g->p[slot] < 0) return false;
    const int64_t dflt = (g->in[slot] - 1) * g->s[slot] + g->k[slot] - 2 * g->p[slot];
    if (n < 0) {
      if (dflt < 1) return false;
      g->out[slot] = dflt;
    } else {
      const int64_t o = a.output_size[n - a.dims + i];
      if (!(dflt - g->s[slot] < o && o < dflt + g->s[slot]) || o < 1) return false;
      g->out[slot] = o;
    }
  }
  const int64_t limit = INT64_MAX / 8;
  *too_large = !product_within({g->out[0], g->out[1], g->out[2]}, limit) ||
               !product_within({g->planes, g->out[0], g->out[1], g->out[2]}, limit);
  return !*too_large;
}

template <typename T>
void run(const Args& a, const unpool_test::RefGeom& g, const unpool::Shape& out, Reader& r) {
  const size_t n_in = static_cast<size_t>(unpool::numel(a.input));
  const size_t n_out = static_cast<size_t>(unpool::numel(out));
  const int64_t plane = g.out[0] * g.out[1] * g.out[2];
  std::vector<T> x(n_in), go(n_out);
  std::vector<int64_t> raw(n_in);
  bool in_range = true;
  for (auto& v : x) v = static_cast<T>(r.value());
  for (auto& v : raw) {
    v = r.index();
    if (v >= 0) v %= plane + 1;  // == plane now and then: just out of range
    in_range = in_range && v >= 0 && v < plane;
  }
  for (auto& v : go) v = static_cast<T>(r.value());
  Values xv(a.dtype, std::vector<double>(x.begin(), x.end())), y(a.dtype, n_out, 9.0);
  Indices idx(a.itype, raw);
  std::string err;
  const unpool::UnpoolParams p = a.unpool();
  const Status s =
      unpool::max_unpool(p, a.input, a.dtype, xv.data(), a.itype, idx.data(), y.data(), &err);
  CHECK((s == Status::kOk) == in_range);
  Values gov(a.dtype, std::vector<double>(go.begin(), go.end())), gi(a.dtype, n_in, 9.0);
  const Status bs =
      unpool::max_unpool_backward(a.dims, unpool::Layout::kChannelsFirst, out, a.input, a.dtype,
                                  gov.data(), a.itype, idx.data(), gi.data(), &err);
  CHECK((bs == Status::kOk) == in_range);
  CHECK((unpool::max_unpool_check(p, a.input, a.itype, idx.data(), &err) == Status::kOk) ==
        in_range);
  // The same unpool over a range of planes, through buffers of their own:
  // an invalid range is refused, a valid one checks only its own indices and
  // gives the whole run's planes.
  const Range range = read_range(r, g.planes);
  const int64_t in_plane = g.in[0] * g.in[1] * g.in[2];
  bool range_ok = range.valid;
  for (int64_t i = range.begin * in_plane; i < (range.begin + range.count) * in_plane; ++i) {
    range_ok = range_ok && raw[static_cast<size_t>(i)] >= 0 && raw[static_cast<size_t>(i)] < plane;
  }
  Values xr(a.dtype, static_cast<size_t>(range.count * in_plane)),
      yr(a.dtype, static_cast<size_t>(range.count * plane), 9.0);
  Indices ir(a.itype, static_cast<size_t>(range.count * in_plane));
  for (int64_t i = 0; i < range.count * in_plane; ++i) {
    xr.set(static_cast<size_t>(i),
           static_cast<double>(x[static_cast<size_t>(range.begin * in_plane + i)]));
    ir.set(static_cast<size_t>(i), raw[static_cast<size_t>(range.begin * in_plane + i)]);
  }
  const Status rs = unpool_test::unpool_range(p, a.input, a.dtype, a.itype, range.r, xr.data(),
                                              ir.data(), yr.data(), &err);
  CHECK(rs == (!range.valid ? Status::kInvalidArgument
               : range_ok   ? Status::kOk
                            : Status::kInvalidIndex));
  CHECK(yr.guards_intact());
  // Expected: the range's planes zero-filled then scattered in order (the
  // whole run may have failed on an index outside the range), or untouched.
  std::vector<double> want(static_cast<size_t>(range.count * plane), rs == Status::kOk ? 0.0 : 9.0);
  for (int64_t i = 0; rs == Status::kOk && i < range.count * in_plane; ++i) {
    const int64_t at = (i / in_plane) * plane + ir.get(static_cast<size_t>(i));
    want[static_cast<size_t>(at)] =
        static_cast<double>(x[static_cast<size_t>(range.begin * in_plane + i)]);
  }
  CHECK(unpool_test::diff_values(yr, want).empty());
  if (in_range && range.valid) {
    for (int64_t i = 0; i < range.count * plane; ++i) {
      CHECK(unpool_test::exact_equal(a.dtype, yr.get(static_cast<size_t>(i)),
                                     y.get(static_cast<size_t>(range.begin * plane + i))));
    }
  }
  if (!in_range) {
    CHECK(s == Status::kInvalidIndex && bs == Status::kInvalidIndex);
    for (size_t i = 0; i < n_out; ++i) CHECK(y.get(i) == 9.0);
    for (size_t i = 0; i < n_in; ++i) CHECK(gi.get(i) == 9.0);
    CHECK(y.guards_intact() && gi.guards_intact());
    return;
  }
  const std::vector<T> ry = unpool_test::ref_unpool(g, x, raw);
  CHECK(unpool_test::diff_values(y, std::vector<double>(ry.begin(), ry.end())).empty());
  const std::vector<T> rgi = unpool_test::ref_unpool_backward(g, go, raw);
  CHECK(unpool_test::diff_values(gi, std::vector<double>(rgi.begin(), rgi.end())).empty());
}

// The unpool and its gather on integer values (issue 31): they move values
// as they are, so the reference on T itself must match exactly, in either
// layout (channels last: the channels-first data transposed); an index
// outside the plane is refused with nothing written, and nothing is
// written past the outputs.
template <typename T>
void run_int(const Args& a, const unpool_test::RefGeom& g, const unpool::Shape& out,
             unpool::DType dt, bool last, Reader& r) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  const int64_t batch = a.batched ? a.input.dims[0] : 1, c = a.input.dims[a.batched ? 1 : 0];
  std::vector<T> x(static_cast<size_t>(g.planes * ip)), go(static_cast<size_t>(g.planes * op));
  std::vector<int64_t> raw(x.size());
  bool in_range = true;
  for (auto& v : x) v = read_int<T>(r);
  for (auto& v : raw) {
    v = r.index();
    if (v >= 0) v %= op + 1;  // == op now and then: just out of range
    in_range = in_range && v >= 0 && v < op;
  }
  for (auto& v : go) v = read_int<T>(r);
  unpool::UnpoolParams p = a.unpool();
  unpool::Shape in_shape = a.input, out_shape = out;
  const auto cl = [&](const auto& v, int64_t plane) {
    return last ? unpool_test::to_channels_last(v, batch, c, plane) : v;
  };
  const auto cf = [&](const std::vector<T>& v, int64_t plane) {
    return last ? unpool_test::to_channels_first(v, batch, c, plane) : v;
  };
  if (last) {
    p.layout = unpool::Layout::kChannelsLast;
    in_shape = unpool_test::channels_last_shape(a.input, a.dims);
    out_shape = unpool_test::channels_last_shape(out, a.dims);
    // An outputSize with the leading dims is in the layout's order too:
    // its C moves after the spatial entries.
    const int n = p.output_size_count, ci = n - a.dims - 1;
    if (ci >= 0) {
      const int64_t cv = p.output_size[ci];
      for (int i = ci; i < n - 1; ++i) p.output_size[i] = p.output_size[i + 1];
      p.output_size[n - 1] = cv;
    }
  }
  IntBuffer<T> xb(cl(x, ip)), y(go.size(), T(9)), gob(cl(go, op)), gi(x.size(), T(9));
  Indices idx(a.itype, cl(raw, ip));
  std::string err;
  const Status s =
      unpool::max_unpool(p, in_shape, dt, xb.data(), a.itype, idx.data(), y.data(), &err);
  const Status bs = unpool::max_unpool_backward(a.dims, p.layout, out_shape, in_shape, dt,
                                                gob.data(), a.itype, idx.data(), gi.data(), &err);
  CHECK(y.guards_intact() && gi.guards_intact() && idx.guards_intact());
  if (!in_range) {
    CHECK(s == Status::kInvalidIndex && bs == Status::kInvalidIndex);
    CHECK(y.all(T(9)) && gi.all(T(9)));
    return;
  }
  CHECK(s == Status::kOk && bs == Status::kOk);
  CHECK(cf(y.values(), op) == unpool_test::ref_unpool(g, x, raw));
  CHECK(cf(gi.values(), ip) == unpool_test::ref_unpool_backward(g, go, raw));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  const Args a = read_args(r);
  unpool_test::RefGeom g;
  bool too_large = false;
  const bool valid = expect_valid(a, &g, &too_large);
  unpool::Shape out;
  std::string err;
  const Status s = unpool::max_unpool_shape(a.unpool(), a.input, &out, &err);
  CHECK((s == Status::kOk) == valid);
  CHECK(!too_large || s == Status::kTooLarge);
  CHECK(s == Status::kOk ? err.empty() : err.rfind("maxUnpool", 0) == 0);
  unpool::SizeRange ranges[3];
  if (valid) {
    CHECK(unpool::max_unpool_output_range(a.unpool(), a.input, ranges, &err) == Status::kOk);
  }
  if (!valid || elements(a.input) < 0 || elements(out) < 0) return 0;
  if (a.dtype == unpool::DType::kFloat32) run<float>(a, g, out, r);
  else run<double>(a, g, out, r);
  const uint8_t pick = r.byte();
  with_int_type(
      pick, [&](auto t, unpool::DType dt) { run_int<decltype(t)>(a, g, out, dt, pick & 8, r); });
  return 0;
}
