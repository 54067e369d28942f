// SPDX-License-Identifier: Apache-2.0
// The libmicrohttpd functions the agent's /metrics endpoint calls.
#include "lazy_libraries/lazy_library.h"

#include <cstdarg>
#include <cstdint>
#include <microhttpd.h>

namespace ccm::lazy {
LazyLibrary libmicrohttpd(CCM_MICROHTTPD_SONAME, "the agent's metrics endpoint needs");
}
using ccm::lazy::libmicrohttpd;

CCM_LAZY_FUNCTION(libmicrohttpd, void, MHD_stop_daemon, (MHD_Daemon * daemon), (daemon))
CCM_LAZY_FUNCTION(libmicrohttpd, MHD_Response *, MHD_create_response_from_buffer,
    (size_t size, void *buffer, MHD_ResponseMemoryMode mode), (size, buffer, mode))
CCM_LAZY_FUNCTION(libmicrohttpd, MHD_Result, MHD_add_response_header,
    (MHD_Response * response, const char *header, const char *content), (response, header, content))
CCM_LAZY_FUNCTION(libmicrohttpd, MHD_Result, MHD_queue_response,
    (MHD_Connection * connection, unsigned int status, MHD_Response *response), (connection, status, response))
CCM_LAZY_FUNCTION(libmicrohttpd, void, MHD_destroy_response, (MHD_Response * response), (response))

// Variadic in the header, but libmicrohttpd reads no further argument for any type of info.
CCM_LAZY_NEEDS(libmicrohttpd, MHD_get_connection_info)
extern "C" const MHD_ConnectionInfo *(
    MHD_get_connection_info)(MHD_Connection *connection, MHD_ConnectionInfoType type, ...)
{
    static const auto real = libmicrohttpd.function<decltype(&::MHD_get_connection_info)>("MHD_get_connection_info");
    return real(connection, type);
}

// The options after the handler are a variadic list; the library takes them as a va_list too.
CCM_LAZY_NEEDS(libmicrohttpd, MHD_start_daemon_va)
extern "C" MHD_Daemon *(MHD_start_daemon)(unsigned int flags, std::uint16_t port, MHD_AcceptPolicyCallback accept,
    void *acceptClosure, MHD_AccessHandlerCallback handler, void *handlerClosure, ...)
{
    static const auto real = libmicrohttpd.function<decltype(&::MHD_start_daemon_va)>("MHD_start_daemon_va");
    va_list options;
    va_start(options, handlerClosure);
    MHD_Daemon *daemon = real(flags, port, accept, acceptClosure, handler, handlerClosure, options);
    va_end(options);
    return daemon;
}
