# SPDX-License-Identifier: Apache-2.0
# Warning flags every project target gets; CI turns them into errors with CCM_WERROR.
function(ccm_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow)
  if(CCM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
    # A precompiled header GCC cannot use is reported, and the unit compiled without it.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      target_compile_options(${target} PRIVATE -Wno-error=invalid-pch)
    endif()
  endif()
endfunction()
