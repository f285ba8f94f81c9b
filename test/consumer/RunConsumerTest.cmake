# The `install-consumer` test (registered by cmake/Install.cmake), run as
#   cmake -DPT2IR_SOURCE_DIR=... -DPT2IR_BINARY_DIR=... -DWORK_DIR=...
#         -DGENERATOR=... -DCXX_COMPILER=... -P RunConsumerTest.cmake
#
# 1. installs the (already built) pt2ir build tree into WORK_DIR/prefix;
# 2. configures and builds test/consumer against it with find_package(pt2ir);
# 3. runs the consumer on a corpus program (a custom pass, the verifier,
#    statistics, writing JSON) and checks what it printed and wrote, reading
#    the result back with the installed pt2-opt;
# 4. builds a second program with `pkg-config --cflags --libs pt2ir` and runs it.
# Any failure stops with FATAL_ERROR (a failed test).

include("${CMAKE_CURRENT_LIST_DIR}/ConsumerCommon.cmake")
require_vars(RunConsumerTest.cmake PT2IR_SOURCE_DIR PT2IR_BINARY_DIR WORK_DIR GENERATOR LLVM_INCLUDE_DIR)

set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/build")
set(program "${PT2IR_SOURCE_DIR}/test/corpus/mlp.json")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
install_pt2ir("${prefix}")
foreach(file include/pt2ir/ir/Graph.h include/pt2ir/serde/ProgramReader.h
             include/pt2ir/passes/PassRegistry.def include/pt2ir/tools/lib/Stats.h
             lib/cmake/pt2ir/pt2irConfig.cmake lib/pkgconfig/pt2ir.pc bin/pt2-opt bin/pt2-diff)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "install: ${prefix}/${file} is missing")
  endif()
endforeach()
# The installed package must not point back into the source or build tree.
file(GLOB cmake_files "${prefix}/lib/cmake/pt2ir/*.cmake")
foreach(f ${cmake_files})
  file(READ "${f}" text)
  string(FIND "${text}" "${PT2IR_SOURCE_DIR}" in_source)
  if(NOT in_source EQUAL -1)
    message(FATAL_ERROR "install: ${f} refers to the source tree")
  endif()
endforeach()

# Installed headers carry no private dependency (RapidJSON, libzip), and all
# of them compile together under strict warnings with only the installed
# include directory and LLVM's.
set(cxx "${CXX_COMPILER}")
if(NOT cxx)
  set(cxx c++)
endif()
file(GLOB_RECURSE headers RELATIVE "${prefix}/include" "${prefix}/include/pt2ir/*.h")
set(all_headers "")
foreach(header ${headers})
  file(READ "${prefix}/include/${header}" text)
  string(REGEX MATCH "#include [<\"](rapidjson/|zip[.]h)" private_include "${text}")
  if(private_include)
    message(FATAL_ERROR "install: ${header} includes a private dependency (${private_include})")
  endif()
  string(APPEND all_headers "#include <${header}>\n")
endforeach()
file(WRITE "${WORK_DIR}/all_headers.cpp" "${all_headers}int main() { return 0; }\n")
run("strict headers" out ${cxx} -std=c++17 -fsyntax-only -Wall -Wextra -Wshadow -Wpedantic -Werror
    "-I${prefix}/include" -isystem "${LLVM_INCLUDE_DIR}" "${WORK_DIR}/all_headers.cpp")

build_against_install("${PT2IR_SOURCE_DIR}/test/consumer" "${build}" "${prefix}")

run("run consumer" out "${build}/pt2ir-consumer" "${program}" "${WORK_DIR}/tagged.json")
expect("${out}" "tag-aten-nodes: nodes-tagged = 12\n" "consumer statistics")
expect("${out}" "nodes: 12\n" "consumer stats")
run("read back" out "${prefix}/bin/pt2-opt" --emit=text --print-metadata "${WORK_DIR}/tagged.json")
expect("${out}" "consumer_tag = \"seen\"" "the consumer's pass output")
execute_process(COMMAND "${prefix}/bin/pt2-diff" --ignore=metadata "${program}" "${WORK_DIR}/tagged.json"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "installed pt2-diff: expected equal programs apart from metadata (${rc}):\n${out}")
endif()

find_program(PKG_CONFIG_EXECUTABLE pkg-config)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(FATAL_ERROR "pkg-config is needed for the pkg-config half of this test")
endif()
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
run("pkg-config" flags ${PKG_CONFIG_EXECUTABLE} --cflags --libs pt2ir)
separate_arguments(flags UNIX_COMMAND "${flags}")
run("pkg-config build" out ${cxx} -std=c++17 -O1 "${PT2IR_SOURCE_DIR}/test/consumer/pkgconfig_check.cpp"
    -o "${WORK_DIR}/pkgconfig-check" ${flags})
run("pkg-config run" out "${WORK_DIR}/pkgconfig-check" "${program}")
expect("${out}" "pkg-config consumer: 12 nodes, 1 input leaf" "pkg-config consumer")
message(STATUS "install-consumer: installed package, CMake and pkg-config consumers all work")
