# Benchmarks of the C++ kernels (bench/native/kernels_bench.cc), not tests.
#   cmake -S . -B build/bench -DUNPOOL_BUILD_BENCH=ON && cmake --build build/bench --target unpool_bench
# Natively they use Debian's Google Benchmark (libbenchmark-dev); under
# emcmake the same source builds against bench/native/minibench.h and runs
# under Node (UNPOOL_WASM_SIMD picks -msimd128 or the scalar build).
# bench/native/run.sh builds all three and compares them.
option(UNPOOL_BUILD_BENCH "Build the kernel benchmarks" OFF)

if(UNPOOL_BUILD_BENCH)
  if(EMSCRIPTEN)
    add_executable(unpool_bench bench/native/kernels_bench.cc)
    target_include_directories(unpool_bench PRIVATE bench/native cpp/src)
    target_link_libraries(unpool_bench PRIVATE unpool_wasmdev)
    unpool_wasm_executable(unpool_bench)
  else()
    find_package(benchmark REQUIRED)
    add_executable(unpool_bench bench/native/kernels_bench.cc)
    target_include_directories(unpool_bench PRIVATE cpp/src)
    target_link_libraries(unpool_bench PRIVATE unpool benchmark::benchmark)
  endif()
endif()
