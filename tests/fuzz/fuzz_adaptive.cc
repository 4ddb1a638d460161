// libFuzzer target: adaptive max pooling (1d/2d/3d, both layouts),
// fractional max pooling (2d/3d) and the unpool without kernel, forward and
// backward, both dtypes and index types (bytes: fuzz_window_input.h), then
// the same op on an integer value type: run where it takes integers,
// refused where it does not. Checks validation against an independent rule
// list, results against the naive reference, plane ranges against the whole
// run, and that a failing run writes nothing; any mismatch aborts.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_window_rules.h"
#include "reference.h"
#include "test_util.h"
#include "window_test_util.h"

using namespace unpool_fuzz;
using unpool::Status;
using unpool_test::Indices;
using unpool_test::Values;

namespace {

unpool::SizeArg size_arg(bool list, int32_t count, const int64_t* v) {
  unpool::SizeArg s;
  s.list = list;
  s.count = count;
  for (int i = 0; i < 3; ++i) s.values[i] = v[i];
  return s;
}

unpool::Shape with_spatial(const WindowArgs& a, const int64_t out[3]) {
  unpool::Shape s = a.input;
  for (int i = 0; i < a.dims; ++i) s.dims[s.rank - a.dims + i] = out[3 - a.dims + i];
  return s;
}

unpool::Shape in_layout(const WindowArgs& a, const unpool::Shape& s) {
  return a.channels_last ? unpool_test::channels_last_shape(s, a.dims) : s;
}

// Plans `a` and returns the plan's status, with `out` its output shape.
Status plan(const WindowArgs& a, unpool::Plan* p, std::string* err) {
  const unpool::Shape in = in_layout(a, a.input);
  if (a.op == WindowOp::kAdaptive) {
    unpool::AdaptivePoolParams ap;
    ap.dims = a.dims;
    ap.output_size = size_arg(a.lists, a.count, a.out);
    for (int i = 0; i < 3; ++i) ap.keep[i] = a.keep[i];
    ap.layout = a.layout();
    return unpool::plan_adaptive_max_pool(ap, in, a.dtype, a.itype, p, err);
  }
  if (a.op == WindowOp::kFractional) {
    unpool::FractionalPoolParams fp;
    fp.dims = a.dims;
    fp.kernel = size_arg(a.lists, a.lists ? a.dims : 1, a.kernel);
    if (!a.ratio_form || a.extra) fp.output_size = size_arg(a.lists, a.count, a.out);
    if (a.ratio_form || a.extra) {
      fp.ratio_count = a.count;
      fp.ratio_list = a.lists;
      for (int i = 0; i < 3; ++i) fp.output_ratio[i] = a.ratio[i];
    }
    unpool::Shape samples;
    samples.rank = 3;
    samples.dims[0] = a.batched ? a.input.dims[0] : 1;
    samples.dims[1] = a.channels();
    samples.dims[2] = a.dims;
    if (a.samples_shape == 5) samples.rank = 2;
    if (a.samples_shape == 6) ++samples.dims[0];
    if (a.samples_shape == 7) ++samples.dims[2];
    return unpool::plan_fractional_max_pool(fp, a.input, samples, a.dtype, a.itype, p, err);
  }
  unpool::UnpoolParams up;
  up.dims = a.dims;
  if (a.extra) up.stride = size_arg(a.lists, a.lists ? a.dims : 1, a.kernel);
  const int64_t padding[3] = {a.padding, a.padding, a.padding};
  up.padding = size_arg(false, 1, padding);
  up.output_size_count = a.count;
  for (int i = 0; i < 5; ++i) up.output_size[i] = i < 3 ? a.out[i] : 1;
  up.layout = a.layout();
  return unpool::plan_max_unpool(up, in, a.dtype, a.itype, p, err);
}

// Whole-tensor buffers and results of the forward run, channels first.
template <typename T>
struct Data {
  std::vector<T> x, samples, go;
  std::vector<int64_t> raw;  // unpool indices, some out of range
};

// The reference of planes [b, b + n): pools' output and indices, or the
// unpooled planes (`ok` false when a sample or an index there is bad, and
// then nothing is computed).
template <typename T>
bool reference(const WindowArgs& a, const Geom& g, const Data<T>& d, int64_t b, int64_t n,
               std::vector<T>* y, std::vector<int64_t>* idx) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  const std::vector<T> x = unpool_test::part(d.x, b * ip, n * ip);
  if (a.op == WindowOp::kAdaptive) {
    unpool_test::ref_adaptive_pool<T>(n, g.in, g.out, x, y, idx);
    return true;
  }
  if (a.op == WindowOp::kFractional) {
    const std::vector<T> u = unpool_test::part(d.samples, b * a.dims, n * a.dims);
    for (T v : u) {
      if (!(v >= 0 && v <= 1)) return false;
    }
    unpool_test::ref_fractional_pool<T>(a.dims, n, g.in, g.out, g.kernel, x, u, y, idx);
    return true;
  }
  *idx = unpool_test::part(d.raw, b * ip, n * ip);
  for (int64_t v : *idx) {
    if (v < 0 || v >= op) return false;
  }
  unpool_test::RefGeom rg;
  rg.planes = n;
  for (int i = 0; i < 3; ++i) {
    rg.in[i] = g.in[i];
    rg.out[i] = g.out[i];
  }
  *y = unpool_test::ref_unpool(rg, x, *idx);
  return true;
}

// Runs the plan on planes [b, b + n) (`r` the range to pass) through
// buffers of their own, channels first; checks status, results and guards.
template <typename T>
void run_range(const WindowArgs& a, const Geom& g, const unpool::Plan& p, const Data<T>& d,
               unpool::PlaneRange r, int64_t b, int64_t n) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  std::vector<T> ry;
  std::vector<int64_t> ridx;
  const bool ok = reference(a, g, d, b, n, &ry, &ridx);
  Values x(a.dtype, unpool_test::as_doubles(unpool_test::part(d.x, b * ip, n * ip))),
      y(a.dtype, static_cast<size_t>(n * op), 9.0);
  Indices idx(a.itype, static_cast<size_t>(a.op == WindowOp::kUnpool ? n * ip : n * op));
  std::string err;
  Status s;
  if (a.op == WindowOp::kAdaptive) {
    s = unpool::run_adaptive_max_pool(p, r, x.data(), y.data(), idx.data(), &err);
  } else if (a.op == WindowOp::kFractional) {
    Values u(a.dtype,
             unpool_test::as_doubles(unpool_test::part(d.samples, b * a.dims, n * a.dims)));
    s = unpool::run_fractional_max_pool(p, r, x.data(), u.data(), y.data(), idx.data(), &err);
  } else {
    for (int64_t i = 0; i < n * ip; ++i)
      idx.set(static_cast<size_t>(i), d.raw[static_cast<size_t>(b * ip + i)]);
    s = unpool::run_max_unpool(p, r, x.data(), idx.data(), y.data(), &err);
  }
  CHECK(y.guards_intact() && idx.guards_intact());
  if (!ok) {
    CHECK(s == (a.op == WindowOp::kUnpool ? Status::kInvalidIndex : Status::kInvalidArgument));
    for (size_t i = 0; i < y.size(); ++i) CHECK(y.get(i) == 9.0);
    return;
  }
  CHECK(s == Status::kOk);
  CHECK(unpool_test::diff_values(y, unpool_test::as_doubles(ry)).empty());
  if (a.op != WindowOp::kUnpool) CHECK(unpool_test::diff_indices(idx, ridx).empty());
}

// The whole tensor channels last (adaptive, unpool): the channels-first
// reference transposed.
template <typename T>
void run_channels_last(const WindowArgs& a, const Geom& g, const unpool::Plan& p,
                       const Data<T>& d) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  const int64_t batch = a.batched ? a.input.dims[0] : 1, c = a.channels();
  std::vector<T> ry;
  std::vector<int64_t> ridx;
  const bool ok = reference(a, g, d, 0, g.planes, &ry, &ridx);
  const bool unpool = a.op == WindowOp::kUnpool;
  Values x(a.dtype, unpool_test::as_doubles(unpool_test::to_channels_last(d.x, batch, c, ip))),
      y(a.dtype, static_cast<size_t>(g.planes * op), 9.0);
  Indices idx(a.itype, unpool ? unpool_test::to_channels_last(d.raw, batch, c, ip)
                              : std::vector<int64_t>(static_cast<size_t>(g.planes * op)));
  std::string err;
  const Status s = unpool
                       ? unpool::run_max_unpool(p, {}, x.data(), idx.data(), y.data(), &err)
                       : unpool::run_adaptive_max_pool(p, {}, x.data(), y.data(), idx.data(), &err);
  CHECK(y.guards_intact() && idx.guards_intact());
  if (!ok) {
    CHECK(s == Status::kInvalidIndex);
    for (size_t i = 0; i < y.size(); ++i) CHECK(y.get(i) == 9.0);
    return;
  }
  CHECK(s == Status::kOk);
  const std::vector<double> got = unpool_test::read_values(y);
  CHECK(unpool_test::diff_values(Values(a.dtype, unpool_test::to_channels_first(got, batch, c, op)),
                                 unpool_test::as_doubles(ry))
            .empty());
  if (!unpool) {
    CHECK(unpool_test::to_channels_first(unpool_test::read_indices(idx), batch, c, op) == ridx);
  }
}

// The backward passes over the whole tensor in the args' layout: pools
// scatter-add by the forward's indices (then once more with one index
// moved outside the plane when the input asks: an error, nothing written);
// the unpool gathers.
template <typename T>
void run_backward(const WindowArgs& a, const Geom& g, const Data<T>& d, const unpool::Shape& out,
                  Reader& r) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  const int64_t batch = a.batched ? a.input.dims[0] : 1, c = a.channels();
  const auto cl = [&](const auto& v, int64_t plane) {
    return a.channels_last ? unpool_test::to_channels_last(v, batch, c, plane) : v;
  };
  std::vector<T> ry;
  std::vector<int64_t> ridx;
  const bool ok = reference(a, g, d, 0, g.planes, &ry, &ridx);
  unpool_test::RefGeom rg;
  rg.planes = g.planes;
  for (int i = 0; i < 3; ++i) {
    rg.in[i] = g.in[i];
    rg.out[i] = g.out[i];
  }
  std::string err;
  const unpool::Shape in_shape = in_layout(a, a.input), out_shape = in_layout(a, out);
  Values go(a.dtype, unpool_test::as_doubles(cl(d.go, op)));
  if (a.op == WindowOp::kUnpool) {
    Values gi(a.dtype, static_cast<size_t>(g.planes * ip), 5.0);
    Indices idx(a.itype, cl(d.raw, ip));
    const Status s = unpool::max_unpool_backward(a.dims, a.layout(), out_shape, in_shape, a.dtype,
                                                 go.data(), a.itype, idx.data(), gi.data(), &err);
    CHECK(gi.guards_intact());
    CHECK(s == (ok ? Status::kOk : Status::kInvalidIndex));
    const std::vector<double> want =
        ok ? unpool_test::as_doubles(cl(unpool_test::ref_unpool_backward(rg, d.go, d.raw), ip))
           : std::vector<double>(gi.size(), 5.0);
    CHECK(unpool_test::diff_values(gi, want).empty());
    return;
  }
  if (!ok) return;  // no forward indices
  unpool::Plan bp;
  const Status ps = a.op == WindowOp::kAdaptive
                        ? unpool::plan_adaptive_max_pool_backward(
                              a.dims, a.layout(), in_shape, out_shape, a.dtype, a.itype, &bp, &err)
                        : unpool::plan_fractional_max_pool_backward(a.dims, in_shape, out_shape,
                                                                    a.dtype, a.itype, &bp, &err);
  CHECK(ps == Status::kOk);
  Indices idx(a.itype, cl(ridx, op));
  Values gi(a.dtype, static_cast<size_t>(g.planes * ip), 5.0);
  CHECK(unpool::run_max_pool_backward(bp, {}, go.data(), idx.data(), gi.data(), &err) ==
        Status::kOk);
  CHECK(unpool_test::diff_values(
            gi, unpool_test::as_doubles(cl(unpool_test::ref_pool_backward(rg, d.go, ridx), ip)))
            .empty());
  const uint8_t corrupt = r.byte();
  if ((corrupt & 1) == 0 || idx.size() == 0) return;
  const size_t at = r.byte() % idx.size();
  idx.set(at, (corrupt & 2) ? ip : -1);
  Values gi2(a.dtype, static_cast<size_t>(g.planes * ip), 5.0);
  CHECK(unpool::run_max_pool_backward(bp, {}, go.data(), idx.data(), gi2.data(), &err) ==
        Status::kInvalidIndex);
  CHECK(unpool_test::diff_values(gi2, std::vector<double>(gi2.size(), 5.0)).empty());
}

template <typename T>
void run(const WindowArgs& a, const Geom& g, const unpool::Plan& p, const unpool::Shape& out,
         Reader& r) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  const Range range = read_range(r, g.planes);
  Data<T> d;
  d.x.resize(static_cast<size_t>(g.planes * ip));
  for (auto& v : d.x) v = static_cast<T>(r.value());
  if (a.op == WindowOp::kFractional) {
    d.samples.resize(static_cast<size_t>(g.planes * a.dims));
    for (auto& v : d.samples) v = read_sample<T>(r);
  }
  if (a.op == WindowOp::kUnpool) {
    d.raw.resize(d.x.size());
    for (auto& v : d.raw) {
      v = r.index();
      if (v >= 0) v %= op + 1;  // == op now and then: just out of range
    }
  }
  d.go.resize(static_cast<size_t>(g.planes * op));
  for (auto& v : d.go) v = static_cast<T>(r.value());
  if (a.channels_last) {
    run_channels_last(a, g, p, d);
    // Only the whole tensor runs channels last.
    const bool whole = range.valid && range.begin == 0 && range.count == g.planes;
    if (!whole) {
      std::string err;
      CHECK((a.op == WindowOp::kUnpool
                 ? unpool::run_max_unpool(p, range.r, nullptr, nullptr, nullptr, &err)
                 : unpool::run_adaptive_max_pool(p, range.r, nullptr, nullptr, nullptr, &err)) ==
            Status::kInvalidArgument);
    }
  } else {
    run_range(a, g, p, d, {}, 0, g.planes);
    if (range.valid) {
      run_range(a, g, p, d, range.r, range.begin, range.count);
    } else {
      std::string err;
      const Status s =
          a.op == WindowOp::kAdaptive
              ? unpool::run_adaptive_max_pool(p, range.r, nullptr, nullptr, nullptr, &err)
          : a.op == WindowOp::kFractional
              ? unpool::run_fractional_max_pool(p, range.r, nullptr, nullptr, nullptr, nullptr,
                                                &err)
              : unpool::run_max_unpool(p, range.r, nullptr, nullptr, nullptr, &err);
      CHECK(s == Status::kInvalidArgument);
    }
  }
  run_backward(a, g, d, out, r);
}

// The op of `a` on integer values (issue 31), in the args' layout.
// Adaptive pooling and the kernel-free unpool take them: the reference on T
// itself must match exactly (the unpool's gather too), nothing is written
// past the outputs, and a bad index is refused with nothing written. The
// backward passes that add (adaptive, fractional) and fractional pooling
// refuse them, as PyTorch does: when planned, and when run from a float
// plan whose dtype was changed by hand (a plan is plain data), with nothing
// written.
template <typename T>
void run_int(WindowArgs a, const Geom& g, const unpool::Shape& out, unpool::DType dt, Reader& r) {
  const int64_t ip = g.in[0] * g.in[1] * g.in[2], op = g.out[0] * g.out[1] * g.out[2];
  const int64_t batch = a.batched ? a.input.dims[0] : 1, c = a.channels();
  const bool unpool = a.op == WindowOp::kUnpool;
  const unpool::DType float_dtype = a.dtype;
  a.dtype = dt;
  std::string err;
  unpool::Plan p;
  const Status s = plan(a, &p, &err);
  std::vector<T> x(static_cast<size_t>(g.planes * ip)), go(static_cast<size_t>(g.planes * op));
  for (auto& v : x) v = read_int<T>(r);
  for (auto& v : go) v = read_int<T>(r);
  if (a.op == WindowOp::kFractional) {
    CHECK(s == Status::kInvalidArgument);
    CHECK(err.rfind("fractionalMaxPool", 0) == 0 &&
          err.find("takes float32 or float64 values") != std::string::npos);
    unpool::Plan fp;
    a.dtype = float_dtype;
    CHECK(plan(a, &fp, &err) == Status::kOk);
    fp.dtype = dt;
    std::vector<T> u(static_cast<size_t>(g.planes * a.dims), T(0));
    IntBuffer<T> xb(x), y(go.size(), T(9));
    std::vector<int64_t> idx(go.size(), -9);
    err.clear();
    CHECK(unpool::run_fractional_max_pool(fp, {}, xb.data(), u.data(), y.data(), idx.data(),
                                          &err) == Status::kInvalidArgument);
    CHECK(err.find("takes float32 or float64 values") != std::string::npos);
    CHECK(y.all(T(9)) && y.guards_intact());
    for (int64_t v : idx) CHECK(v == -9);
  } else {
    CHECK(s == Status::kOk);
    CHECK(p.output.rank == out.rank);
    const auto cl = [&](const auto& v, int64_t plane) {
      return a.channels_last ? unpool_test::to_channels_last(v, batch, c, plane) : v;
    };
    const auto cf = [&](const auto& v, int64_t plane) {
      return a.channels_last ? unpool_test::to_channels_first(v, batch, c, plane) : v;
    };
    std::vector<int64_t> raw;  // unpool indices, some out of range
    bool ok = true;
    if (unpool) {
      raw.resize(x.size());
      for (auto& v : raw) {
        v = r.index();
        if (v >= 0) v %= op + 1;
        ok = ok && v >= 0 && v < op;
      }
    }
    unpool_test::RefGeom rg;
    rg.planes = g.planes;
    for (int i = 0; i < 3; ++i) {
      rg.in[i] = g.in[i];
      rg.out[i] = g.out[i];
    }
    std::vector<T> ry;
    std::vector<int64_t> ridx;
    if (unpool && ok) ry = unpool_test::ref_unpool(rg, x, raw);
    if (!unpool) unpool_test::ref_adaptive_pool<T>(g.planes, g.in, g.out, x, &ry, &ridx);
    IntBuffer<T> xb(cl(x, ip)), y(go.size(), T(9));
    Indices idx(a.itype, unpool ? cl(raw, ip) : std::vector<int64_t>(go.size()));
    const Status rs =
        unpool ? unpool::run_max_unpool(p, {}, xb.data(), idx.data(), y.data(), &err)
               : unpool::run_adaptive_max_pool(p, {}, xb.data(), y.data(), idx.data(), &err);
    CHECK(y.guards_intact() && idx.guards_intact());
    if (!ok) {
      CHECK(rs == Status::kInvalidIndex && y.all(T(9)));
    } else {
      CHECK(rs == Status::kOk);
      CHECK(cf(y.values(), op) == ry);
      if (!unpool) CHECK(cf(unpool_test::read_indices(idx), op) == ridx);
    }
    if (unpool) {
      // The gather moves values: integers are fine.
      const unpool::Shape in_shape = in_layout(a, a.input), out_shape = in_layout(a, out);
      IntBuffer<T> gob(cl(go, op)), gi(x.size(), T(9));
      const Status bs =
          unpool::max_unpool_backward(a.dims, a.layout(), out_shape, in_shape, dt, gob.data(),
                                      a.itype, idx.data(), gi.data(), &err);
      CHECK(gi.guards_intact());
      if (!ok) {
        CHECK(bs == Status::kInvalidIndex && gi.all(T(9)));
      } else {
        CHECK(bs == Status::kOk);
        CHECK(cf(gi.values(), ip) == unpool_test::ref_unpool_backward(rg, go, raw));
      }
      return;
    }
  }
  // The pools' gradients add: an integer gradOutput is refused.
  const unpool::Shape in_shape = in_layout(a, a.input), out_shape = in_layout(a, out);
  unpool::Plan bp;
  err.clear();
  const Status ps = a.op == WindowOp::kAdaptive
                        ? unpool::plan_adaptive_max_pool_backward(a.dims, a.layout(), in_shape,
                                                                  out_shape, dt, a.itype, &bp, &err)
                        : unpool::plan_fractional_max_pool_backward(a.dims, in_shape, out_shape, dt,
                                                                    a.itype, &bp, &err);
  CHECK(ps == Status::kInvalidArgument);
  CHECK(err.find("a pool's gradient adds") != std::string::npos);
  const Status fs =
      a.op == WindowOp::kAdaptive
          ? unpool::plan_adaptive_max_pool_backward(a.dims, a.layout(), in_shape, out_shape,
                                                    float_dtype, a.itype, &bp, &err)
          : unpool::plan_fractional_max_pool_backward(a.dims, in_shape, out_shape, float_dtype,
                                                      a.itype, &bp, &err);
  CHECK(fs == Status::kOk);
  bp.dtype = dt;
  IntBuffer<T> gob(go), gi(x.size(), T(5));
  Indices idx(a.itype, std::vector<int64_t>(go.size(), 0));
  err.clear();
  CHECK(unpool::run_max_pool_backward(bp, {}, gob.data(), idx.data(), gi.data(), &err) ==
        Status::kInvalidArgument);
  CHECK(err.find("a pool's gradient adds") != std::string::npos);
  CHECK(gi.all(T(5)) && gi.guards_intact());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  const WindowArgs a = read_window_args(r);
  Geom g;
  g.planes = a.planes();
  for (int i = 0; i < a.dims; ++i) g.in[3 - a.dims + i] = a.spatial(i);
  const bool valid = a.op == WindowOp::kAdaptive     ? adaptive_valid(a, &g)
                     : a.op == WindowOp::kFractional ? fractional_valid(a, &g)
                                                     : unpool_valid(a, &g);
  unpool::Plan p;
  std::string err;
  const Status s = plan(a, &p, &err);
  CHECK((s == Status::kOk) == valid);
  const char* prefix = a.op == WindowOp::kAdaptive     ? "adaptiveMaxPool"
                       : a.op == WindowOp::kFractional ? "fractionalMaxPool"
                                                       : "maxUnpool";
  CHECK(s == Status::kOk ? err.empty() : err.rfind(prefix, 0) == 0);
  if (!valid) return 0;
  const unpool::Shape out = with_spatial(a, g.out);
  const unpool::Shape want = in_layout(a, out);
  CHECK(p.output.rank == want.rank);
  for (int i = 0; i < want.rank; ++i) CHECK(p.output.dims[i] == want.dims[i]);
  if (elements(a.input) < 0 || elements(out) < 0) return 0;
  if (a.dtype == unpool::DType::kFloat32) run<float>(a, g, p, out, r);
  else run<double>(a, g, p, out, r);
  with_int_type(r.byte(),
                [&](auto t, unpool::DType dt) { run_int<decltype(t)>(a, g, out, dt, r); });
  return 0;
}
