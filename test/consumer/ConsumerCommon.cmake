# Helpers shared by the tests that build projects against an installed pt2ir
# (RunConsumerTest.cmake, RunExampleBackend.cmake), included with -P scripts.

# Script mode starts with old policies; IN_LIST and friends need new ones.
cmake_minimum_required(VERSION 3.20)

# Stops unless every variable named in ARGN is set.
function(require_vars script)
  foreach(var ${ARGN})
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "${script}: ${var} is not set")
    endif()
  endforeach()
endfunction()

# Runs a command; stops on a non-zero exit, keeping its output in `out_var`.
function(run step out_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${step} failed (${rc}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(${out_var} "${out}" PARENT_SCOPE)
endfunction()

# Runs a command that must fail; keeps its stderr in `err_var`.
function(run_failing step err_var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${step}: expected a failure, got exit 0:\n${ARGN}\n${out}")
  endif()
  set(${err_var} "${err}" PARENT_SCOPE)
endfunction()

function(expect text pattern what)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected to match '${pattern}', got:\n${text}")
  endif()
endfunction()

# Installs the built pt2ir tree at PT2IR_BINARY_DIR into `prefix`, afresh.
function(install_pt2ir prefix)
  file(REMOVE_RECURSE "${prefix}")
  run("install" out ${CMAKE_COMMAND} --install "${PT2IR_BINARY_DIR}" --prefix "${prefix}")
endfunction()

# Configures and builds the CMake project `source` in `build` against the
# pt2ir installed at `prefix`.
function(build_against_install source build prefix)
  set(configure_args -S "${source}" -B "${build}" -G "${GENERATOR}"
      -DCMAKE_BUILD_TYPE=Release "-DCMAKE_PREFIX_PATH=${prefix}")
  if(CXX_COMPILER)
    list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
  endif()
  run("configure ${source}" out ${CMAKE_COMMAND} ${configure_args})
  run("build ${source}" out ${CMAKE_COMMAND} --build "${build}")
endfunction()
