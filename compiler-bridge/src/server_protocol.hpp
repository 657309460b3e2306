#pragma once
// The compile server's line protocol (see server/CompileServer.cs for the full description):
// encoding requests and classifying response lines. Pure functions, unit-tested.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scripthost::compiler::protocol {

/// Version the server announces in its READY line; a mismatch means the wrong server exe.
inline constexpr int version = 4;

/// Escapes '\\', '\n' and '\r' so any text fits on one protocol line.
[[nodiscard]] std::string escape(std::string_view text);

/// Reverses escape().
[[nodiscard]] std::string unescape(std::string_view text);

/// "BUILD <id> <argc>\n", the escaped working folder, then one escaped argument per line.
/// Without `prepareNext`, "BUILD <id> <argc> keep": the server does not take this build as the
/// one to prepare the next for (CompileRequest::prepareNext).
[[nodiscard]] std::string encodeBuild(std::uint64_t id, std::string_view workingFolder,
                                      const std::vector<std::string>& args,
                                      bool prepareNext = true);

/// "SETTLE <id>\n": do the between-builds work now and say whether the next build's
/// references are imported.
[[nodiscard]] std::string encodeSettle(std::uint64_t id);

/// "INTERFACE <id>\n" and the escaped path of a built assembly: the hash of what other
/// assemblies can see of it (server/AssemblyInterface.cs).
[[nodiscard]] std::string encodeInterface(std::uint64_t id, std::string_view assembly);

/// One line the server wrote, classified.
struct ServerLine {
    enum class Kind {
        Ready,     ///< READY <version> <mcs>: start-up finished; `status` holds the version
        Output,    ///< "| text": one line of compiler output; `text` is unescaped
        End,       ///< END <id> <status> <ms> <prepared|imported>: request `id` is complete
        Pong,      ///< PONG <id>
        Settled,   ///< SETTLED <id> <prepared|none>: the answer to SETTLE
        Interface, ///< INTERFACE <id> <hash|->: `text` is the hash, empty for "-"
        Fatal,     ///< FATAL <message>: the server gave up; `text` is the message
        Garbage,   ///< anything else: the stream cannot be trusted any more
    };
    Kind kind = Kind::Garbage;
    std::string text;
    std::uint64_t id = 0;
    int status = 0;
    /// End: the build used references imported before it was asked for.
    /// Settled: the next build's references are imported.
    bool referencesPrepared = false;
};

/// Classifies one line (without its '\n').
[[nodiscard]] ServerLine parseLine(std::string_view line);

} // namespace scripthost::compiler::protocol
