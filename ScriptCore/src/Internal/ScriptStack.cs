using System;
using System.Diagnostics;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace UEngine.Internal
{
    /// <summary>Which script code an exception came from, read from its stack.</summary>
    static class ScriptStack
    {
        /// <summary>
        /// The class of the topmost frame in script code (not corlib, not ScriptCore, not an
        /// installed assembly); compiler-generated nested types (lambdas' closures, iterators,
        /// async state machines) map to the class that declares them. Null when no frame is in
        /// script code. Uses GetFrames: unlike FrameCount/GetFrame, it includes the frames
        /// captured before an await or a rethrow (ExceptionDispatchInfo), where the script is.
        /// </summary>
        internal static Type ScriptClassOf(Exception thrown)
        {
            MethodBase method = TopScriptMethod(new StackTrace(thrown, false));
            if (method == null)
                return null;
            Type type = method.DeclaringType;
            while (type.DeclaringType != null && IsCompilerGenerated(type))
                type = type.DeclaringType;
            return type;
        }

        /// <summary>
        /// The topmost method of `trace` in script code (not corlib, not ScriptCore, not an
        /// installed assembly), or null.
        /// </summary>
        internal static MethodBase TopScriptMethod(StackTrace trace)
        {
            Assembly core = typeof(ScriptStack).Assembly;
            Assembly corlib = typeof(object).Assembly;
            StackFrame[] frames = trace.GetFrames();
            if (frames == null)
                return null;
            foreach (StackFrame frame in frames)
            {
                MethodBase method = frame.GetMethod();
                Type type = method == null ? null : method.DeclaringType;
                if (type == null)
                    continue;
                Assembly assembly = type.Assembly;
                if (assembly == core || assembly == corlib || assembly.GlobalAssemblyCache)
                    continue;
                return method;
            }
            return null;
        }

        static bool IsCompilerGenerated(Type type)
        {
            return type.Name.IndexOf('<') >= 0 || type.IsDefined(typeof(CompilerGeneratedAttribute), false);
        }
    }
}
