// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the bundle's writer and reader share (private to core/bundle): libarchive's handles as
// owners and the messages of its errors and the system's.

#include "base/c_handle.h"

#include <archive.h>
#include <archive_entry.h>
#include <string>
#include <system_error>

namespace ccm::bundle_io {

using Writer = CHandle<archive, archive_write_free>;
using Reader = CHandle<archive, archive_read_free>;
using EntryHeader = CHandle<archive_entry, archive_entry_free>;

/// The system's text for the errno value `error`.
inline std::string systemMessage(int error)
{
    return std::generic_category().message(error);
}

/// libarchive's message for the last error on `a`.
inline std::string archiveMessage(archive *a)
{
    const char *text = archive_error_string(a);
    return text ? text : "unknown libarchive error";
}

} // namespace ccm::bundle_io
