// libFuzzer target: adaptive max pooling (1d/2d/3d, both layouts),
// fractional max pooling (2d/3d) and the unpool without kernel, forward and
// backward, both dtypes and index types (bytes: fuzz_window_input.h), then
// the same op on an integer value type: run where it takes integers,
// refused where it does not. Checks validation against an independent rule
// list, results against the naive reference, plane ranges against the whole
// run, and that a failing run writes nothing; any mismatch aborts.
//
// The planning, the float pass and the integer pass are in
// fuzz_adaptive_plan.h, fuzz_adaptive_float.h and fuzz_adaptive_int.h.
#include <cstdint>
#include <string>

#include "fuzz_adaptive_float.h"
#include "fuzz_adaptive_int.h"
#include "fuzz_adaptive_plan.h"
#include "fuzz_window_rules.h"

using namespace unpool_fuzz;
using unpool::Status;

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
