#include "new_project.hpp"

#include "config_file.hpp"
#include "editor_projects.hpp"
#include "project_template.hpp"
#include "script_project.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>

namespace scripthost {

namespace fs = std::filesystem;

namespace {

/// Refuses a path that is a file, or a folder with something in it (unless `force`).
Result<void> checkFolder(const fs::path& folder, bool force) {
    std::error_code ec;
    const fs::file_status status = fs::status(folder, ec);
    if (!fs::exists(status))
        return {};
    if (!fs::is_directory(status))
        return fail(folder.string() + " exists and is not a folder");
    if (force)
        return {};
    const bool empty = fs::is_empty(folder, ec);
    if (ec)
        return fail("cannot read " + folder.string() + ": " + ec.message());
    if (!empty)
        return fail(folder.string() +
                    " is not empty; nothing was written (use --force to write the project's "
                    "files into it anyway, replacing files of the same names)");
    return {};
}

Result<void> writeFile(const fs::path& path, const std::string& text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
        return fail("cannot create " + path.parent_path().string() + ": " + ec.message());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out)
        return fail("cannot write " + path.string());
    return {};
}

} // namespace

CLI::App* addNewCommand(CLI::App& app, NewProjectOptions& options) {
    CLI::App* command = app.add_subcommand(
        "new", "Create a project folder: an example script and its assembly definition, a scene, "
               "scripthost.toml, editor projects (.csproj, .sln) for completion and a VS Code "
               "debugger configuration");
    command->add_option("DIR", options.folder, "The project folder (created when missing)")
        ->required()
        ->type_name(kPathOption);
    command->add_flag("--force", options.force,
                      "Write into a folder that is not empty (files of the same names are "
                      "replaced)");
    command
        ->add_option("--scriptcore", options.scriptCore,
                     "ScriptCore.dll for the editor projects (default: the one beside scripthost)")
        ->type_name(kPathOption);
    return command;
}

Result<CreatedProject> createProject(const NewProjectOptions& options) {
    std::error_code ec;
    const fs::path folder = fs::weakly_canonical(fs::absolute(options.folder), ec);
    if (ec)
        return fail("cannot use " + options.folder.string() + ": " + ec.message());
    if (auto usable = checkFolder(folder, options.force); !usable)
        return std::unexpected(usable.error());
    auto scriptCore = ScriptProject::findScriptCore(options.scriptCore);
    if (!scriptCore)
        return std::unexpected(scriptCore.error());
    const fs::path scriptCorePath = fs::canonical(*scriptCore, ec);
    if (ec)
        return fail("cannot resolve " + scriptCore->string() + ": " + ec.message());

    CreatedProject created{folder, {}};
    const std::string name = namespaceFromFolderName(folder.filename().string());
    for (const ProjectFile& file : projectTemplate(name)) {
        if (auto done = writeFile(folder / file.path, file.text); !done)
            return std::unexpected(done.error());
        created.files.push_back(file.path);
    }
    // The editor projects follow the assembly definitions (one .csproj per assembly and a
    // .sln): `scripthost run` keeps them so as the definitions change.
    auto layout = compiler::readAssemblyLayout({folder / "scripts"});
    if (!layout)
        return std::unexpected(layout.error());
    for (const ProjectFile& file : editorProjects(*layout, folder, name, scriptCorePath)) {
        if (auto done = writeFile(folder / file.path, file.text); !done)
            return std::unexpected(done.error());
        created.files.push_back(file.path);
    }
    return created;
}

int runNewProject(const NewProjectOptions& options) {
    auto created = createProject(options);
    if (!created) {
        std::fprintf(stderr, "scripthost new: %s\n", created.error().message.c_str());
        return 1;
    }
    const fs::path& folder = created->folder;
    std::printf("Created a project in %s:\n", folder.c_str());
    for (const fs::path& file : created->files)
        std::printf("  %s\n", file.c_str());
    std::printf("Run it:        cd %s && scripthost run\n"
                "Edit it:       open the folder in VS Code (C# Dev Kit or OmniSharp)\n"
                "Debug it:      scripthost run --debug %d, then \"Attach to scripthost\"\n",
                folder.c_str(), kDebuggerPort);
    return 0;
}

} // namespace scripthost
