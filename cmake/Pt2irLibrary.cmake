# Headers live beside their sources in top-level folders (ir/, serde/, ...)
# and are included as <pt2ir/FOLDER/File.h>, both here and once installed.
# In the build tree that prefix is a symlink, build/include/pt2ir -> the
# source root; the source root itself is not on the include path, so an
# include without the prefix does not compile.
set(PT2IR_BUILD_INCLUDE_DIR "${PROJECT_BINARY_DIR}/include")
file(MAKE_DIRECTORY "${PT2IR_BUILD_INCLUDE_DIR}")
if(NOT EXISTS "${PT2IR_BUILD_INCLUDE_DIR}/pt2ir")
  file(CREATE_LINK "${PROJECT_SOURCE_DIR}" "${PT2IR_BUILD_INCLUDE_DIR}/pt2ir" SYMBOLIC)
endif()

# pt2ir_add_library(NAME DEPS... [PRIVATE_DEPS...]): one static library per
# top-level folder, built from every .cpp in it (headers live beside the
# sources). DEPS are what its public headers need; PRIVATE_DEPS only its
# sources (RapidJSON, libzip, fmt), so a consumer never compiles against them.
function(pt2ir_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  if(NOT sources)
    # A folder with headers only so far.
    add_library(${name} INTERFACE)
    target_include_directories(${name} INTERFACE $<BUILD_INTERFACE:${PT2IR_BUILD_INCLUDE_DIR}>)
    target_link_libraries(${name} INTERFACE ${ARG_DEPS})
    return()
  endif()
  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PT2IR_BUILD_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  if(ARG_PRIVATE_DEPS)
    target_link_libraries(${name} PRIVATE ${ARG_PRIVATE_DEPS})
  endif()
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
