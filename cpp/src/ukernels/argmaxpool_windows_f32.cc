// The float32 instantiations of argmaxpool_windows__cols, the one window
// kernel that runs hot, in a file of their own: the WebAssembly build
// compiles it for speed while the adaptive and fractional ops, whose other
// code runs once a call or on rare types, are compiled for size
// (CMakeLists.txt).
#include "ukernels/argmaxpool_windows.h"

namespace unpool {
namespace ukernels {

template void argmaxpool_windows__cols<float, int32_t>(const float*, const ArgmaxWindows&,
                                                       const WindowScratch<float>&, float*,
                                                       int32_t*);
template void argmaxpool_windows__cols<float, int64_t>(const float*, const ArgmaxWindows&,
                                                       const WindowScratch<float>&, float*,
                                                       int64_t*);

}  // namespace ukernels
}  // namespace unpool
