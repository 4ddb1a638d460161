// fuzz_adaptive.cc's integer pass (issue 31): the op again on an integer
// value type, run where it takes integers and refused where it does not.
#ifndef UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_INT_H_
#define UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_INT_H_

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

}  // namespace unpool_fuzz

#endif  // UNPOOL_TESTS_FUZZ_FUZZ_ADAPTIVE_INT_H_
