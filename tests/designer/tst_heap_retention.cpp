// SPDX-License-Identifier: Apache-2.0
#include "designer/core/heap_retention.h"
#include "test_main.h"

#include <QTest>

#include <memory>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using ccm::designer::kRetainedHeapBytes;

namespace {

/// Whether malloc is glibc's own, not a sanitizer's replacement that ignores mallopt.
constexpr bool glibcAllocator()
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    return false;
#else
    return true;
#endif
#elif defined(__GLIBC__)
    return true;
#else
    return false;
#endif
}

} // namespace

class TestHeapRetention : public QObject {
    Q_OBJECT

private slots:
    void heapGrowsAndShrinksInLargeSteps()
    {
        if (!glibcAllocator())
            QSKIP("the allocator is not glibc's (a sanitizer's, or another C library's)");
#if defined(__GLIBC__)
        ccm::designer::retainFreedHeap();
        // Small blocks come from the heap, not from mappings of their own. The heap's first
        // extension after the call adds the retained amount at once.
        const std::size_t before = mallinfo2().arena;
        std::vector<std::unique_ptr<char[]>> blocks;
        while (mallinfo2().arena == before && blocks.size() < 1'000'000)
            blocks.emplace_back(std::make_unique<char[]>(1024));
        QVERIFY2(mallinfo2().arena >= before + kRetainedHeapBytes,
            qPrintable(QStringLiteral("the heap grew from %1 to %2 bytes").arg(before).arg(mallinfo2().arena)));

        // Freed, they stay in the process: the top of the heap kept for the next allocations.
        blocks.clear();
        blocks.shrink_to_fit();
        QVERIFY2(mallinfo2().keepcost >= kRetainedHeapBytes,
            qPrintable(QStringLiteral("%1 bytes kept at the top of the heap").arg(mallinfo2().keepcost)));
#endif
    }
};

CCM_TEST_APPLESS_MAIN(TestHeapRetention)
#include "tst_heap_retention.moc"
