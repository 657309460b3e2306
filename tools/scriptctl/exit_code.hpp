#pragma once
// scriptctl's exit codes (also in --help).

namespace scriptctl {

enum ExitCode : int {
    kExitOk = 0,
    kExitErrorReply = 1, ///< the host answered with an error
    kExitUsage = 2,      ///< bad command line
    kExitNoHost = 3,     ///< cannot connect, timeout, connection lost
};

} // namespace scriptctl
