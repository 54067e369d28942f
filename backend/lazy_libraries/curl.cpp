// SPDX-License-Identifier: Apache-2.0
// The libcurl functions the backend calls: http(s) bundle and data sources, archive downloads.
#include "lazy_libraries/lazy_library.h"

#include <cstdarg>
#include <curl/curl.h>

namespace ccm::lazy {
LazyLibrary libcurl(CCM_CURL_SONAME, "http(s) sources and archive downloads need");
}
using ccm::lazy::libcurl;

CCM_LAZY_FUNCTION(libcurl, CURLcode, curl_global_init, (long flags), (flags))
CCM_LAZY_FUNCTION(libcurl, CURL *, curl_easy_init, (), ())
CCM_LAZY_FUNCTION(libcurl, CURLcode, curl_easy_perform, (CURL * handle), (handle))
CCM_LAZY_FUNCTION(libcurl, void, curl_easy_cleanup, (CURL * handle), (handle))
CCM_LAZY_FUNCTION(libcurl, const char *, curl_easy_strerror, (CURLcode code), (code))
CCM_LAZY_FUNCTION(libcurl, curl_slist *, curl_slist_append, (curl_slist * list, const char *text), (list, text))
CCM_LAZY_FUNCTION(libcurl, void, curl_slist_free_all, (curl_slist * list), (list))

// The two variadic functions take exactly one further argument. Its type is told by the option:
// curl numbers options in ranges of 10,000 by the type of their argument, and every CURLINFO
// argument is a pointer to where the answer goes.
// The last named parameter is an enum, as curl declares it; clang warns that va_start after a
// parameter that undergoes promotion is undefined, but these enums are int-sized and passed as int.
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wvarargs"
#endif
CCM_LAZY_NEEDS(libcurl, curl_easy_setopt)
extern "C" CURLcode(curl_easy_setopt)(CURL *handle, CURLoption option, ...)
{
    static const auto real = libcurl.function<decltype(&::curl_easy_setopt)>("curl_easy_setopt");
    va_list arguments;
    va_start(arguments, option);
    CURLcode result;
    if (option < CURLOPTTYPE_OBJECTPOINT)
        result = real(handle, option, va_arg(arguments, long));
    else if (option < CURLOPTTYPE_FUNCTIONPOINT)
        result = real(handle, option, va_arg(arguments, void *));
    else if (option < CURLOPTTYPE_OFF_T)
        result = real(handle, option, va_arg(arguments, void (*)()));
    else if (option < CURLOPTTYPE_BLOB)
        result = real(handle, option, va_arg(arguments, curl_off_t));
    else
        result = real(handle, option, va_arg(arguments, void *));
    va_end(arguments);
    return result;
}

CCM_LAZY_NEEDS(libcurl, curl_easy_getinfo)
extern "C" CURLcode(curl_easy_getinfo)(CURL *handle, CURLINFO info, ...)
{
    static const auto real = libcurl.function<decltype(&::curl_easy_getinfo)>("curl_easy_getinfo");
    va_list arguments;
    va_start(arguments, info);
    const CURLcode result = real(handle, info, va_arg(arguments, void *));
    va_end(arguments);
    return result;
}
