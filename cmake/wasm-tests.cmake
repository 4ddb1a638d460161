# The whole GoogleTest suite (conformance vectors, random sweep, microkernel
# bit-identity) compiled with em++ and run by CTest under Node:
#
#   emcmake cmake -S . -B build/wasm-tests -DUNPOOL_WASM_TESTS=ON
#   cmake --build build/wasm-tests --target unpool_wasm_tests -j2
#   ctest --test-dir build/wasm-tests
#
# (Building every target also links the npm module, whose -O3 link needs
# NODE_PATH=/usr/share/nodejs; these targets set it themselves.)
#
# UNPOOL_WASM_SIMD=OFF builds it without -msimd128 -mbulk-memory (the scalar
# fallback).
# The suite links its own copy of the kernel library so its flags do not
# depend on the module build; its sources are those of the `unpool` target. GoogleTest comes from Debian's
# /usr/src/googletest, compiled with em++ here.
option(UNPOOL_WASM_TESTS "Build the GoogleTest suite with em++ and run it under Node" OFF)
option(UNPOOL_WASM_SIMD "Compile the em++ test suite and benchmarks with -msimd128" ON)
set(UNPOOL_GTEST_SOURCE_DIR "/usr/src/googletest" CACHE PATH "GoogleTest sources for em++ builds")

if(EMSCRIPTEN AND (UNPOOL_WASM_TESTS OR UNPOOL_BUILD_BENCH))
  # Flags of every em++ test and benchmark target. Link -O2 and above run
  # acorn from Debian's node modules, hence the NODE_PATH launcher.
  # Every engine with SIMD has bulk memory too, which turns memset (the
  # zero-fill of unpool and pool backward) into memory.fill, which beats
  # Emscripten's libc memset. The scalar build stays MVP.
  set(UNPOOL_WASM_DEV_FLAGS -O3)
  if(UNPOOL_WASM_SIMD)
    list(APPEND UNPOOL_WASM_DEV_FLAGS -msimd128 -mbulk-memory)
  endif()
  set(UNPOOL_WASM_DEV_LINK_FLAGS ${UNPOOL_WASM_DEV_FLAGS}
    -sENVIRONMENT=node -sALLOW_MEMORY_GROWTH=1 -sEXIT_RUNTIME=1)
  # Node 20 needs --no-experimental-fetch for Emscripten 3.1.6's glue, and
  # the glue is CommonJS while the repository's package.json says "module".
  set(UNPOOL_NODE_EMULATOR node --no-experimental-fetch)
  file(WRITE ${CMAKE_BINARY_DIR}/package.json "{ \"type\": \"commonjs\" }\n")

  # The sources of the `unpool` library, compiled with the flags above.
  get_target_property(UNPOOL_LIBRARY_SOURCES unpool SOURCES)
  add_library(unpool_wasmdev STATIC ${UNPOOL_LIBRARY_SOURCES})
  target_include_directories(unpool_wasmdev PUBLIC cpp/include cpp/src)
  target_compile_options(unpool_wasmdev PRIVATE ${UNPOOL_WASM_DEV_FLAGS})

  # Sets what an em++ test or benchmark executable needs.
  function(unpool_wasm_executable target)
    target_compile_options(${target} PRIVATE ${UNPOOL_WASM_DEV_FLAGS})
    target_link_options(${target} PRIVATE ${UNPOOL_WASM_DEV_LINK_FLAGS})
    set_target_properties(${target} PROPERTIES
      CROSSCOMPILING_EMULATOR "${UNPOOL_NODE_EMULATOR}"
      CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs")
  endfunction()
endif()

if(EMSCRIPTEN AND UNPOOL_WASM_TESTS)
  enable_testing()
  set(gtest_disable_pthreads ON CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  add_subdirectory(${UNPOOL_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/googletest EXCLUDE_FROM_ALL)
  target_compile_options(gtest PRIVATE ${UNPOOL_WASM_DEV_FLAGS})
  target_compile_options(gtest_main PRIVATE ${UNPOOL_WASM_DEV_FLAGS})

  file(GLOB UNPOOL_WASM_TEST_SOURCES CONFIGURE_DEPENDS
    ${CMAKE_CURRENT_SOURCE_DIR}/tests/cpp/*_test.cc)
  add_executable(unpool_wasm_tests tests/cpp/golden.cc ${UNPOOL_WASM_TEST_SOURCES})
  # The vectors' table is data: -O3 spent minutes (tens under load) on its
  # one huge initializer for nothing.
  set_source_files_properties(tests/cpp/golden.cc PROPERTIES COMPILE_OPTIONS -O0)
  target_include_directories(unpool_wasm_tests PRIVATE tests/cpp cpp/src)
  target_link_libraries(unpool_wasm_tests PRIVATE unpool_wasmdev gtest gtest_main)
  unpool_wasm_executable(unpool_wasm_tests)
  include(GoogleTest)
  gtest_discover_tests(unpool_wasm_tests DISCOVERY_MODE PRE_TEST DISCOVERY_TIMEOUT 60)
endif()
