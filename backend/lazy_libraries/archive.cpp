// SPDX-License-Identifier: Apache-2.0
// The libarchive functions the backend calls: bundles, and the archive resource's extraction.
#include "lazy_libraries/lazy_library.h"

#include <archive.h>
#include <archive_entry.h>

namespace ccm::lazy {
LazyLibrary libarchive(CCM_ARCHIVE_SONAME, "bundles and archive resources need");
}
using ccm::lazy::libarchive;

#define CCM_ARCHIVE_FUNCTION(result, name, parameters, arguments)                                                    \
    CCM_LAZY_FUNCTION(libarchive, result, name, parameters, arguments)

// Reading
CCM_ARCHIVE_FUNCTION(archive *, archive_read_new, (), ())
CCM_ARCHIVE_FUNCTION(int, archive_read_free, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_read_support_filter_gzip, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_read_support_filter_none, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_read_support_format_gnutar, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_read_support_format_tar, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_read_support_format_zip, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_read_open_filename, (archive * a, const char *file, size_t block), (a, file, block))
CCM_ARCHIVE_FUNCTION(int, archive_read_next_header, (archive * a, archive_entry **entry), (a, entry))
CCM_ARCHIVE_FUNCTION(la_ssize_t, archive_read_data, (archive * a, void *buffer, size_t size), (a, buffer, size))
CCM_ARCHIVE_FUNCTION(int, archive_read_data_block,
    (archive * a, const void **buffer, size_t *size, la_int64_t *offset), (a, buffer, size, offset))
CCM_ARCHIVE_FUNCTION(const char *, archive_error_string, (archive * a), (a))

// Writing archives and extracting to disk
CCM_ARCHIVE_FUNCTION(archive *, archive_write_new, (), ())
CCM_ARCHIVE_FUNCTION(archive *, archive_write_disk_new, (), ())
CCM_ARCHIVE_FUNCTION(int, archive_write_free, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_write_close, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_write_add_filter_gzip, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_write_set_filter_option,
    (archive * a, const char *module, const char *option, const char *value), (a, module, option, value))
CCM_ARCHIVE_FUNCTION(int, archive_write_set_format_pax_restricted, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_write_open_fd, (archive * a, int fd), (a, fd))
CCM_ARCHIVE_FUNCTION(int, archive_write_disk_set_options, (archive * a, int flags), (a, flags))
CCM_ARCHIVE_FUNCTION(int, archive_write_disk_set_standard_lookup, (archive * a), (a))
CCM_ARCHIVE_FUNCTION(int, archive_write_header, (archive * a, archive_entry *entry), (a, entry))
CCM_ARCHIVE_FUNCTION(la_ssize_t, archive_write_data, (archive * a, const void *data, size_t size), (a, data, size))
CCM_ARCHIVE_FUNCTION(la_ssize_t, archive_write_data_block,
    (archive * a, const void *data, size_t size, la_int64_t offset), (a, data, size, offset))
CCM_ARCHIVE_FUNCTION(int, archive_write_finish_entry, (archive * a), (a))

// Entries
CCM_ARCHIVE_FUNCTION(archive_entry *, archive_entry_new, (), ())
CCM_ARCHIVE_FUNCTION(void, archive_entry_free, (archive_entry * entry), (entry))
CCM_ARCHIVE_FUNCTION(const char *, archive_entry_pathname, (archive_entry * entry), (entry))
CCM_ARCHIVE_FUNCTION(const char *, archive_entry_hardlink, (archive_entry * entry), (entry))
CCM_ARCHIVE_FUNCTION(const char *, archive_entry_symlink, (archive_entry * entry), (entry))
CCM_ARCHIVE_FUNCTION(__LA_MODE_T, archive_entry_filetype, (archive_entry * entry), (entry))
CCM_ARCHIVE_FUNCTION(__LA_MODE_T, archive_entry_perm, (archive_entry * entry), (entry))
CCM_ARCHIVE_FUNCTION(void, archive_entry_copy_pathname, (archive_entry * entry, const char *path), (entry, path))
CCM_ARCHIVE_FUNCTION(void, archive_entry_copy_hardlink, (archive_entry * entry, const char *path), (entry, path))
CCM_ARCHIVE_FUNCTION(void, archive_entry_set_pathname, (archive_entry * entry, const char *path), (entry, path))
CCM_ARCHIVE_FUNCTION(void, archive_entry_set_filetype, (archive_entry * entry, unsigned int type), (entry, type))
CCM_ARCHIVE_FUNCTION(void, archive_entry_set_perm, (archive_entry * entry, __LA_MODE_T mode), (entry, mode))
CCM_ARCHIVE_FUNCTION(void, archive_entry_set_size, (archive_entry * entry, la_int64_t size), (entry, size))
CCM_ARCHIVE_FUNCTION(void, archive_entry_set_uid, (archive_entry * entry, la_int64_t uid), (entry, uid))
CCM_ARCHIVE_FUNCTION(void, archive_entry_set_gid, (archive_entry * entry, la_int64_t gid), (entry, gid))
CCM_ARCHIVE_FUNCTION(void, archive_entry_set_mtime, (archive_entry * entry, time_t seconds, long nanoseconds),
    (entry, seconds, nanoseconds))
