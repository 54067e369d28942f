# SPDX-License-Identifier: Apache-2.0
# Validates the desktop file and the AppStream metainfo, and checks that the latest release of the
# metainfo and of the Debian changelog is the project's version.
# Run as: cmake -DSOURCE_DIR=<source> -DVERSION=<project version> -P check_metadata.cmake
set(desktop ${SOURCE_DIR}/packaging/linux/io.choria.CcmDesigner.desktop)
set(metainfo ${SOURCE_DIR}/packaging/linux/io.choria.CcmDesigner.metainfo.xml)
execute_process(COMMAND desktop-file-validate ${desktop} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0 OR NOT out STREQUAL "")
  message(FATAL_ERROR "desktop-file-validate ${desktop}:\n${out}")
endif()
execute_process(COMMAND appstreamcli validate --no-net ${metainfo} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "appstreamcli validate --no-net ${metainfo}:\n${out}")
endif()

file(READ ${metainfo} xml)
if(NOT xml MATCHES "<release version=\"([^\"]+)\"")
  message(FATAL_ERROR "the metainfo lists no release")
endif()
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
  message(FATAL_ERROR "the metainfo's latest release is ${CMAKE_MATCH_1}, the project's version ${VERSION}")
endif()
file(STRINGS ${SOURCE_DIR}/packaging/debian/changelog first_line LIMIT_COUNT 1)
if(NOT first_line MATCHES "^ccm-designer \\(${VERSION}\\) ")
  message(FATAL_ERROR "packaging/debian/changelog starts with '${first_line}', not version ${VERSION}")
endif()
