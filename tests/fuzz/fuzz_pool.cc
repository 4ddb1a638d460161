// libFuzzer target: max_pool{1,2,3}d forward and backward, both dtypes and
// index types, then the forward on the integer types in either layout (and
// the backward's refusal of them). Checks validation against an independent
// rule list and results against the naive reference; any mismatch aborts.
#include <string>

#include "fuzz_input.h"
#include "reference.h"
#include "test_util.h"

using namespace unpool_fuzz;
using unpool::Status;
using unpool_test::Indices;
using unpool_test::Values;

namespace {

// PyTorch's rules for a valid pool, written out once more; fills g->out.
bool expect_valid(const Args& a, unpool_test::RefGeom* g) {
  const unpool::Shape& s = a.input;
  for (int i = a.batched ? 1 : 0; i < s.rank; ++i) {
    if (s.dims[i] <= 0) return false;
  }
  g->planes = a.batched ? s.dims[0] * s.dims[1] : s.dims[0];
  for (int i = 0; i < a.dims; ++i) {
    const int slot = 3 - a.dims + i;
    g->k[slot] = a.kernel[a.lists ? i : 0];
    g->s[slot] = a.has_stride ? a.stride[a.lists ? i : 0] : g->k[slot];
    g->p[slot] = a.padding[a.lists ? i : 0];
    g->d[slot] = a.dilation[a.lists ? i : 0];
    g->in[slot] = s.dims[s.rank - a.dims + i];
    if (g->k[slot] < 1 || g->s[slot] < 1 || g->p[slot] < 0 || g->d[slot] < 1) return false;
    if (g->p[slot] > g->k[slot] / 2) return false;
    g->out[slot] = unpool_test::ref_pool_out(g->in[slot], g->k[slot], g->s[slot], g->p[slot],
                                             g->d[slot], a.ceil);
    if (g->out[slot] < 1) return false;
  }
  return true;
}

template <typename T>
void run(const Args& a, const unpool_test::RefGeom& g, const unpool::Shape& out,
         unpool_fuzz::Reader& r) {
  const size_t n_in = static_cast<size_t>(unpool::numel(a.input));
  const size_t n_out = static_cast<size_t>(unpool::numel(out));
  std::vector<T> x(n_in), go(n_out);
  for (auto& v : x) v = static_cast<T>(r.value());
  for (auto& v : go) v = static_cast<T>(r.value());
  Values xv(a.dtype, std::vector<double>(x.begin(), x.end())), y(a.dtype, n_out);
  Indices idx(a.itype, n_out);
  std::string err;
  const unpool::PoolParams p = a.pool();
  CHECK(unpool::max_pool(p, a.input, a.dtype, xv.data(), y.data(), a.itype, idx.data(), &err) ==
        Status::kOk);
  std::vector<T> ry;
  std::vector<int64_t> ridx;
  unpool_test::ref_pool(g, x, &ry, &ridx);
  CHECK(unpool_test::diff_values(y, std::vector<double>(ry.begin(), ry.end())).empty());
  CHECK(unpool_test::diff_indices(idx, ridx).empty());

  Values gov(a.dtype, std::vector<double>(go.begin(), go.end())), gi(a.dtype, n_in, 5.0);
  CHECK(unpool::max_pool_backward(p, a.input, out, a.dtype, gov.data(), a.itype, idx.data(),
                                  gi.data(), &err) == Status::kOk);
  const std::vector<T> rgi = unpool_test::ref_pool_backward(g, go, ridx);
  CHECK(unpool_test::diff_values(gi, std::vector<double>(rgi.begin(), rgi.end())).empty());

  // The same pool and backward over a range of planes, through buffers of
  // their own: an invalid range is refused, a valid one gives the whole
  // run's planes.
  const Range range = read_range(r, g.planes);
  const int64_t in_n = g.in[0] * g.in[1] * g.in[2], out_n = g.out[0] * g.out[1] * g.out[2];
  Values xr(a.dtype, static_cast<size_t>(range.count * in_n)),
      yr(a.dtype, static_cast<size_t>(range.count * out_n)),
      gr(a.dtype, static_cast<size_t>(range.count * in_n), 5.0);
  Indices ir(a.itype, static_cast<size_t>(range.count * out_n));
  for (int64_t i = 0; i < range.count * in_n; ++i) {
    xr.set(static_cast<size_t>(i), xv.get(static_cast<size_t>(range.begin * in_n + i)));
  }
  const Status want = range.valid ? Status::kOk : Status::kInvalidArgument;
  CHECK(unpool_test::pool_range(p, a.input, a.dtype, a.itype, range.r, xr.data(), yr.data(),
                                ir.data(), &err) == want);
  Values gor(a.dtype, static_cast<size_t>(range.count * out_n));
  for (int64_t i = 0; i < range.count * out_n; ++i) {
    gor.set(static_cast<size_t>(i), gov.get(static_cast<size_t>(range.begin * out_n + i)));
  }
  CHECK(unpool_test::pool_backward_range(p, a.input, out, a.dtype, a.itype, range.r, gor.data(),
                                         ir.data(), gr.data(), &err) == want);
  CHECK(yr.guards_intact() && ir.guards_intact() && gr.guards_intact());
  for (int64_t i = 0; range.valid && i < range.count * out_n; ++i) {
    const size_t w = static_cast<size_t>(range.begin * out_n + i), k = static_cast<size_t>(i);
    CHECK(unpool_test::exact_equal(a.dtype, yr.get(k), y.get(w)) && ir.get(k) == idx.get(w));
  }
  for (int64_t i = 0; range.valid && i < range.count * in_n; ++i) {
    const size_t w = static_cast<size_t>(range.begin * in_n + i), k = static_cast<size_t>(i);
    CHECK(unpool_test::exact_equal(a.dtype, gr.get(k), gi.get(w)));
  }

  // Without the geometry every index must lie in the plane.
  unpool::PoolParams plain;
  plain.dims = a.dims;
  const int64_t plane = g.in[0] * g.in[1] * g.in[2];
  bool in_plane = true;
  for (int64_t v : ridx) in_plane = in_plane && v >= 0 && v < plane;
  Values gi2(a.dtype, n_in, 5.0);
  const Status s = unpool::max_pool_backward(plain, a.input, out, a.dtype, gov.data(), a.itype,
                                             idx.data(), gi2.data(), &err);
  CHECK((s == Status::kOk) == in_plane);
  if (in_plane) {
    CHECK(unpool_test::diff_values(gi2, std::vector<double>(rgi.begin(), rgi.end())).empty());
  } else {
    CHECK(s == Status::kInvalidIndex);
    for (size_t i = 0; i < n_in; ++i) CHECK(gi2.get(i) == 5.0);
    CHECK(gi2.guards_intact());
  }
}

// The same geometry on integer values (issue 31): the fuzz input's bytes as
// T (many ties, the type's ends), both layouts (channels last as
// transposed planes), against the reference on T itself; nothing written
// past the outputs. The backward adds, so it refuses integer gradients and
// writes nothing.
template <typename T>
void run_int(const Args& a, const unpool_test::RefGeom& g, const unpool::Shape& out,
             unpool::DType dt, bool last, unpool_fuzz::Reader& r) {
  const int64_t in_n = g.in[0] * g.in[1] * g.in[2], out_n = g.out[0] * g.out[1] * g.out[2];
  const int64_t C = a.batched ? a.input.dims[1] : a.input.dims[0];
  const int64_t N = g.planes / (C > 0 ? C : 1);
  std::vector<T> x(static_cast<size_t>(g.planes * in_n));
  for (auto& v : x) v = read_int<T>(r);
  std::vector<T> ry;
  std::vector<int64_t> ridx;
  unpool_test::ref_pool(g, x, &ry, &ridx);
  // (N, C, S) <-> (N, S, C).
  auto swap = [&](const auto& v, int64_t s, bool to_last) {
    auto o = v;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t i = 0; i < s; ++i) {
          const size_t f = static_cast<size_t>((n * C + c) * s + i),
                       l = static_cast<size_t>((n * s + i) * C + c);
          o[to_last ? l : f] = v[to_last ? f : l];
        }
    return o;
  };
  unpool::PoolParams p = a.pool();
  unpool::Shape shape = a.input, out_shape = out;
  if (last) {
    p.layout = unpool::Layout::kChannelsLast;
    const int lead = a.batched ? 1 : 0;
    for (int i = lead; i < shape.rank - 1; ++i) {
      shape.dims[i] = a.input.dims[i + 1];
      out_shape.dims[i] = out.dims[i + 1];
    }
    shape.dims[shape.rank - 1] = C;
    out_shape.dims[out_shape.rank - 1] = C;
    x = swap(x, in_n, true);
  }
  const size_t n_out = static_cast<size_t>(g.planes * out_n);
  std::vector<T> y(n_out + 16, T(7));
  std::vector<int64_t> idx(n_out + 16, -7);
  std::string err;
  CHECK(unpool::max_pool(p, shape, dt, x.data(), y.data(), unpool::IndexType::kInt64, idx.data(),
                         &err) == Status::kOk);
  for (size_t i = n_out; i < y.size(); ++i) CHECK(y[i] == T(7) && idx[i] == -7);
  y.resize(n_out);
  idx.resize(n_out);
  IntBuffer<T> go(y), gi(x.size(), T(5));
  if (last) {
    y = swap(y, out_n, false);
    idx = swap(idx, out_n, false);
  }
  CHECK(y == ry && idx == ridx);

  err.clear();
  CHECK(unpool::max_pool_backward(p, shape, out_shape, dt, go.data(), unpool::IndexType::kInt64,
                                  ridx.data(), gi.data(), &err) == Status::kInvalidArgument);
  CHECK(err.rfind("maxPool", 0) == 0 && err.find("a pool's gradient adds") != std::string::npos);
  CHECK(gi.all(T(5)) && gi.guards_intact());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  const Args a = read_args(r);
  unpool_test::RefGeom g;
  const bool valid = expect_valid(a, &g);
  unpool::Shape out;
  std::string err;
  const Status s = unpool::max_pool_shape(a.pool(), a.input, &out, &err);
  CHECK((s == Status::kOk) == valid);
  CHECK(s == Status::kOk ? err.empty() : err.rfind("maxPool", 0) == 0);
  if (!valid || elements(a.input) < 0 || elements(out) < 0) return 0;
  // The index type's rule: a window wholly in padding returns its clipped
  // first position, which lies below max(in, dilation) in every dim, so
  // int32 indices must hold offsets up to that product minus one.
  unsigned __int128 limit = 1;
  for (int i = 0; i < 3; ++i) limit *= static_cast<uint64_t>(g.in[i] > g.d[i] ? g.in[i] : g.d[i]);
  if (a.itype == unpool::IndexType::kInt32 && limit - 1 > INT32_MAX) {
    const size_t n_in = static_cast<size_t>(unpool::numel(a.input));
    const size_t n_out = static_cast<size_t>(unpool::numel(out));
    Values xv(a.dtype, std::vector<double>(n_in, 1.0)), y(a.dtype, n_out, 8.0);
    Indices idx(a.itype, n_out);
    const Status st = unpool::max_pool(a.pool(), a.input, a.dtype, xv.data(), y.data(), a.itype,
                                       idx.data(), &err);
    CHECK(st == Status::kTooLarge);
    CHECK(err.find("indexType int32 cannot hold offsets") != std::string::npos);
    for (size_t i = 0; i < n_out; ++i) CHECK(y.get(i) == 8.0);
    return 0;
  }
  if (a.dtype == unpool::DType::kFloat32) run<float>(a, g, out, r);
  else run<double>(a, g, out, r);
  if (unpool::numel(a.input) > (1 << 16) || a.input.dims[a.batched ? 1 : 0] < 1) return 0;
  const uint8_t pick = r.byte();
  with_int_type(
      pick, [&](auto t, unpool::DType dt) { run_int<decltype(t)>(a, g, out, dt, pick & 8, r); });
  return 0;
}
