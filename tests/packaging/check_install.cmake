# SPDX-License-Identifier: Apache-2.0
# Installs the build into a fresh prefix and checks that the system backend's units, the groups
# file, the manual page, the bash completion and the documentation land where systemd,
# systemd-sysusers, man, bash and users look for them.
# Run as: cmake -DBUILD_DIR=<build> -DPREFIX=<empty dir> -P check_install.cmake
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${status}")
endif()
foreach(expected
    bin/ccm-backend
    lib/systemd/system/ccm-backend.socket
    lib/systemd/system/ccm-backend.service
    lib/systemd/system/ccm-agent.service
    lib/sysusers.d/ccm-designer.conf
    share/doc/ccm-backend/protocol.md
    share/doc/ccm-backend/agent.md
    share/doc/ccm-backend/copyright
    share/doc/ccm-backend/examples/webserver.yaml
    share/man/man1/ccm-backend.1.gz
    share/bash-completion/completions/ccm-backend)
  if(NOT EXISTS ${PREFIX}/${expected})
    message(FATAL_ERROR "the install is missing ${expected}")
  endif()
endforeach()
file(STRINGS ${PREFIX}/lib/systemd/system/ccm-backend.service exec_start REGEX "^ExecStart=")
if(NOT exec_start MATCHES "^ExecStart=/.*/ccm-backend serve$")
  message(FATAL_ERROR "the installed service starts '${exec_start}', not an absolute ccm-backend serve")
endif()
file(STRINGS ${PREFIX}/lib/systemd/system/ccm-agent.service agent_start REGEX "^ExecStart=")
if(NOT agent_start MATCHES "^ExecStart=/.*/ccm-backend agent --config /etc/choria/ccm/agent.yaml$")
  message(FATAL_ERROR "the installed agent service starts '${agent_start}', not an absolute ccm-backend agent")
endif()
file(REMOVE_RECURSE ${PREFIX})
