# SPDX-License-Identifier: Apache-2.0
# How fast the trees build: a compiler cache, a faster linker, how much debug information, and
# precompiled headers. Nothing here changes what the programs do; docs/development.md has the figures.

# ccache, when installed. base_dir makes the paths on the command line relative to the checkout, so a
# clone in another directory hits what the developer's own builds put in the cache; the sloppiness is
# what ccache needs to cache units compiled with a precompiled header.
option(CCM_CCACHE "Compile through ccache when it is installed" ON)
if(CCM_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(CCM_CCACHE_PROGRAM ccache)
  if(CCM_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env
      "CCACHE_BASEDIR=${PROJECT_SOURCE_DIR}"
      CCACHE_NOHASHDIR=1
      "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
      ${CCM_CCACHE_PROGRAM})
  endif()
endif()

# The linker: mold, then lld, then the compiler's default, for the ~130 programs and tests that link
# the static debug libraries.
set(CCM_LINKER "auto" CACHE STRING "Linker of every program: auto (mold, else lld, else the default), mold, lld or default")
set_property(CACHE CCM_LINKER PROPERTY STRINGS auto mold lld default)
set(ccm_linker "${CCM_LINKER}")
# The release tree makes the Debian packages: by default they are linked as the distribution links.
if(ccm_linker STREQUAL "auto")
  set(ccm_linker default)
  if(NOT CMAKE_BUILD_TYPE STREQUAL "Release")
    find_program(CCM_MOLD_PROGRAM mold)
    find_program(CCM_LLD_PROGRAM ld.lld)
    if(CCM_MOLD_PROGRAM AND (CMAKE_CXX_COMPILER_ID STREQUAL "Clang" OR
        (CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12.1)))
      set(ccm_linker mold)
    elseif(CCM_LLD_PROGRAM)
      set(ccm_linker lld)
    endif()
  endif()
endif()
if(NOT ccm_linker STREQUAL "default")
  add_link_options(-fuse-ld=${ccm_linker})
endif()
message(STATUS "Linker: ${ccm_linker}")

# Debug information of Debug builds. `lines` (-g1) keeps what sanitizer reports and backtraces show,
# file and line of every frame, and drops the variables; CI builds its trees so, since nobody steps
# through them with a debugger.
set(CCM_DEBUG_INFO "full" CACHE STRING "Debug information of Debug builds: full (-g) or lines (-g1)")
set_property(CACHE CCM_DEBUG_INFO PROPERTY STRINGS full lines)
if(CCM_DEBUG_INFO STREQUAL "lines")
  add_compile_options($<$<CONFIG:Debug>:-g1>)
elseif(NOT CCM_DEBUG_INFO STREQUAL "full")
  message(FATAL_ERROR "CCM_DEBUG_INFO is '${CCM_DEBUG_INFO}'; it must be full or lines")
endif()

# Precompiled headers, for the libraries and the tests (tests/CMakeLists.txt): nlohmann/json and the
# standard library, Qt's most used classes in the designer, QTest in the tests. On by default with
# clang, which reads from such a header only what a unit uses: three test units took 43 % less CPU
# with one. Off by default with GCC 12, which loads all of it, about 2 s of CPU per unit: the same
# units took no less CPU, and a cold build of the dev tree was no faster (docs/development.md).
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  set(ccm_precompiled_headers_default ON)
else()
  set(ccm_precompiled_headers_default OFF)
endif()
option(CCM_PRECOMPILED_HEADERS "Precompile the headers most units of a library include" ${ccm_precompiled_headers_default})
# ccache reuses what a unit compiled with a precompiled header only when the header does not record
# the time it was made.
if(CCM_PRECOMPILED_HEADERS AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  add_compile_options("SHELL:-Xclang -fno-pch-timestamp")
endif()
set(CCM_PCH_STANDARD <algorithm> <array> <chrono> <cstdint> <filesystem> <functional> <map> <memory> <mutex>
    <optional> <set> <string> <string_view> <utility> <vector> <nlohmann/json.hpp>)
set(CCM_PCH_QT_CORE <QObject> <QString> <QStringList> <QList> <QHash> <QVariant> <QByteArray> <QFile> <QDir>
    <QFileInfo> <QJsonObject> <QJsonArray> <QJsonDocument> <QTimer> <QProcess>)
set(CCM_PCH_QT_WIDGETS <QWidget> <QApplication> <QLabel> <QLineEdit> <QPushButton> <QVBoxLayout> <QHBoxLayout>
    <QAction> <QMenu> <QComboBox>)

# Unity builds of the libraries and of the test programs: their sources compiled in batches, each
# batch one unit, so the headers they share (nlohmann/json, QTest, Qt's widgets) are parsed, and
# their templates instantiated and optimised, once per batch instead of once per source. Every
# file-local name is unique within its library or test directory, which is what this needs: a
# helper that more than one test wants lives once in tests/support or the directory's own header.
option(CCM_UNITY_BUILD "Compile each library's and test program's sources in batches (CMake's unity build)" ON)
set(CCM_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity batch")
# The tests take batches twice as large: the test objects of tests/designer, tests/engine and
# tests/core took 28, 20 and 19 CPU seconds in batches of 16, 44, 22 and 26 in batches of 8, and
# 102, 52 and 60 one unit per file (clang Debug, precompiled headers).
set(CCM_TEST_UNITY_BATCH_SIZE 16 CACHE STRING "Test sources per unity batch")
# In a batch, GCC takes the sources after the first for headers and warns of classes in them that
# use a type of an anonymous namespace; in a source file that is what the namespace is for.
# GCC 12 at -O3 also inlines more across a batch's sources and then reports -Wrestrict on
# std::string's own copies (GCC bug 105329, fixed in GCC 13), as it does in valijson's headers.
if(CCM_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  add_compile_options(-Wno-subobject-linkage)
  if(CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    add_compile_options(-Wno-restrict)
  endif()
endif()

# ccm_library_build(<target> [QT_CORE] [QT_WIDGETS]): the library's unity batches and its own
# precompiled header, with the standard library and nlohmann/json, and Qt's most used classes when
# named.
function(ccm_library_build target)
  cmake_parse_arguments(ARG "QT_CORE;QT_WIDGETS" "" "" ${ARGN})
  if(CCM_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${CCM_UNITY_BATCH_SIZE})
  endif()
  if(NOT CCM_PRECOMPILED_HEADERS)
    return()
  endif()
  set(headers ${CCM_PCH_STANDARD})
  if(ARG_QT_CORE OR ARG_QT_WIDGETS)
    list(APPEND headers ${CCM_PCH_QT_CORE})
  endif()
  if(ARG_QT_WIDGETS)
    list(APPEND headers ${CCM_PCH_QT_WIDGETS})
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
