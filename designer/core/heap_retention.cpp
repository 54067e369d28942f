// SPDX-License-Identifier: Apache-2.0
#include "designer/core/heap_retention.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ccm::designer {

void retainFreedHeap()
{
#if defined(__GLIBC__)
    // M_TOP_PAD is both the padding of every heap extension and what a trim keeps; setting it
    // also fixes the mmap threshold at its default, so large blocks still go to their own
    // mappings and are returned whole when freed.
    mallopt(M_TOP_PAD, static_cast<int>(kRetainedHeapBytes));
#endif
}

} // namespace ccm::designer
