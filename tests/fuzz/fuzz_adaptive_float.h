// fuzz_adaptive.cc's float pass: the op on float32 or float64 values
// against the naive reference, over the whole tensor and a fuzzed (often
// invalid) plane range channels first, over the whole tensor channels last,
// then the backward passes; a failing run must write nothing.
#ifndef UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_FLOAT_H_
#define UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_FLOAT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_adaptive_plan.h"
#include "fuzz_window_rules.h"
#include "reference.h"
#include "test_util.h"
#include "window_test_util.h"

namespace unpool_fuzz {

using unpool::Status;
using unpool_test::Indices;
using unpool_test::Values;

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

}  // namespace unpool_fuzz

#endif  // UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_FLOAT_H_
