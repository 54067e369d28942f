// SPDX-License-Identifier: Apache-2.0
#include "app/cli.h"

#if defined(CCM_WITH_MIMALLOC)
#include <mimalloc.h>
#elif defined(__GLIBC__)
#include <malloc.h>
#endif

int main(int argc, char **argv)
{
#if defined(CCM_WITH_MIMALLOC)
    // mimalloc holds freed pages for a while before giving them back. A run frees the structures of
    // parsing and checking the manifest just as it builds those of resolving and running it, so
    // with mimalloc's default the peak held both: 41 MiB at 10,000 files, 35.5 MiB with 2 ms, for a
    // few percent more time (docs/performance.md). MIMALLOC_DECOMMIT_DELAY still overrides it.
    mi_option_set_default(mi_option_decommit_delay, 2);
#elif defined(__GLIBC__)
    // Without mimalloc (sanitizer builds): glibc raises its mmap threshold to the size of each
    // large block freed, so once the manifest's text and parse buffers are released, the next ones
    // of that size come from the heap, where they stay as its high-water mark. A fixed threshold
    // keeps blocks of 128 KiB and more mapped and returned on free.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
    return ccm::cli::run(argc, argv);
}
