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

TEST_CASE("reload report: assemblies by folder: the text counts the assemblies kept as built, the "
          "JSON names them") {
    ReloadReport report;
    report.success = true;
    report.assembliesBuilt = {"Core"};
    CHECK(report.describe().find("assemblies built: Core") != std::string::npos);
    CHECK(report.describe().find("kept as built") == std::string::npos);
    CHECK(report.toJson()["assembliesKept"].empty());

    report.assembliesKept = {"LeafA", "LeafB"};
    CHECK(report.describe().find("assemblies built: Core; 2 kept as built (what they use of "
                                 "those is unchanged)") != std::string::npos);
    CHECK(report.toJson()["assembliesKept"] == nlohmann::json::array({"LeafA", "LeafB"}));
}
