// SPDX-License-Identifier: Apache-2.0
#include "cli.h"

#if defined(__GLIBC__) && !defined(CCM_WITH_MIMALLOC)
#include <malloc.h>
#endif

int main(int argc, char **argv)
{
#if defined(__GLIBC__) && !defined(CCM_WITH_MIMALLOC)
    // Without mimalloc (sanitizer builds): glibc raises its mmap threshold to the size of each
    // large block freed, so once the manifest's text and parse buffers are released, the next ones
    // of that size come from the heap, where they stay as its high-water mark. A fixed threshold
    // keeps blocks of 128 KiB and more mapped and returned on free.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    return ccm::cli::run(argc, argv);
}
