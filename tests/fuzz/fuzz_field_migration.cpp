// Fuzzes migrateFields, the reload's rules for carrying a script's saved fields into its new
// class: the input's bytes are the choices that build a new class (fields, types, former
// names), the saved and the parked values (tests/host/model/field_migration_cases.hpp). Invariants:
// - no saved or parked value disappears: each is written, parked, named as displaced, or (a
//   parked one) replaced by a newer value parked under its name; a record that migrates
//   member by member does so for each member: written into the member that answers to its
//   name, parked on its own under its path ("d.x", "d[1].x"), or named as displaced, and a
//   value parked under a member path is written back where an "unparked" outcome says;
// - every write is to a field of the new class, once, in schema order, holding that field's
//   shape; every outcome is about this script and names a field that exists somewhere;
// - migrating is deterministic;
// - migrating to a new version of a class and back, where every retyped value converts there
//   and back exactly or is a record whose members were kept, renamed, removed or added (the
//   gained ones holding any value in between, as the new code's default), restores every
//   original value.

#include "../host/model/field_migration_cases.hpp"
#include "fuzz_check.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>

using namespace scripthost;
namespace cases = scripthost::migration_cases;

namespace {

/// The input as a stream of choices; past its end every choice is 0 (the first option), so
/// every input builds a finite case.
cases::Choose choicesFrom(const std::uint8_t* data, std::size_t size) {
    return [data, size, at = std::size_t{0}](std::size_t n) mutable -> std::size_t {
        if (at >= size)
            return 0;
        return data[at++] % n;
    };
}

void report(const std::optional<std::string>& problem) {
    if (problem)
        std::fprintf(stderr, "%s\n", problem->c_str());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const cases::Case c = cases::randomCase(choicesFrom(data, size));
    const FieldMigration m = cases::migrate(c);
    const auto lost = cases::lostValue(c, m);
    report(lost);
    FUZZ_CHECK(!lost, "no saved or parked value disappears");
    const auto broken = cases::brokenInvariant(c, m);
    report(broken);
    FUZZ_CHECK(!broken, "writes fit the new class, outcomes name real fields");
    FUZZ_CHECK(cases::sameMigration(m, cases::migrate(c)), "migrating is deterministic");

    const cases::Choose again = choicesFrom(data, size);
    const cases::RoundTrip r = cases::randomRoundTrip(again);
    const auto loss = cases::roundTripLoss(r, again);
    report(loss);
    FUZZ_CHECK(!loss, "there and back with exact conversions restores every value");
    return 0;
}
