// AssemblyInterface: a hash of what other assemblies can see of a built assembly, so that a
// build whose interface is unchanged need not rebuild the assemblies that reference it.
//
// Why: with assemblies by folder, an edit of an assembly others reference (a core's) rebuilt
// every one of them, because they were compiled against it. But what they were compiled
// against is its interface, not its method bodies: most edits change a body only. The
// client (compiler-bridge/src/assembly_set_build.cpp) asks for the hash of the new build
// and of the one it replaces, and reuses the dependents' last builds when both are equal.
//
// What is in it: as in a C# reference assembly, everything a dependent's compile can read,
// and nothing of the method bodies:
// - every type another assembly can name (public, or nested public/protected in one it can
//   name; internal ones too when the assembly has [InternalsVisibleTo]), with its attributes,
//   base type, declared interfaces and generic parameters with their constraints;
// - their visible fields (with a constant's value: constants are copied into the code that
//   reads them), and every instance field of a struct (a dependent's definite-assignment
//   check reads those, as Roslyn's reference assemblies keep them);
// - visible methods and constructors with their flags (virtual, sealed, static…), return
//   and parameter types, parameter names (named arguments) and default values (copied into
//   the caller), and attributes ([Conditional] decides whether a caller's call is compiled);
// - visible properties and events, and the assembly's own attributes.
// Left out: private members (but a struct's fields), compiler-generated types and members
// (names beginning with '<': closures, iterators, array initialisers, which a body's edit
// changes), and IL. A change that is not in the hash cannot change how a dependent
// compiles; a change in it rebuilds the dependents even where they would compile alike.
//
// How: the assembly's metadata is read with IKVM.Reflection, the reader mcs itself uses
// (public in mcs.exe), in a Universe of its own that is dropped afterwards. Referenced
// assemblies are not read: a type from one is known by its name only.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using IKVM.Reflection;
using Type = IKVM.Reflection.Type;

static class AssemblyInterface
{
    const BindingFlags Declared = BindingFlags.DeclaredOnly | BindingFlags.Public |
                                  BindingFlags.NonPublic | BindingFlags.Instance |
                                  BindingFlags.Static;

    /// The hash (64 hex digits) of the interface of the assembly at `path`, or null when it
    /// cannot be read.
    public static string HashOf(string path)
    {
        try {
            using (var sha = SHA256.Create()) {
                var hash = sha.ComputeHash(Encoding.UTF8.GetBytes(Describe(path)));
                return BitConverter.ToString(hash).Replace("-", "").ToLowerInvariant();
            }
        } catch (Exception) {
            return null; // not an assembly, unreadable, gone: the client rebuilds as before
        }
    }

    /// The interface as text, one sorted line per type or member.
    public static string Describe(string path)
    {
        var options = UniverseOptions.MetadataOnly | UniverseOptions.ResolveMissingMembers |
                      UniverseOptions.DisableFusion;
        using (var universe = new Universe(options)) {
            // Only names are needed from the references: each is a "missing" assembly.
            universe.AssemblyResolve += (sender, e) => ((Universe)sender).CreateMissingAssembly(e.Name);
            var assembly = universe.LoadFile(path);
            var lines = new List<string>();
            bool friends = false;
            foreach (var a in CustomAttributeData.GetCustomAttributes(assembly)) {
                lines.Add("assembly " + Attribute(a));
                friends |= a.AttributeType.FullName ==
                           "System.Runtime.CompilerServices.InternalsVisibleToAttribute";
            }
            foreach (var type in assembly.GetTypes()) {
                if (Nameable(type, friends)) DescribeType(type, friends, lines);
            }
            lines.Sort(StringComparer.Ordinal);
            return string.Join("\n", lines);
        }
    }

    static bool Visible(MethodBase m, bool friends)
    {
        return m.IsPublic || m.IsFamily || m.IsFamilyOrAssembly ||
               (friends && (m.IsAssembly || m.IsFamilyAndAssembly));
    }

    static bool Visible(FieldInfo f, bool friends)
    {
        return f.IsPublic || f.IsFamily || f.IsFamilyOrAssembly ||
               (friends && (f.IsAssembly || f.IsFamilyAndAssembly));
    }

    static bool Generated(string name)
    {
        return name.StartsWith("<", StringComparison.Ordinal);
    }

    // Whether code in another assembly can name this type (and each type it is nested in).
    static bool Nameable(Type type, bool friends)
    {
        if (Generated(type.Name)) return false;
        for (var t = type; t != null; t = t.DeclaringType) {
            bool seen = !t.IsNested
                ? t.IsPublic || friends
                : t.IsNestedPublic || t.IsNestedFamily || t.IsNestedFamORAssem ||
                  (friends && (t.IsNestedAssembly || t.IsNestedFamANDAssem));
            if (!seen) return false;
        }
        return true;
    }

    static bool IsValueType(Type type)
    {
        var b = type.BaseType; // (the references are not read: compared by name)
        return b != null && (b.FullName == "System.ValueType" || b.FullName == "System.Enum");
    }

    static void DescribeType(Type type, bool friends, List<string> lines)
    {
        var name = type.FullName;
        var line = new StringBuilder("type ").Append(name).Append(' ').Append((int)type.Attributes);
        if (type.BaseType != null) line.Append(" : ").Append(NameOf(type.BaseType));
        foreach (var i in type.__GetDeclaredInterfaces().Select(NameOf).OrderBy(n => n, StringComparer.Ordinal))
            line.Append(", ").Append(i);
        lines.Add(line.Append(Generics(type.GetGenericArguments())).Append(Attributes(CustomAttributeData.GetCustomAttributes(type))).ToString());

        bool valueType = IsValueType(type);
        foreach (var f in type.GetFields(Declared)) {
            if (!(Visible(f, friends) || (valueType && !f.IsStatic))) continue;
            if (Generated(f.Name) && !valueType) continue;
            var l = name + " field " + (int)f.Attributes + " " + NameOf(f.FieldType) + " " + f.Name;
            if (f.IsLiteral) l += " = " + Value(f.GetRawConstantValue());
            lines.Add(l + Attributes(CustomAttributeData.GetCustomAttributes(f)));
        }
        foreach (var m in type.GetMethods(Declared).Cast<MethodBase>().Concat(type.GetConstructors(Declared))) {
            if (Visible(m, friends) && !Generated(m.Name)) lines.Add(name + " method " + Signature(m));
        }
        foreach (var p in type.GetProperties(Declared)) {
            var accessors = p.GetAccessors(true).Where(a => Visible(a, friends)).Select(a => a.Name).ToArray();
            if (accessors.Length == 0) continue;
            lines.Add(name + " property " + NameOf(p.PropertyType) + " " + p.Name + " " +
                      string.Join(",", accessors) + Attributes(CustomAttributeData.GetCustomAttributes(p)));
        }
        foreach (var e in type.GetEvents(Declared)) {
            var add = e.GetAddMethod(true);
            if (add == null || !Visible(add, friends)) continue;
            lines.Add(name + " event " + NameOf(e.EventHandlerType) + " " + e.Name +
                      Attributes(CustomAttributeData.GetCustomAttributes(e)));
        }
    }

    static string Signature(MethodBase m)
    {
        var line = new StringBuilder().Append((int)m.Attributes).Append(' ');
        var method = m as MethodInfo;
        if (method != null) line.Append(NameOf(method.ReturnType)).Append(' ');
        line.Append(m.Name);
        if (method != null) line.Append(Generics(method.GetGenericArguments()));
        line.Append('(');
        foreach (var p in m.GetParameters()) {
            line.Append((int)p.Attributes).Append(' ').Append(NameOf(p.ParameterType)).Append(' ').Append(p.Name);
            if (p.HasDefaultValue) line.Append(" = ").Append(Value(p.RawDefaultValue));
            line.Append(Attributes(CustomAttributeData.GetCustomAttributes(p))).Append(", ");
        }
        return line.Append(')').Append(Attributes(CustomAttributeData.GetCustomAttributes(m))).ToString();
    }

    static string NameOf(Type type)
    {
        return type.FullName ?? type.Name; // (a generic parameter has no full name)
    }

    static string Generics(Type[] parameters)
    {
        if (parameters.Length == 0) return "";
        var line = new StringBuilder("<");
        foreach (var g in parameters) {
            line.Append(g.Name).Append(' ').Append((int)g.GenericParameterAttributes);
            foreach (var c in g.GetGenericParameterConstraints()) line.Append(" : ").Append(NameOf(c));
            line.Append(", ");
        }
        return line.Append('>').ToString();
    }

    static string Attributes(IList<CustomAttributeData> attributes)
    {
        if (attributes.Count == 0) return "";
        return " [" + string.Join("; ", attributes.Select(Attribute).OrderBy(s => s, StringComparer.Ordinal)) + "]";
    }

    // Its type, constructor and argument blob as written (decoding the arguments would need
    // the referenced assemblies: an enum argument's underlying type).
    static string Attribute(CustomAttributeData a)
    {
        return a.AttributeType.FullName + " " + a.Constructor + " " + BitConverter.ToString(a.__GetBlob());
    }

    static string Value(object value)
    {
        return value == null ? "null"
            : value.GetType().Name + ":" + Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture);
    }
}
