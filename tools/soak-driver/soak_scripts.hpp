#pragma once
// The C# the soak writes into its copy of the demo's scripts: a keeper whose values the soak
// models, in every shape an edit can take, and a script that keeps Mono's other threads busy.

#include <string>

namespace soak {

/// How the next SoakKeeper.cs reads.
enum class KeeperShape {
    Good,             ///< compiles; Update writes `version` into `live`
    SyntaxError,      ///< a missing semicolon: the build fails, the old code runs on
    ThrowingCtor,     ///< compiles; its constructor throws: the reload rolls back
};

/// SoakKeeper.cs: [SerializeField] int a, b, c; string note; int live (= version each frame).
[[nodiscard]] std::string keeperSource(int version, KeeperShape shape);

/// SoakChurn.cs: on its generation's first frame a thread that allocates, a 10 ms timer; every
/// frame a busy thread-pool work item; every 30 frames an object whose finalizer throws.
[[nodiscard]] std::string churnSource();

} // namespace soak
