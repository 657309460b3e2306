using System;
using System.Collections;
using System.Collections.Generic;
using System.Reflection;

namespace UEngine.Internal
{
    /// <summary>
    /// Unity's Invoke, InvokeRepeating, CancelInvoke and IsInvoking. Each pending call is a
    /// coroutine of its script running <see cref="Routine"/>, a compiler-generated iterator
    /// of ScriptCore: it is stepped, listed and carried across a reload like any coroutine
    /// (its code never changes, so a reload resumes it where it waits, and the method it
    /// calls is looked up by name in the new code at each call). Unlike the script's own
    /// coroutines, StopAllCoroutines leaves it alone, and an exception in the method it calls
    /// is reported as the script's failure (phase Invoke) without ending the repetition.
    /// </summary>
    static class Invocations
    {
        internal const int PhaseInvoke = 14;

        // Parameterless instance methods by class and name (a generation's classes never change).
        static readonly Dictionary<Type, Dictionary<string, MethodInfo>> s_Methods =
            new Dictionary<Type, Dictionary<string, MethodInfo>>();
        static FieldInfo s_MethodField; // Routine's `method` argument in its iterator class

        internal static void Start(UMonoScriptComponent owner, string method, float time, float repeatRate)
        {
            if (method == null) throw new ArgumentNullException("methodName");
            if (Find(owner.GetType(), method) == null)
            {
                // What Unity does: say so, call nothing, go on.
                Debug.LogError("Trying to Invoke method: " + owner.GetType().Name + "." + method +
                               " couldn't be called: " + owner.GetType().FullName +
                               " has no method " + method + "() without parameters.");
                return;
            }
            CoroutineScheduler.Start(owner, Routine(owner, method, Time.s_Time + Math.Max(0f, time), repeatRate));
        }

        /// <summary>
        /// Calls <paramref name="method"/> at game time <paramref name="at"/>, then every
        /// <paramref name="repeatRate"/> seconds after it when that is positive. The times are
        /// absolute, so a late frame delays one call, not every later one.
        /// </summary>
        static IEnumerator Routine(UMonoScriptComponent owner, string method, double at, float repeatRate)
        {
            while (true)
            {
                // Never inside the Invoke call itself: at the earliest in this frame's
                // coroutine step, as Unity calls it after Update.
                yield return new WaitForSeconds((float)Math.Max(0.0, at - Time.s_Time));
                Call(owner, method);
                if (repeatRate <= 0f) yield break;
                at += repeatRate;
            }
        }

        static void Call(UMonoScriptComponent owner, string method)
        {
            MethodInfo m = Find(owner.GetType(), method);
            if (m == null)
            {
                // The method went away in a reload: the call ends, as the class says.
                Debug.LogError("Trying to Invoke method: " + owner.GetType().Name + "." + method +
                               " couldn't be called: it no longer exists.");
                return;
            }
            var call = (Action)Delegate.CreateDelegate(typeof(Action), owner, m);
            try { call(); }
            catch (System.Threading.ThreadAbortException) { throw; } // the watchdog: ends the coroutine
            catch (Exception e) { ScriptRuntime.Fail(owner, PhaseInvoke, e); }
        }

        internal static MethodInfo Find(Type type, string name)
        {
            Dictionary<string, MethodInfo> byName;
            if (!s_Methods.TryGetValue(type, out byName))
                s_Methods[type] = byName = new Dictionary<string, MethodInfo>();
            MethodInfo found;
            if (byName.TryGetValue(name, out found)) return found;
            for (Type t = type; t != null && found == null; t = t.BaseType)
            {
                MethodInfo m = t.GetMethod(name, BindingFlags.Instance | BindingFlags.Public |
                                                 BindingFlags.NonPublic | BindingFlags.DeclaredOnly,
                                           null, Type.EmptyTypes, null);
                if (m != null && m.ReturnType == typeof(void)) found = m;
            }
            byName[name] = found;
            return found;
        }

        /// <summary>Whether a coroutine is one of these calls, and (name not null) of that method.</summary>
        internal static bool IsInvocation(Coroutine c, string name)
        {
            Type t = c.m_Routine.GetType();
            if (t.DeclaringType != typeof(Invocations) || GeneratedNames.IteratorMethod(t) != "Routine")
                return false;
            return name == null || (string)Argument(c, "method", ref s_MethodField) == name;
        }

        /// <summary>"Invoke(Fire)" or "InvokeRepeating(Fire)": how a pending call is listed.</summary>
        internal static string Describe(Coroutine c)
        {
            object rate = Argument(c, "repeatRate", ref s_RepeatField);
            return (rate is float && (float)rate > 0f ? "InvokeRepeating(" : "Invoke(") +
                   Argument(c, "method", ref s_MethodField) + ")";
        }

        static FieldInfo s_RepeatField;

        // One of Routine's arguments, from the field its iterator holds it in.
        static object Argument(Coroutine c, string name, ref FieldInfo field)
        {
            Type t = c.m_Routine.GetType();
            if (field == null || field.DeclaringType != t)
                field = t.GetField(name, BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);
            return field == null ? null : field.GetValue(c.m_Routine);
        }

        internal static void Cancel(UMonoScriptComponent owner, string name)
        {
            List<Coroutine> running = CoroutineScheduler.Running;
            for (int i = 0; i < running.Count; i++)
            {
                Coroutine c = running[i];
                if (ReferenceEquals(c.m_Owner, owner) && !c.m_Done && IsInvocation(c, name)) CoroutineScheduler.Stop(c);
            }
        }

        internal static bool Pending(UMonoScriptComponent owner, string name)
        {
            foreach (Coroutine c in CoroutineScheduler.Running)
                if (ReferenceEquals(c.m_Owner, owner) && !c.m_Done && IsInvocation(c, name)) return true;
            return false;
        }
    }
}
