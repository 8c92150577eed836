// The few Linux process calls the command supervisor needs that Swift's Glibc module does not
// import (GNU extensions and variadic functions): a spawn into a new process group with every
// other descriptor closed, close-on-exec pipes, an eventfd, and the child-subreaper flag.
//
// Conventions: 0 (or a descriptor) on success, a negative errno on failure.
#ifndef IMU_PROCESS_H
#define IMU_PROCESS_H

#include <spawn.h>
#include <sys/types.h>

/// posix_spawn of `path` (absolute) with `argv` and exactly `envp`: stdin /dev/null, stdout and
/// stderr onto `output_fd`, every descriptor from 3 up closed, working directory /, a process
/// group of its own (POSIX_SPAWN_SETPGROUP), no blocked signals, and the signals a daemon may
/// ignore or catch (PIPE, HUP, INT, TERM, QUIT, USR1, USR2, ALRM, CHLD) at their defaults.
int imu_process_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], int output_fd);

/// pipe2(O_CLOEXEC), the read end non-blocking: fds[0] read, fds[1] write.
int imu_process_output_pipe(int fds[2]);

/// An eventfd (close-on-exec, non-blocking) to wake a poll(2).
int imu_process_wake_fd(void);

/// pidfd_open(2) (Linux 5.3): a descriptor that polls readable when `pid` exits, so the exit is
/// seen at once rather than at the next tick.
int imu_process_pidfd_open(pid_t pid);

/// PR_SET_CHILD_SUBREAPER: orphans of our children's process trees become our children.
int imu_process_become_subreaper(void);

/// posix_spawn_file_actions_addclosefrom_np (glibc 2.34): the child closes every descriptor from
/// `lowest` up before it runs the program, for spawners other than `imu_process_spawn` (the tests'
/// helpers), whose children must not keep a server's accepted socket open after it closed it.
int imu_process_spawn_actions_close_from(posix_spawn_file_actions_t *actions, int lowest);

#endif
