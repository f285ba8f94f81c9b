# The `example-backend` test (registered by cmake/Install.cmake): the
# out-of-tree backend of examples/backend, built against a fresh install, on
# the corpus. Run as
#   cmake -DPT2IR_SOURCE_DIR=... -DPT2IR_BINARY_DIR=... -DWORK_DIR=...
#         -DGENERATOR=... -DCXX_COMPILER=... -P RunExampleBackend.cmake
#
# 1. installs pt2ir into WORK_DIR/prefix and builds examples/backend with it
#    (the standalone tool mybackend-opt and the plugin MyBackendPlugin);
# 2. for every program of test/corpus, and one whose graph output is the
#    relu a fusion replaces: the standalone tool and the installed pt2-opt
#    with the plugin give the same bytes, the result verifies, reads back
#    with the plugin and round-trips byte for byte, and fused programs show
#    `#mybackend:linear_relu` in --emit=text and are refused without the
#    plugin;
# 3. the fusion counts are those the corpus programs hold.
# Any failure stops with FATAL_ERROR (a failed test).

include("${CMAKE_CURRENT_LIST_DIR}/ConsumerCommon.cmake")
require_vars(RunExampleBackend.cmake PT2IR_SOURCE_DIR PT2IR_BINARY_DIR WORK_DIR GENERATOR)

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
install_pt2ir("${prefix}")
build_against_install("${PT2IR_SOURCE_DIR}/examples/backend" "${build}" "${prefix}")

set(tool "${build}/mybackend-opt")
set(plugin "${build}/libMyBackendPlugin.so")
set(opt "${prefix}/bin/pt2-opt")

file(GLOB programs "${PT2IR_SOURCE_DIR}/test/corpus/*.json")
list(APPEND programs "${PT2IR_SOURCE_DIR}/test/consumer/linear_relu_output.json")
set(total_fused 0)
foreach(program ${programs})
  get_filename_component(name "${program}" NAME_WE)
  set(standalone "${WORK_DIR}/${name}.standalone.json")
  set(plugged "${WORK_DIR}/${name}.plugin.json")
  run("mybackend-opt ${name}" stats "${tool}" "${program}" "${standalone}")
  expect("${stats}" "mybackend-fuse-linear-relu: fused-linear-relu = [0-9]+" "statistics of ${name}")
  string(REGEX MATCH "fused-linear-relu = ([0-9]+)" unused "${stats}")
  set(fused "${CMAKE_MATCH_1}")
  math(EXPR total_fused "${total_fused} + ${fused}")
  run("pt2-opt with the plugin on ${name}" out "${opt}" "--load-pass-plugin=${plugin}"
      --pass-pipeline=mybackend-fuse-linear-relu "${program}" -o "${plugged}")
  file(READ "${standalone}" a)
  file(READ "${plugged}" b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${name}: the standalone tool and the plugin wrote different programs")
  endif()
  # Verifies (pt2-opt verifies what it reads) and round-trips byte for byte.
  run("read back ${name}" out "${opt}" "--load-pass-plugin=${plugin}" --verify-roundtrip "${plugged}"
      -o "${WORK_DIR}/${name}.again.json")
  file(READ "${WORK_DIR}/${name}.again.json" c)
  if(NOT b STREQUAL c)
    message(FATAL_ERROR "${name}: the fused program does not round-trip byte for byte")
  endif()
  if(fused GREATER 0)
    run("text of ${name}" text "${opt}" "--load-pass-plugin=${plugin}" --emit=text "${plugged}")
    expect("${text}" "= #mybackend:linear_relu\\(" "the text form of ${name}")
    run_failing("${name} without the plugin" err "${opt}" "${plugged}" -o "${WORK_DIR}/unused.json")
    expect("${err}" "extension namespace 'mybackend' of target '#mybackend:linear_relu' is not registered"
           "reading ${name} without the plugin")
  endif()
endforeach()

# mlp: three addmm+relu; the program whose output is the relu: one linear.
run("mlp again" stats "${tool}" "${PT2IR_SOURCE_DIR}/test/corpus/mlp.json" "${WORK_DIR}/unused.json")
expect("${stats}" "fused-linear-relu = 3\n" "mlp fusions")
file(READ "${WORK_DIR}/linear_relu_output.plugin.json" fusedOutput)
expect("${fusedOutput}" "\"output_specs\": \\[{\"user_output\": {\"arg\": {\"as_tensor\": {\"name\": \"linear_relu\"}}}}\\]"
       "the signature of the program whose output was fused")
if(total_fused LESS 4)
  message(FATAL_ERROR "expected fusions across the corpus, got ${total_fused}")
endif()
message(STATUS "example-backend: ${total_fused} fusions; tool and plugin agree; all verify and round-trip")
