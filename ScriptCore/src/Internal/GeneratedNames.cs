using System;

namespace UEngine.Internal
{
    /// <summary>
    /// What the C# compiler's generated classes are named after. mcs and csc name the class
    /// an iterator, an async method or a lambda's closure compiles to after the source method,
    /// nested in its class: "&lt;Count&gt;c__Iterator0" (mcs) or "&lt;Count&gt;d__3" (csc) for an
    /// iterator, "&lt;Load&gt;c__async0" / "&lt;Load&gt;d__0" for an async method,
    /// "&lt;Initialize&gt;c__AnonStorey0" / "&lt;&gt;c__DisplayClass0_0" for a closure.
    /// </summary>
    static class GeneratedNames
    {
        /// <summary>The source method a generated nested class was made for ("Count"), or null.</summary>
        internal static string SourceMethod(Type t)
        {
            if (!t.IsNested) return null;
            string name = t.Name;
            int close = name.IndexOf('>');
            return name.Length > 2 && name[0] == '<' && close > 1 ? name.Substring(1, close - 1) : null;
        }

        /// <summary>The method an iterator class was made for ("Count"), or null for any other class.</summary>
        internal static string IteratorMethod(Type t)
        {
            string method = SourceMethod(t);
            if (method == null) return null;
            string name = t.Name;
            int rest = method.Length + 2; // after "<Count>"
            return string.CompareOrdinal(name, rest, "c__Iterator", 0, 11) == 0 ||
                   string.CompareOrdinal(name, rest, "d__", 0, 3) == 0
                ? method
                : null;
        }

        /// <summary>Whether a member or type name is one the compiler made up ("&lt;…").</summary>
        internal static bool IsGenerated(string name) { return name.Length > 0 && name[0] == '<'; }
    }
}
