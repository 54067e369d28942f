# SPDX-License-Identifier: Apache-2.0
# The program must not name the libraries it opens on first use (backend/lazy_libraries) among the
# ones the dynamic loader loads at start; that they still work when used is what the bundle, http
# source, archive, metrics and fleet tests show.
#   cmake -DPROGRAM=... -DOBJDUMP=... -DSONAMES="a;b;c" -P check_lazy_libraries.cmake
execute_process(COMMAND ${OBJDUMP} -p ${PROGRAM} OUTPUT_VARIABLE dump RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cannot read the dynamic section of ${PROGRAM}")
endif()
string(REGEX MATCHALL "NEEDED +[^ \n]+" needed "${dump}")
list(LENGTH needed count)
if(count EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} names no libraries at all; is it the dynamically linked program?")
endif()
foreach(soname IN LISTS SONAMES)
  if(dump MATCHES "NEEDED +${soname}\n")
    message(FATAL_ERROR "${PROGRAM} loads ${soname} at start; it should open it on first use")
  endif()
endforeach()
message(STATUS "${PROGRAM}: ${count} libraries at start, none of ${SONAMES}")
