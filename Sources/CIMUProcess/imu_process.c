#define _GNU_SOURCE
#include "imu_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int imu_process_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], int output_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int code = posix_spawn_file_actions_init(&actions);
    if (code != 0) return -code;
    code = posix_spawnattr_init(&attributes);
    if (code != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return -code;
    }
    if (code == 0) code = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (code == 0) code = posix_spawn_file_actions_adddup2(&actions, output_fd, 1);
    if (code == 0) code = posix_spawn_file_actions_adddup2(&actions, output_fd, 2);
    if (code == 0) code = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (code == 0) code = posix_spawn_file_actions_addchdir_np(&actions, "/");
    if (code == 0) code = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (code == 0) code = posix_spawnattr_setpgroup(&attributes, 0);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    const int reset[] = {SIGPIPE, SIGHUP, SIGINT, SIGTERM, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGCHLD};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++) sigaddset(&defaults, reset[i]);
    if (code == 0) code = posix_spawnattr_setsigmask(&attributes, &none);
    if (code == 0) code = posix_spawnattr_setsigdefault(&attributes, &defaults);
    if (code == 0) code = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return -code;
}

int imu_process_output_pipe(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) return -errno;
    int flags = fcntl(fds[0], F_GETFL);
    if (flags < 0 || fcntl(fds[0], F_SETFL, flags | O_NONBLOCK) != 0) {
        int error = errno;
        close(fds[0]);
        close(fds[1]);
        return -error;
    }
    return 0;
}

int imu_process_wake_fd(void) {
    int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return fd < 0 ? -errno : fd;
}

int imu_process_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -errno;
}

int imu_process_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    long fd = syscall(SYS_pidfd_open, pid, 0);
    return fd < 0 ? -errno : (int)fd;
#else
    (void)pid;
    return -ENOSYS;
#endif
}

int imu_process_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int lowest) {
    return -posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}
