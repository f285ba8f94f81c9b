# Installs pt2ir as a library to build on (`cmake --install <build>`):
#   include/pt2ir/<folder>/...      headers, same layout (ir, treespec, serde,
#                                   archive, verifier, rewrite, passes, tools/lib)
#   lib/libpt2ir_*.a                static libraries
#   bin/pt2-opt, bin/pt2-diff       tools
#   lib/cmake/pt2ir/                find_package(pt2ir)
#   lib/pkgconfig/pt2ir.pc          pkg-config
#
# find_package(pt2ir) gives pt2ir::ir, pt2ir::json, pt2ir::treespec,
# pt2ir::serde, pt2ir::archive, pt2ir::infer, pt2ir::verifier, pt2ir::rewrite,
# pt2ir::passes and pt2ir::tools, and pt2ir::plugin for pass plugins. The
# installed package finds its own dependencies (LLVM Support, fmt, libzip,
# zstd, zlib) when it is loaded instead of carrying this machine's paths:
# the helper targets that hold them (pt2ir_llvm, pt2ir_rapidjson) keep their
# paths for the build only and point, once installed, at targets
# pt2irConfig.cmake creates.
#
# Also registers the `install-consumer` test, which installs into a prefix in
# the build tree and builds test/consumer against it, and the
# `example-backend` test, which does the same for examples/backend.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PT2IR_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/pt2ir")
set(PT2IR_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}/pt2ir")

# Wraps every entry of a list property of `target` in $<BUILD_INTERFACE:...>
# and appends `install_value` for the installed package.
function(pt2ir_build_only target property install_value)
  get_target_property(values ${target} ${property})
  set(wrapped "")
  if(values)
    foreach(value IN LISTS values)
      list(APPEND wrapped "$<BUILD_INTERFACE:${value}>")
    endforeach()
  endif()
  if(install_value)
    list(APPEND wrapped "$<INSTALL_INTERFACE:${install_value}>")
  endif()
  set_property(TARGET ${target} PROPERTY ${property} "${wrapped}")
endfunction()

pt2ir_build_only(pt2ir_llvm INTERFACE_LINK_LIBRARIES pt2ir::LLVMSupport)
pt2ir_build_only(pt2ir_llvm INTERFACE_INCLUDE_DIRECTORIES "")
pt2ir_build_only(pt2ir_llvm INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "")
pt2ir_build_only(pt2ir_llvm_headers INTERFACE_INCLUDE_DIRECTORIES "")
pt2ir_build_only(pt2ir_llvm_headers INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "")
pt2ir_build_only(pt2ir_llvm_headers INTERFACE_LINK_LIBRARIES pt2ir::LLVMHeaders)
# RapidJSON is used by pt2ir's sources only: installed, this target is empty.
pt2ir_build_only(pt2ir_rapidjson INTERFACE_LINK_LIBRARIES "")
pt2ir_build_only(pt2ir_rapidjson INTERFACE_INCLUDE_DIRECTORIES "")
pt2ir_build_only(pt2ir_rapidjson INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "")

set_target_properties(pt2ir_ir PROPERTIES EXPORT_NAME ir)
set_target_properties(pt2ir_json PROPERTIES EXPORT_NAME json)
set_target_properties(pt2ir_treespec PROPERTIES EXPORT_NAME treespec)
set_target_properties(pt2ir_serde PROPERTIES EXPORT_NAME serde)
set_target_properties(pt2ir_text PROPERTIES EXPORT_NAME text)
set_target_properties(pt2ir_archive PROPERTIES EXPORT_NAME archive)
set_target_properties(pt2ir_infer PROPERTIES EXPORT_NAME infer)
set_target_properties(pt2ir_verifier PROPERTIES EXPORT_NAME verifier)
set_target_properties(pt2ir_passes PROPERTIES EXPORT_NAME passes)
set_target_properties(pt2ir_rewrite PROPERTIES EXPORT_NAME rewrite)
set_target_properties(pt2ir_tools PROPERTIES EXPORT_NAME tools)
set_target_properties(pt2ir_plugin PROPERTIES EXPORT_NAME plugin)
set_target_properties(pt2ir_llvm PROPERTIES EXPORT_NAME llvm)
set_target_properties(pt2ir_llvm_headers PROPERTIES EXPORT_NAME llvm_headers)
set_target_properties(pt2ir_rapidjson PROPERTIES EXPORT_NAME rapidjson)
target_include_directories(pt2ir_tools PUBLIC $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)

# A sanitized build's libraries need the sanitizer runtimes in whatever links
# them, so the installed package (and the .pc file) asks for them.
set(PT2IR_PC_EXTRA_LIBS "")
if(PT2IR_SANITIZE)
  target_link_options(pt2ir_ir INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
  set(PT2IR_PC_EXTRA_LIBS "-fsanitize=address,undefined")
endif()

install(TARGETS pt2ir_ir pt2ir_json pt2ir_treespec pt2ir_serde pt2ir_text pt2ir_archive pt2ir_infer pt2ir_verifier
                pt2ir_rewrite pt2ir_passes pt2ir_tools
                pt2ir_plugin pt2ir_llvm pt2ir_llvm_headers pt2ir_rapidjson
        EXPORT pt2irTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS pt2-opt pt2-diff RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers that only the library's own sources include (they use RapidJSON,
# or are implementation details) are not installed; json/ holds such headers
# only.
set(PT2IR_PRIVATE_HEADERS StreamingReader.h TreespecJson.h TextSyntax.h RuleSupport.h)
set(private_patterns "")
foreach(header ${PT2IR_PRIVATE_HEADERS})
  list(APPEND private_patterns PATTERN "${header}" EXCLUDE)
endforeach()
foreach(folder ir treespec serde text archive infer verifier rewrite passes tools/lib)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/${folder}/"
          DESTINATION "${PT2IR_INSTALL_INCLUDEDIR}/${folder}"
          FILES_MATCHING PATTERN "*.h" PATTERN "*.def" PATTERN "*.inc" ${private_patterns})
endforeach()

install(EXPORT pt2irTargets NAMESPACE pt2ir:: DESTINATION ${PT2IR_INSTALL_CMAKEDIR})
configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/pt2irConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/pt2irConfig.cmake"
  INSTALL_DESTINATION ${PT2IR_INSTALL_CMAKEDIR})
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/pt2irConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/pt2irConfig.cmake"
              "${PROJECT_BINARY_DIR}/pt2irConfigVersion.cmake"
        DESTINATION ${PT2IR_INSTALL_CMAKEDIR})

# pkg-config: the static libraries in link order, then their dependencies.
configure_file("${PROJECT_SOURCE_DIR}/cmake/pt2ir.pc.in" "${PROJECT_BINARY_DIR}/pt2ir.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/pt2ir.pc" DESTINATION "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

if(PT2IR_BUILD_TESTS)
  add_test(NAME install-consumer
    COMMAND ${CMAKE_COMMAND}
      -DPT2IR_SOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DPT2IR_BINARY_DIR=${PROJECT_BINARY_DIR}
      -DWORK_DIR=${PROJECT_BINARY_DIR}/consumer-test
      -DGENERATOR=${CMAKE_GENERATOR}
      -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
      -DLLVM_INCLUDE_DIR=${PT2IR_LLVM_ROOT}/include
      -P ${PROJECT_SOURCE_DIR}/test/consumer/RunConsumerTest.cmake)
  add_test(NAME example-backend
    COMMAND ${CMAKE_COMMAND}
      -DPT2IR_SOURCE_DIR=${PROJECT_SOURCE_DIR}
      -DPT2IR_BINARY_DIR=${PROJECT_BINARY_DIR}
      -DWORK_DIR=${PROJECT_BINARY_DIR}/example-backend-test
      -DGENERATOR=${CMAKE_GENERATOR}
      -DCXX_COMPILER=${CMAKE_CXX_COMPILER}
      -P ${PROJECT_SOURCE_DIR}/test/consumer/RunExampleBackend.cmake)
endif()
