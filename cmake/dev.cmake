# Developer targets beyond the library, the module and the native suite:
# the microkernel test in the native suite, the em++ GoogleTest suite
# (cmake/wasm-tests.cmake) and the Google Benchmarks (bench/native/).
if(TARGET unpool_tests)
  target_sources(unpool_tests PRIVATE tests/cpp/ukernel_test.cc
    tests/cpp/ukernel_scatter_test.cc tests/cpp/ukernel_nhwc_test.cc
    tests/cpp/ukernel_windows_test.cc tests/cpp/ukernel_keys_test.cc)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/wasm-tests.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/bench/native/bench.cmake)
