// SPDX-License-Identifier: Apache-2.0
#include "base/c_handle.h"
#include "base/unique_fd.h"
#include "test_main.h"

#include <QTest>

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

using namespace ccm;

namespace {

bool isOpen(int fd)
{
    return ::fcntl(fd, F_GETFD) != -1;
}

bool isClosed(int fd)
{
    errno = 0;
    return ::fcntl(fd, F_GETFD) == -1 && errno == EBADF;
}

int openNull()
{
    return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

struct Counted {
    int id = 0;
};
int freedId = 0;
int freedCount = 0;
void freeCounted(Counted *object)
{
    freedId = object->id;
    ++freedCount;
    delete object;
}
int freeCountedReturning(Counted *object)
{
    freeCounted(object);
    return 0;
}

} // namespace

class TestUniqueFd : public QObject {
    Q_OBJECT

private slots:
    void closesOnDestruction()
    {
        const int fd = openNull();
        QVERIFY(fd >= 0);
        {
            const UniqueFd owned(fd);
            QCOMPARE(owned.get(), fd);
            QVERIFY(owned.valid());
            QVERIFY(isOpen(fd));
        }
        QVERIFY(isClosed(fd));
    }

    void emptyHoldsNone()
    {
        UniqueFd none;
        QCOMPARE(none.get(), -1);
        QVERIFY(!none);
        QCOMPARE(none.close(), 0);
        none.reset();
        QCOMPARE(none.get(), -1);
    }

    void releaseKeepsTheDescriptorOpen()
    {
        int fd = -1;
        {
            UniqueFd owned(openNull());
            fd = owned.release();
            QCOMPARE(owned.get(), -1);
        }
        QVERIFY(isOpen(fd));
        QCOMPARE(::close(fd), 0);
    }

    void resetClosesTheOldOne()
    {
        const int first = openNull();
        const int second = openNull();
        UniqueFd owned(first);
        owned.reset(second);
        QVERIFY(isClosed(first));
        QVERIFY(isOpen(second));
        QCOMPARE(owned.get(), second);
        owned.reset();
        QVERIFY(isClosed(second));
        QCOMPARE(owned.get(), -1);
    }

    void moveTransfersOwnership()
    {
        const int fd = openNull();
        UniqueFd from(fd);
        UniqueFd to(std::move(from));
        QCOMPARE(from.get(), -1); // NOLINT(bugprone-use-after-move): a moved-from one holds none
        QCOMPARE(to.get(), fd);

        const int other = openNull();
        UniqueFd assigned(other);
        assigned = std::move(to);
        QVERIFY(isClosed(other));
        QCOMPARE(assigned.get(), fd);
        QVERIFY(isOpen(fd));
        assigned = UniqueFd();
        QVERIFY(isClosed(fd));
    }

    void closeReportsFailure()
    {
        int pipeEnds[2];
        QCOMPARE(::pipe(pipeEnds), 0);
        UniqueFd reading(pipeEnds[0]);
        UniqueFd writing(pipeEnds[1]);
        QCOMPARE(reading.close(), 0);
        QVERIFY(isClosed(pipeEnds[0]));
        QCOMPARE(reading.get(), -1);
        // A descriptor closed behind the owner's back: close() reports EBADF and holds none after.
        QCOMPARE(::close(pipeEnds[1]), 0);
        QCOMPARE(writing.close(), EBADF);
        QCOMPARE(writing.get(), -1);
    }

    void cHandleFreesWithTheLibraryFunction()
    {
        freedCount = 0;
        {
            const CHandle<Counted, freeCounted> handle(new Counted {7});
            QCOMPARE(handle->id, 7);
            QCOMPARE(freedCount, 0);
        }
        QCOMPARE(freedCount, 1);
        QCOMPARE(freedId, 7);
        {
            const CHandle<Counted, freeCountedReturning> returning(new Counted {8});
            const CHandle<Counted, freeCounted> none;
        }
        QCOMPARE(freedCount, 2);
        QCOMPARE(freedId, 8);

        CHandle<Counted, freeCounted> released(new Counted {9});
        Counted *raw = released.release();
        released.reset();
        QCOMPARE(freedCount, 2);
        freeCounted(raw);
    }

    void cHandleWithAStandardFunction()
    {
        int fd = -1;
        {
            const CHandle<FILE, std::fclose> file(std::fopen("/dev/null", "re"));
            QVERIFY(file);
            fd = ::fileno(file.get());
            QVERIFY(isOpen(fd));
        }
        QVERIFY(isClosed(fd));
    }
};

CCM_TEST_APPLESS_MAIN(TestUniqueFd)
#include "tst_unique_fd.moc"
