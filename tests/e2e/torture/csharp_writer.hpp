#pragma once
// C# source text for the torture test's generated script classes and the types they share.

#include "world_model.hpp"

#include <string>

namespace scripthost::torture {

/// The file `Mood.cs`: the enum every class may use, with the members `types` gives it.
[[nodiscard]] std::string moodSource(const SharedTypes& types);

/// The file `Loadout.cs`: the [Serializable] record every class may hold, with its members.
[[nodiscard]] std::string loadoutSource(const SharedTypes& types);

/// The file `Beat.cs`: the interface every class implements, an event raised each frame.
[[nodiscard]] std::string beatSource();

/// The source file of one class: the fields its own code writes (`marker` by Update every
/// frame, `pulse` and `pulses` by the coroutine Pulse, `listeners`, `heard` and `statics`),
/// the two the test sets to subscribe (`peer`, `subscribe`), the declared fields with their
/// initialisers and attributes, and the class's current faults (a syntax error, a
/// constructor that throws).
[[nodiscard]] std::string classSource(const ClassSource& source);

} // namespace scripthost::torture
