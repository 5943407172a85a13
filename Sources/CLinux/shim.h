// Linux system calls glibc has no wrapper for (Swift cannot call the variadic `syscall`).
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#ifdef __linux__
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// `path` (relative) opened beneath the folder `dirfd`, never outside it: the kernel refuses
/// ".." and symbolic links that leave the folder (EXDEV) and /proc's magic links as it walks
/// (openat2 with RESOLVE_BENEATH, Linux 5.6). -1 with errno ENOSYS where the kernel, or a
/// seccomp filter, does not have it.
static inline int sg_open_beneath(int dirfd, const char *path, int flags) {
#if defined(__linux__) && defined(SYS_openat2)
    struct open_how how = {0};
    how.flags = (unsigned long long)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// O_PATH (glibc names it only for _GNU_SOURCE code): a descriptor that names a folder, to open beneath.
static inline int sg_o_path(void) {
#ifdef __O_PATH
    return __O_PATH;
#else
    return 0;
#endif
}

/// Up to `length` bytes from `in` to `out` at their offsets, copied by the kernel (shared
/// extents on Btrfs and XFS): -1 with errno EXDEV, ENOSYS, EINVAL or EOPNOTSUPP where it cannot.
static inline long sg_copy_file_range(int in, int out, size_t length) {
#if defined(__linux__) && defined(SYS_copy_file_range)
    return syscall(SYS_copy_file_range, in, NULL, out, NULL, length, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

/// `from` and `to` swapped (exchange: 1) or `from` renamed to `to` only when `to` does not exist
/// (exchange: 0, RENAME_NOREPLACE), each in one step (renameat2, Linux 3.15; ext4, xfs, btrfs
/// and tmpfs have both). -1 with errno EINVAL or ENOSYS where the file system or kernel does not.
static inline int sg_rename_swap(const char *from, const char *to, int exchange) {
#if defined(__linux__) && defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, exchange ? (1 << 1) : (1 << 0));
#else
    errno = ENOSYS;
    return -1;
#endif
}

static inline void sg_ignore_sigio(void) { signal(SIGIO, SIG_IGN); }

/// Whether a process has the file open at `fd` (opened read-only) for writing: 1 yes, 0 no, -1
/// when it cannot be told (not the file's owner and no CAP_LEASE, a file system without
/// leases). A read lease is taken and given back at once (F_SETLEASE refuses it while the file
/// is open for writing); a writer opening the file in that moment waits for it, and the SIGIO
/// its opening sends, which would end the process, is ignored from the first call on.
static inline int sg_open_for_writing(int fd) {
#ifdef __linux__
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, sg_ignore_sigio);
    const int setLease = 1024;  // F_SETLEASE (F_LINUX_SPECIFIC_BASE), named only for _GNU_SOURCE code
    if (fcntl(fd, setLease, F_RDLCK) == 0) {
        fcntl(fd, setLease, F_UNLCK);
        return 0;
    }
    return errno == EAGAIN ? 1 : -1;
#else
    return -1;
#endif
}
