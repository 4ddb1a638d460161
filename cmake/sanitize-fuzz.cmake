# Sanitizer build of the GoogleTest suite and the libFuzzer targets (clang).
#   CXX=clang++ cmake -S . -B build/fuzz -DUNPOOL_SANITIZE=ON -DUNPOOL_FUZZ=ON
option(UNPOOL_SANITIZE "Build the library and tests with ASan + UBSan" OFF)
option(UNPOOL_FUZZ "Build the libFuzzer targets (needs clang)" OFF)

set(UNPOOL_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all
    -fno-omit-frame-pointer -g)

if(UNPOOL_SANITIZE)
  target_compile_options(unpool PRIVATE ${UNPOOL_SANITIZER_FLAGS})
  target_link_options(unpool INTERFACE -fsanitize=address,undefined)
  if(TARGET unpool_tests)
    target_compile_options(unpool_tests PRIVATE ${UNPOOL_SANITIZER_FLAGS})
  endif()
endif()

if(UNPOOL_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "UNPOOL_FUZZ needs clang (CXX=clang++)")
  endif()
  # Coverage feedback from the kernels themselves, not only the harness.
  target_compile_options(unpool PRIVATE -fsanitize=fuzzer-no-link)
  foreach(target fuzz_pool fuzz_unpool fuzz_adaptive)
    add_executable(${target} tests/fuzz/${target}.cc)
    target_include_directories(${target} PRIVATE tests/fuzz tests/cpp)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer ${UNPOOL_SANITIZER_FLAGS})
    target_link_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${target} PRIVATE unpool)
  endforeach()
endif()
