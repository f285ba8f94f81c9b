# Locates the Debian packages pt2ir builds against. Each becomes an imported
# target so the libraries below can link them by name.

set(PT2IR_LLVM_ROOT "/usr/lib/llvm-19" CACHE PATH "Root of the LLVM 19 installation")

# The static LLVMSupport archive is linked directly rather than through
# LLVMConfig.cmake: Debian's exported target file lists every LLVM tool and
# fails when optional ones are not installed.
find_library(PT2IR_LLVM_SUPPORT LLVMSupport PATHS "${PT2IR_LLVM_ROOT}/lib" NO_DEFAULT_PATH REQUIRED)
find_library(PT2IR_LLVM_DEMANGLE LLVMDemangle PATHS "${PT2IR_LLVM_ROOT}/lib" NO_DEFAULT_PATH REQUIRED)
find_package(ZLIB REQUIRED)
find_library(PT2IR_ZSTD zstd REQUIRED)
find_package(Threads REQUIRED)
add_library(pt2ir_llvm_headers INTERFACE)
target_include_directories(pt2ir_llvm_headers SYSTEM INTERFACE "${PT2IR_LLVM_ROOT}/include")
add_library(pt2ir_llvm INTERFACE)
target_include_directories(pt2ir_llvm SYSTEM INTERFACE "${PT2IR_LLVM_ROOT}/include")
target_link_libraries(pt2ir_llvm INTERFACE
  "${PT2IR_LLVM_SUPPORT}" "${PT2IR_LLVM_DEMANGLE}" ZLIB::ZLIB "${PT2IR_ZSTD}" Threads::Threads ${CMAKE_DL_LIBS})

find_package(RapidJSON REQUIRED)
add_library(pt2ir_rapidjson INTERFACE)
target_include_directories(pt2ir_rapidjson SYSTEM INTERFACE ${RAPIDJSON_INCLUDE_DIRS})

find_package(fmt REQUIRED)

find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)

set(PT2IR_LIT "${PT2IR_LLVM_ROOT}/build/utils/lit/lit.py" CACHE FILEPATH "lit.py")
set(PT2IR_LLVM_TOOLS_DIR "${PT2IR_LLVM_ROOT}/bin" CACHE PATH "Where FileCheck, not and split-file live")
