#pragma once
// C# source text for the torture test's generated script classes.

#include "world_model.hpp"

#include <string>

namespace scripthost::torture {

/// The file `Mood.cs`: the enum every class may use (never edited).
[[nodiscard]] std::string moodSource();

/// The source file of one class: `marker` (written by Update every frame), a counter that
/// is not serialised, the declared fields with their initialisers and attributes, and the
/// class's current faults (a syntax error, a constructor that throws).
[[nodiscard]] std::string classSource(const ClassSource& source);

} // namespace scripthost::torture
