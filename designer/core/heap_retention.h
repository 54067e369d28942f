// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>

namespace ccm::designer {

/// How much freed heap the designer keeps instead of handing it back to the kernel.
inline constexpr std::size_t kRetainedHeapBytes = std::size_t {64} << 20;

/// Keeps up to kRetainedHeapBytes of freed heap in the process, and grows the heap in steps of
/// that size. An open, reload or undo of a large manifest frees and allocates again tens of MiB
/// (the text view's blocks, the model, the flattened resources): by default glibc returns the
/// freed top of the heap to the kernel once 128 KiB of it are free, so the next such change
/// faults every page in again, and grows the heap 128 KiB at a time, each step a system call
/// that stalls the thread that analyses the text meanwhile. Called once, before the first
/// window; does nothing where the C library is not glibc.
void retainFreedHeap();

} // namespace ccm::designer
