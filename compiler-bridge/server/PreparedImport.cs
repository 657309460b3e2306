// PreparedImport: one build's referenced assemblies, read and imported by mcs before the
// build was asked for, so the build itself only parses, resolves, emits and writes.
//
// Why: in a warm build, mcs spends most of its time reading its references through
// IKVM.Reflection and creating a TypeSpec for every type in them (~20 ms with mscorlib and
// ScriptCore; compiler-bridge/README.md, "Where a warm build's time goes"). That work depends
// only on the arguments, not on the sources' text, so the server does it while it waits for
// the next save, with the arguments of the last build.
//
// How: CompilerCallableEntryPoint.InvokeCompiler is mcs's only public entry point; it runs
// Driver.Compile, whose steps are internal. This class runs those steps through reflection,
// split in two: Prepare() does everything Driver.Compile does before parsing that does not
// need the parsed sources (settings, module, importer, loader, the assembly builder, reading
// and importing the references), Build() then parses into that module and runs the rest in
// Driver.Compile's order. Driver.Compile parses and creates the compiled types before it
// imports; the output of the other order is byte-for-byte the same (tested), except in two
// cases: a script type with the full name of a referenced type (mcs's parser cannot take it
// in this order), and an assembly attribute that signs the assembly (mcs reads those when it
// creates the assembly builder, before parsing here). Those builds throw Unsuitable and go
// through InvokeCompiler, and the server stops preparing for those arguments.
//
// When it is used: only for a request whose arguments are exactly the prepared ones apart
// from -out: (same sources, references, defines, working folder), and only while every
// assembly that was read still has the length and modification time it had, older than the
// start of the preparation. The output is written to a scratch folder under the prepared
// file name and copied to the requested -out: afterwards. Anything else (a mismatch, a
// reference rebuilt since, a step that throws, a failed build, an mcs whose internals are
// not the ones bound here) goes through InvokeCompiler as before, so a diagnostic is always
// mcs's own.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;

sealed class PreparedImport : IDisposable
{
    // mcs's internal types and members this class calls, bound once per process.
    sealed class McsSteps
    {
        const BindingFlags Any = BindingFlags.Public | BindingFlags.NonPublic |
                                 BindingFlags.Instance | BindingFlags.Static;
        readonly Assembly mcs;

        public ConstructorInfo NewCommandLineParser, NewCompilerContext, NewStreamReportPrinter,
            NewDriver, NewTimeReporter, NewModuleContainer, NewStaticImporter, NewStaticLoader,
            NewAssemblyDefinitionStatic;
        public MethodInfo ParseArguments, SetTimeReporter, SetToplevelTypes, GetDomain,
            CreateAssembly, CreateContainer, AddCompiledAssembly, SetCompiledAssembly,
            LoadReferences, GetBuiltinTypes, CheckDefinitions, GetGlobalRootNamespace,
            LoadModules, Parse, GetReport, GetErrors, InitializePredefinedTypes, Define,
            Resolve, Emit, CloseContainer, EmbedResources, Save, DisposeLoader, GetAssemblies,
            GetLocation;
        public Type AssemblyBuilder;
        public MethodInfo GetOptAttributes, GetAttributeName;
        public FieldInfo Attrs, ExplicitTarget;
        public FieldInfo OutputFile, DocumentationFile, GetResourceStrings, TokenizeOnly,
            ParseOnly, Timestamps, WriteMetadataOnly;

        public McsSteps(Assembly mcs)
        {
            this.mcs = mcs;
            var settings = Type("Mono.CSharp.CompilerSettings");
            var context = Type("Mono.CSharp.CompilerContext");
            var module = Type("Mono.CSharp.ModuleContainer");
            var typeContainer = Type("Mono.CSharp.TypeContainer");
            var loader = Type("Mono.CSharp.StaticLoader");
            var importer = Type("Mono.CSharp.StaticImporter");
            var assembly = Type("Mono.CSharp.AssemblyDefinitionStatic");
            var report = Type("Mono.CSharp.Report");
            var universe = Type("IKVM.Reflection.Universe");
            var driver = Type("Mono.CSharp.Driver");

            NewCommandLineParser = Ctor("Mono.CSharp.CommandLineParser", typeof(TextWriter));
            NewStreamReportPrinter = Ctor("Mono.CSharp.StreamReportPrinter", typeof(TextWriter));
            NewCompilerContext = Ctor(context, settings, Type("Mono.CSharp.ReportPrinter"));
            NewDriver = Ctor(driver, context);
            NewTimeReporter = Ctor("Mono.CSharp.TimeReporter", typeof(bool));
            NewModuleContainer = Ctor(module, context);
            NewStaticImporter = Ctor(importer, module);
            NewStaticLoader = Ctor(loader, importer, context);
            NewAssemblyDefinitionStatic = Ctor(assembly, module, loader, typeof(string), typeof(string));

            ParseArguments = Method("Mono.CSharp.CommandLineParser", "ParseArguments", typeof(string[]));
            SetTimeReporter = Method(context, "set_TimeReporter", Type("Mono.CSharp.TimeReporter"));
            SetToplevelTypes = Method("Mono.CSharp.RootContext", "set_ToplevelTypes", module);
            GetDomain = Method(loader, "get_Domain");
            CreateAssembly = Method(assembly, "Create", universe);
            CreateContainer = Method(typeContainer, "CreateContainer");
            AddCompiledAssembly = Method(importer, "AddCompiledAssembly", assembly);
            SetCompiledAssembly = Method(loader, "set_CompiledAssembly", assembly);
            LoadReferences = Method(loader, "LoadReferences", module);
            GetBuiltinTypes = Method(context, "get_BuiltinTypes");
            CheckDefinitions = Method("Mono.CSharp.BuiltinTypes", "CheckDefinitions", module);
            GetGlobalRootNamespace = Method(module, "get_GlobalRootNamespace");
            LoadModules = Method(loader, "LoadModules", assembly, Type("Mono.CSharp.RootNamespace"));
            Parse = Method(driver, "Parse", module);
            GetReport = Method(context, "get_Report");
            GetErrors = Method(report, "get_Errors");
            InitializePredefinedTypes = Method(module, "InitializePredefinedTypes");
            Define = Method(module, "Define");
            Resolve = Method(assembly, "Resolve");
            Emit = Method(assembly, "Emit");
            CloseContainer = Method(module, "CloseContainer");
            EmbedResources = Method(assembly, "EmbedResources");
            Save = Method(assembly, "Save");
            DisposeLoader = Method(loader, "Dispose");
            GetAssemblies = Method(universe, "GetAssemblies");
            GetLocation = Method("IKVM.Reflection.Assembly", "get_Location");
            AssemblyBuilder = Type("IKVM.Reflection.Emit.AssemblyBuilder");
            GetOptAttributes = Method("Mono.CSharp.Attributable", "get_OptAttributes");
            GetAttributeName = Method("Mono.CSharp.Attribute", "get_Name");
            Attrs = Field(Type("Mono.CSharp.Attributes"), "Attrs");
            ExplicitTarget = Field(Type("Mono.CSharp.Attribute"), "ExplicitTarget");

            OutputFile = Field(settings, "OutputFile");
            DocumentationFile = Field(settings, "DocumentationFile");
            GetResourceStrings = Field(settings, "GetResourceStrings");
            TokenizeOnly = Field(settings, "TokenizeOnly");
            ParseOnly = Field(settings, "ParseOnly");
            Timestamps = Field(settings, "Timestamps");
            WriteMetadataOnly = Field(settings, "WriteMetadataOnly");
        }

        Type Type(string name)
        {
            return mcs.GetType(name, true);
        }

        ConstructorInfo Ctor(string type, params Type[] parameters)
        {
            return Ctor(Type(type), parameters);
        }

        static ConstructorInfo Ctor(Type type, params Type[] parameters)
        {
            var c = type.GetConstructor(Any, null, parameters, null);
            if (c == null) throw new MissingMethodException(type.FullName, ".ctor");
            return c;
        }

        MethodInfo Method(string type, string name, params Type[] parameters)
        {
            return Method(Type(type), name, parameters);
        }

        static MethodInfo Method(Type type, string name, params Type[] parameters)
        {
            var m = type.GetMethod(name, Any, null, parameters, null);
            if (m == null) throw new MissingMethodException(type.FullName, name);
            return m;
        }

        static FieldInfo Field(Type type, string name)
        {
            var f = type.GetField(name, Any);
            if (f == null) throw new MissingFieldException(type.FullName, name);
            return f;
        }
    }

    static McsSteps s_Steps;

    /// Binds mcs's internals; null when they are all there, else why not (the server then
    /// builds every request through InvokeCompiler).
    public static string Bind(Assembly mcs)
    {
        try {
            s_Steps = new McsSteps(mcs);
            return null;
        } catch (Exception e) {
            s_Steps = null;
            return e.GetType().Name + ": " + e.Message;
        }
    }

    public static bool Available { get { return s_Steps != null; } }

    readonly string cwd;
    readonly string key;     // CompileServer.Key of the request it was prepared for
    readonly string[] args;  // as prepared: -out: points into the scratch folder
    readonly int outIndex;   // where -out: is in args
    readonly string output;  // the scratch output
    readonly StringWriter log = new StringWriter();
    readonly List<KeyValuePair<string, Stamp>> read = new List<KeyValuePair<string, Stamp>>();
    object ctx, driver, module, loader, assembly;
    bool used;

    struct Stamp
    {
        public long Length;
        public DateTime Written;

        public static Stamp Of(string path)
        {
            var info = new FileInfo(path);
            return new Stamp { Length = info.Exists ? info.Length : -1,
                               Written = info.Exists ? info.LastWriteTimeUtc : DateTime.MinValue };
        }

        public bool SameAs(Stamp other)
        {
            return Length == other.Length && Written == other.Written;
        }
    }

    PreparedImport(string cwd, string key, string[] args, int outIndex, string output)
    {
        this.cwd = cwd;
        this.key = key;
        this.args = args;
        this.outIndex = outIndex;
        this.output = output;
    }

    /// Reads and imports the references of a build with these arguments (a request's, with
    /// its -out:; `key` identifies such requests), writing into `scratch`. Null when these
    /// arguments are not ones it prepares, or when mcs reports anything while importing (the
    /// build then runs as before).
    public static PreparedImport Prepare(string cwd, string key, string[] requestArgs, string scratch)
    {
        if (s_Steps == null) return null;
        int outIndex = OutArgument(requestArgs);
        if (outIndex < 0) return null;
        var fileName = Path.GetFileName(requestArgs[outIndex].Substring(5));
        if (fileName.Length == 0) return null;
        var output = Path.Combine(scratch, fileName);
        var args = (string[])requestArgs.Clone();
        args[outIndex] = "-out:" + output;
        var p = new PreparedImport(cwd, key, args, outIndex, output);
        try {
            if (p.Run(scratch)) return p;
        } catch (Exception) {
            // mcs threw while importing: this request builds through InvokeCompiler.
        }
        p.Dispose();
        return null;
    }

    bool Run(string scratch)
    {
        var s = s_Steps;
        var started = DateTime.UtcNow;
        if (cwd.Length > 0) Environment.CurrentDirectory = cwd;
        Directory.CreateDirectory(scratch);
        File.Delete(output);
        File.Delete(output + ".mdb");

        var parser = s.NewCommandLineParser.Invoke(new object[] { log });
        var settings = s.ParseArguments.Invoke(parser, new object[] { args });
        if (settings == null) return false;
        // Driver.Compile does more for these (or stops early); they build the old way.
        if (s.DocumentationFile.GetValue(settings) != null ||
            s.GetResourceStrings.GetValue(settings) != null ||
            (bool)s.TokenizeOnly.GetValue(settings) || (bool)s.ParseOnly.GetValue(settings) ||
            (bool)s.Timestamps.GetValue(settings) || (bool)s.WriteMetadataOnly.GetValue(settings))
            return false;
        if ((string)s.OutputFile.GetValue(settings) != output) return false;

        var printer = s.NewStreamReportPrinter.Invoke(new object[] { log });
        ctx = s.NewCompilerContext.Invoke(new[] { settings, printer });
        driver = s.NewDriver.Invoke(new[] { ctx });
        s.SetTimeReporter.Invoke(ctx, new[] { s.NewTimeReporter.Invoke(new object[] { false }) });
        module = s.NewModuleContainer.Invoke(new[] { ctx });
        s.SetToplevelTypes.Invoke(null, new[] { module });

        var importer = s.NewStaticImporter.Invoke(new[] { module });
        loader = s.NewStaticLoader.Invoke(new[] { importer, ctx });
        assembly = s.NewAssemblyDefinitionStatic.Invoke(
            new[] { module, loader, Path.GetFileName(output), output });
        var universe = s.GetDomain.Invoke(loader, null);
        s.CreateAssembly.Invoke(assembly, new[] { universe });
        s.CreateContainer.Invoke(module, null);
        s.AddCompiledAssembly.Invoke(importer, new[] { assembly });
        s.SetCompiledAssembly.Invoke(loader, new[] { assembly });
        s.LoadReferences.Invoke(loader, new[] { module });
        var builtin = s.GetBuiltinTypes.Invoke(ctx, null);
        if (!(bool)s.CheckDefinitions.Invoke(builtin, new[] { module })) return false;
        s.LoadModules.Invoke(loader, new[] { assembly, s.GetGlobalRootNamespace.Invoke(module, null) });
        if (Errors() > 0 || log.GetStringBuilder().Length > 0) return false;

        foreach (var a in (Array)s.GetAssemblies.Invoke(universe, null)) {
            if (s.AssemblyBuilder.IsInstanceOfType(a)) continue; // the assembly being built
            var location = (string)s.GetLocation.Invoke(a, null);
            if (string.IsNullOrEmpty(location)) return false;
            var stamp = Stamp.Of(location);
            // Written while (or just before) it was read: it may have been read half-written.
            if (stamp.Length < 0 || stamp.Written >= started.AddSeconds(-1)) return false;
            read.Add(new KeyValuePair<string, Stamp>(location, stamp));
        }
        return read.Count > 0;
    }

    // mcs reads [assembly: AssemblyKeyFile/AssemblyKeyName/AssemblyDelaySign] by name when it
    // creates the assembly builder (AssemblyDefinition.ResolveAssemblySecurityAttributes), which
    // the preparation did before these sources were parsed: a build with one would come out
    // unsigned, without mcs's warning CS1699.
    bool SignsTheAssembly()
    {
        var s = s_Steps;
        var attributes = s.GetOptAttributes.Invoke(module, null);
        if (attributes == null) return false;
        foreach (var a in (System.Collections.IEnumerable)s.Attrs.GetValue(attributes)) {
            if ((string)s.ExplicitTarget.GetValue(a) != "assembly") continue;
            var name = (string)s.GetAttributeName.Invoke(a, null) ?? "";
            foreach (var signing in new[] { "AssemblyKeyFile", "AssemblyKeyName", "AssemblyDelaySign" })
                if (name.EndsWith(signing, StringComparison.Ordinal) ||
                    name.EndsWith(signing + "Attribute", StringComparison.Ordinal))
                    return true;
        }
        return false;
    }

    int Errors()
    {
        var report = s_Steps.GetReport.Invoke(ctx, null);
        return (int)s_Steps.GetErrors.Invoke(report, null);
    }

    static int OutArgument(string[] args)
    {
        int found = -1;
        for (int i = 0; i < args.Length; ++i) {
            if (!args[i].StartsWith("-out:", StringComparison.Ordinal)) continue;
            if (found >= 0) return -1;
            found = i;
        }
        return found;
    }

    /// The key of the requests this was prepared for (CompileServer.Key).
    public string Key { get { return key; } }

    /// Used, or an assembly it read has changed since: no request will ever fit.
    public bool Stale
    {
        get { return used || read.Exists(entry => !Stamp.Of(entry.Key).SameAs(entry.Value)); }
    }

    /// Whether a request with these arguments, run in `requestCwd`, is the build this was
    /// prepared for, and every assembly it read is unchanged since.
    public bool Fits(string requestCwd, string[] requestArgs)
    {
        if (used || requestCwd != cwd || requestArgs.Length != args.Length) return false;
        for (int i = 0; i < args.Length; ++i) {
            if (i == outIndex) {
                if (!requestArgs[i].StartsWith("-out:", StringComparison.Ordinal) ||
                    Path.GetFileName(requestArgs[i].Substring(5)) != Path.GetFileName(output))
                    return false;
            } else if (requestArgs[i] != args[i]) {
                return false;
            }
        }
        foreach (var entry in read) {
            if (!Stamp.Of(entry.Key).SameAs(entry.Value)) return false;
        }
        return true;
    }

    /// Parses, compiles and writes the build, then copies the .dll (and the .mdb, when one
    /// was written) to the request's -out: (`requestArgs` are ones that Fits). True when all
    /// of that succeeded; false when mcs reported errors (the caller builds again through
    /// InvokeCompiler for mcs's own report).
    /// Throws Unsuitable when these sources need mcs's own order (see above). Runs once.
    public bool Build(string[] requestArgs)
    {
        if (used) return false;
        used = true;
        var s = s_Steps;
        if (cwd.Length > 0) Environment.CurrentDirectory = cwd;
        // mcs's one static of a compilation: set when this was prepared, and again by any
        // import prepared since (PreparedImports keeps several).
        s.SetToplevelTypes.Invoke(null, new[] { module });
        s.Parse.Invoke(driver, new[] { module });
        if (Errors() > 0) {
            // mcs checks a declared type's name against the namespace's types while parsing
            // and expects only declared ones there; a script type with the full name of a
            // referenced one (which mcs allows, warning CS0436) finds the imported type and
            // the parser fails with an internal error. Not a failure of the scripts.
            if (log.ToString().Contains("error CS0589")) throw new Unsuitable();
            return false;
        }
        if (SignsTheAssembly()) throw new Unsuitable();
        // Parsing added the sources' types; create their builders now (the module's own
        // CreateContainer ran before the import, with no types in it yet). Driver.Compile
        // does not look at its result either: a failure is an error in the report.
        s.CreateContainer.Invoke(module, null);
        s.InitializePredefinedTypes.Invoke(module, null);
        s.Define.Invoke(module, null);
        if (Errors() > 0) return false;
        s.Resolve.Invoke(assembly, null);
        if (Errors() > 0) return false;
        s.Emit.Invoke(assembly, null);
        if (Errors() > 0) return false;
        s.CloseContainer.Invoke(module, null);
        s.EmbedResources.Invoke(assembly, null);
        if (Errors() > 0) return false;
        s.Save.Invoke(assembly, null);
        DisposeLoader();
        if (Errors() > 0) return false;

        var requestOutput = requestArgs[outIndex].Substring(5);
        File.Copy(output, requestOutput, true);
        if (File.Exists(output + ".mdb")) File.Copy(output + ".mdb", requestOutput + ".mdb", true);
        return true;
    }

    /// Thrown by Build when these sources cannot be built from an import made before parsing.
    public sealed class Unsuitable : Exception
    {
    }

    /// What mcs printed for this build (warnings), when Build returned true.
    public string Log { get { return log.ToString(); } }

    void DisposeLoader()
    {
        if (loader == null) return;
        var l = loader;
        loader = null;
        try { s_Steps.DisposeLoader.Invoke(l, null); } catch (Exception) { }
    }

    /// Closes the reference files (IKVM keeps them open while the universe lives).
    public void Dispose()
    {
        used = true;
        DisposeLoader();
        ctx = driver = module = assembly = null;
    }
}
