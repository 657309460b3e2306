// PreparedImports: the imports (PreparedImport.cs) the server keeps between builds, one for
// each of the last few builds it was asked for, most recently asked first.
//
// Why more than one: with assemblies by folder, a developer's edits often go back and forth
// between two assemblies (a leaf and the one it uses, a gameplay folder and a UI one). One
// import, prepared for the last build's arguments, never fitted the next build then, and
// every such build imported its references itself (bench_edit_to_live, "a leaf's edit after
// another's": build 25.5 ms, 19.0 ms with the imports kept). Each import holds its referenced
// assemblies' types (~13 MB: compiler-bridge/README.md, "Imported between builds").
//
// An import is taken out when a build uses it; one whose references were rebuilt since (a
// core's edit) can never be used again and is dropped at the next look.
using System;
using System.Collections.Generic;

sealed class PreparedImports : IDisposable
{
    readonly int capacity;
    readonly List<PreparedImport> imports = new List<PreparedImport>(); // most recent first

    public PreparedImports(int capacity)
    {
        this.capacity = Math.Max(1, capacity);
    }

    public int Count { get { return imports.Count; } }

    /// The import prepared for exactly this request, taken out; null when none fits.
    public PreparedImport Take(string cwd, string[] args)
    {
        DropStale();
        for (int i = 0; i < imports.Count; ++i) {
            if (!imports[i].Fits(cwd, args)) continue;
            var found = imports[i];
            imports.RemoveAt(i);
            return found;
        }
        return null;
    }

    /// Whether an import for requests with this key (CompileServer.Key) is kept and usable.
    public bool Has(string key)
    {
        DropStale();
        return imports.Exists(p => p.Key == key);
    }

    /// Keeps `import` first; the least recently asked one goes when there are too many.
    public void Add(PreparedImport import)
    {
        imports.RemoveAll(p => {
            if (p.Key != import.Key) return false;
            p.Dispose();
            return true;
        });
        imports.Insert(0, import);
        while (imports.Count > capacity) {
            imports[imports.Count - 1].Dispose();
            imports.RemoveAt(imports.Count - 1);
        }
    }

    void DropStale()
    {
        imports.RemoveAll(p => {
            if (!p.Stale) return false;
            p.Dispose();
            return true;
        });
    }

    public void Dispose()
    {
        foreach (var p in imports) p.Dispose();
        imports.Clear();
    }
}
