using System;
using System.Collections.Generic;
using System.Globalization;
using System.Reflection;
using System.Text;

namespace UEngine.Internal
{
    /// <summary>
    /// Carries the delegates scripts hold in their fields — an event's subscribers (its
    /// backing field), an Action or Func field, multicast lists — from one generation into the
    /// next at a reload's swap. Each entry of an invocation list is described by what it is
    /// bound to (a script, an entity or a native component, by id; nothing for a static
    /// method) and by its method (class, name, signature), and rebuilt in the new generation
    /// against the same target's new instance and the method's new code, in the same order.
    /// A lambda is a compiler-generated method: it is rebound only when its code is unchanged
    /// (<see cref="CodeFingerprint"/>), and only when it captured nothing but `this` (a lambda
    /// that captured locals lives on a closure object a reload cannot follow yet). Every entry
    /// that cannot be rebound is dropped and named; nothing is dropped silently.
    /// </summary>
    static class DelegateCarry
    {
        const BindingFlags Declared = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;
        const BindingFlags AnyMethod = Declared | BindingFlags.Static;

        static readonly Dictionary<Type, FieldInfo[]> s_Fields = new Dictionary<Type, FieldInfo[]>();

        // A script class's instance fields of a delegate type, its base classes' included.
        static FieldInfo[] DelegateFields(Type type)
        {
            FieldInfo[] fields;
            if (s_Fields.TryGetValue(type, out fields)) return fields;
            var found = new List<FieldInfo>();
            for (Type t = type; t != null && t != typeof(UMonoScriptComponent); t = t.BaseType)
                foreach (FieldInfo f in t.GetFields(Declared))
                    if (typeof(Delegate).IsAssignableFrom(f.FieldType)) found.Add(f);
            fields = found.ToArray();
            s_Fields.Add(type, fields);
            return fields;
        }

        // ---- the old generation -------------------------------------------------------------

        /// <summary>
        /// Every delegate field of every attached script, as tab-separated lines:
        /// "F script fieldClass field entries" per field, then per entry
        /// "D targetKind targetId methodClass method signature fingerprint shown problem".
        /// </summary>
        static string Export()
        {
            var text = new StringBuilder();
            foreach (UMonoScriptComponent script in ScriptRuntime.Attached)
            {
                if (script.m_Detached) continue;
                FieldInfo[] fields = DelegateFields(script.GetType());
                if (fields.Length == 0) continue;
                foreach (FieldInfo f in fields)
                {
                    var value = (Delegate)f.GetValue(script);
                    Delegate[] entries = value == null ? new Delegate[0] : value.GetInvocationList();
                    text.Append("F\t").Append(Id(script.m_NativeId)).Append('\t').Append(f.DeclaringType.FullName)
                        .Append('\t').Append(f.Name).Append('\t').Append(entries.Length).Append('\n');
                    foreach (Delegate d in entries) AppendEntry(text, d);
                }
            }
            return text.ToString();
        }

        static void AppendEntry(StringBuilder text, Delegate d)
        {
            MethodInfo m = d.Method;
            object target = d.Target;
            string kind, problem = "";
            ulong id = 0;
            var script = target as UMonoScriptComponent;
            var entity = target as UEntity;
            var component = target as UComponent;
            if (target == null) kind = "static";
            else if (!ReferenceEquals(script, null)) { kind = "script"; id = script.m_NativeId; }
            else if (!ReferenceEquals(entity, null)) { kind = "entity"; id = entity.m_NativeId; }
            else if (!ReferenceEquals(component, null)) { kind = "component"; id = component.m_NativeId; }
            else
            {
                kind = "other";
                problem = GeneratedNames.IsGenerated(target.GetType().Name)
                    ? "a lambda that captured local variables (" + target.GetType().Name + "); reloads carry lambdas that capture only this"
                    : "its target is a " + target.GetType().FullName + ", which a reload cannot follow into the new generation";
            }
            text.Append("D\t").Append(kind).Append('\t').Append(Id(id)).Append('\t').Append(m.DeclaringType.FullName)
                .Append('\t').Append(m.Name).Append('\t').Append(ParameterList(m))
                .Append('\t').Append(GeneratedNames.IsGenerated(m.Name) ? CodeFingerprint.OfMethod(m) : "")
                .Append('\t').Append(Shown(kind, id, m)).Append('\t').Append(problem).Append('\n');
        }

        static string Shown(string kind, ulong id, MethodInfo m)
        {
            string method = m.DeclaringType.FullName + "." + m.Name;
            if (kind == "static") return "static " + method;
            if (kind == "other") return method;
            return method + " on #" + (id & 0xffffffffUL).ToString(CultureInfo.InvariantCulture) + ":" + (id >> 32).ToString(CultureInfo.InvariantCulture);
        }

        static string ParameterList(MethodInfo m)
        {
            var text = new StringBuilder("(");
            foreach (ParameterInfo p in m.GetParameters()) text.Append(CodeFingerprint.TypeName(p.ParameterType, null)).Append(',');
            return text.Append("):").Append(CodeFingerprint.TypeName(m.ReturnType, null)).ToString();
        }

        static string Id(ulong id) { return id.ToString(CultureInfo.InvariantCulture); }

        // ---- the new generation -------------------------------------------------------------

        /// <summary>
        /// Rebuilds the exported delegates in this generation and sets the fields (a field
        /// whose entries were all dropped becomes null). Returns one line per entry:
        /// "script fieldClass.field shown outcome reason", outcome rebound or dropped.
        /// </summary>
        static string Import(string exported)
        {
            var outcomes = new StringBuilder();
            string[] lines = exported.Split('\n');
            for (int at = 0; at < lines.Length;)
            {
                string[] f = lines[at++].Split('\t');
                if (f.Length < 5 || f[0] != "F") continue;
                int count = int.Parse(f[4], CultureInfo.InvariantCulture);
                var entries = new List<string[]>(count);
                for (int k = 0; k < count && at < lines.Length; k++) entries.Add(lines[at++].Split('\t'));
                ImportField(outcomes, ulong.Parse(f[1], CultureInfo.InvariantCulture), f[2], f[3], entries);
            }
            return outcomes.ToString();
        }

        static void ImportField(StringBuilder outcomes, ulong scriptId, string fieldClass, string fieldName, List<string[]> entries)
        {
            UMonoScriptComponent script = ScriptRuntime.ScriptById(scriptId);
            Type declaring = CoroutineCarry.FindType(fieldClass);
            FieldInfo field = declaring == null ? null : declaring.GetField(fieldName, Declared);
            string fieldProblem = null;
            if (ReferenceEquals(script, null)) fieldProblem = "its script is no longer in the scripts (parked)";
            else if (field == null || !typeof(Delegate).IsAssignableFrom(field.FieldType)) fieldProblem = "the field " + fieldName + " is gone";
            else if (!field.DeclaringType.IsAssignableFrom(script.GetType())) fieldProblem = "the script's class no longer has the field " + fieldName;
            Delegate combined = null;
            foreach (string[] e in entries)
            {
                string problem = fieldProblem;
                Delegate rebound = null;
                if (problem == null) rebound = Rebind(e, field.FieldType, out problem);
                if (rebound != null) combined = Delegate.Combine(combined, rebound);
                outcomes.Append(Id(scriptId)).Append('\t').Append(fieldName).Append('\t').Append(e.Length > 7 ? e[7] : "?")
                    .Append('\t').Append(rebound != null ? "rebound" : "dropped").Append('\t').Append(problem ?? "").Append('\n');
            }
            if (fieldProblem == null) field.SetValue(script, combined);
        }

        // One entry: "D targetKind targetId methodClass method signature fingerprint shown problem".
        static Delegate Rebind(string[] e, Type delegateType, out string problem)
        {
            problem = null;
            if (e.Length < 9 || e[0] != "D") { problem = "the host described it badly"; return null; }
            if (e[8].Length != 0) { problem = e[8]; return null; }
            string kind = e[1];
            ulong id = ulong.Parse(e[2], CultureInfo.InvariantCulture);
            object target = null;
            try
            {
                if (kind == "script") target = ScriptRuntime.ScriptById(id);
                else if (kind == "entity") target = ObjectTable.Entity(id);
                else if (kind == "component") target = ObjectTable.NativeComponent(id);
            }
            catch (Exception) { target = null; }
            if (kind != "static" && target == null) { problem = "its target (" + kind + " #" + (id & 0xffffffffUL) + ":" + (id >> 32) + ") is gone"; return null; }

            Type type = CoroutineCarry.FindType(e[3]);
            if (type == null) { problem = "the class " + e[3] + " is gone"; return null; }
            MethodInfo method = GeneratedNames.IsGenerated(e[4]) ? FindLambda(type, e[4], e[5], e[6]) : FindMethod(type, e[4], e[5]);
            if (method == null)
            {
                problem = GeneratedNames.IsGenerated(e[4])
                    ? "the lambda's code changed"
                    : e[4] + e[5] + " no longer exists in " + e[3];
                return null;
            }
            if (target != null && !method.DeclaringType.IsAssignableFrom(target.GetType()))
            {
                problem = "its target is no longer a " + method.DeclaringType.FullName;
                return null;
            }
            Delegate d = method.IsStatic
                ? Delegate.CreateDelegate(delegateType, method, false)
                : Delegate.CreateDelegate(delegateType, target, method, false);
            if (d == null) problem = e[4] + e[5] + " no longer fits " + CodeFingerprint.TypeName(delegateType, null);
            return d;
        }

        static MethodInfo FindMethod(Type type, string name, string parameters)
        {
            for (Type t = type; t != null; t = t.BaseType)
                foreach (MethodInfo m in t.GetMethods(AnyMethod))
                    if (m.Name == name && ParameterList(m) == parameters) return m;
            return null;
        }

        // A lambda: the compiler's method of that name when its code is the same, else the one
        // method of the same family ("<Initialize>m__") with the same code — the compiler
        // numbers lambdas per class, so adding one elsewhere renumbers the others.
        static MethodInfo FindLambda(Type type, string name, string parameters, string fingerprint)
        {
            MethodInfo byName = FindMethod(type, name, parameters);
            if (byName != null && CodeFingerprint.OfMethod(byName) == fingerprint) return byName;
            int number = name.LastIndexOf("m__", StringComparison.Ordinal);
            if (number < 0) return null;
            string family = name.Substring(0, number + 3);
            MethodInfo found = null;
            foreach (MethodInfo m in type.GetMethods(AnyMethod))
            {
                if (!m.Name.StartsWith(family, StringComparison.Ordinal) || ParameterList(m) != parameters) continue;
                if (CodeFingerprint.OfMethod(m) != fingerprint) continue;
                if (found != null) return null; // two lambdas with the same code: which one is not known
                found = m;
            }
            return found;
        }
    }
}
