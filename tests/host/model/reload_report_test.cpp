// ReloadReport's text and JSON: what a developer reads in the log and a client in the report.
#include "host/model/reload_report.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

using namespace scripthost;

TEST_CASE("reload report: a build from references imported ahead says so in its text and JSON") {
    ReloadReport report;
    report.success = true;
    report.sequence = 4;
    report.fromGeneration = 3;
    report.toGeneration = 4;
    report.buildMs = 12.5;
    CHECK(report.describe().find("build 12.5 ms, main thread") != std::string::npos);
    CHECK(report.describe().find("imported ahead") == std::string::npos);
    CHECK(report.toJson()["referencesImportedAhead"] == false);

    report.referencesImportedAhead = true;
    CHECK(report.describe().find("build 12.5 ms (references imported ahead), main thread") !=
          std::string::npos);
    CHECK(report.toJson()["referencesImportedAhead"] == true);
}
