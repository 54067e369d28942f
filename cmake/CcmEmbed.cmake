# SPDX-License-Identifier: Apache-2.0
# ccm_embed_files(OUTPUT <file.cpp> NAMESPACE <ns> FUNCTION <name> BASE_DIR <dir> FILES <f>...)
#
# Generates a C++ source defining
#   std::optional<std::string_view> <ns>::<name>(std::string_view relativePath);
#   std::span<const std::string_view> <ns>::<name>Names();
# that returns the contents of each file, so Qt-free binaries carry their data without an install
# path. The file is regenerated whenever an embedded file changes.
function(ccm_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT;NAMESPACE;FUNCTION;BASE_DIR" "FILES" ${ARGN})
  set(script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CcmEmbedGenerate.cmake")
  add_custom_command(
    OUTPUT "${ARG_OUTPUT}"
    COMMAND "${CMAKE_COMMAND}" -DOUTPUT=${ARG_OUTPUT} -DNAMESPACE=${ARG_NAMESPACE}
            -DFUNCTION=${ARG_FUNCTION} -DBASE_DIR=${ARG_BASE_DIR} "-DFILES=${ARG_FILES}"
            -P "${script}"
    DEPENDS ${ARG_FILES} "${script}"
    COMMENT "Embedding ${ARG_FUNCTION} data"
    VERBATIM)
endfunction()
