using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Reflection;
using System.Text;

namespace UEngine.Internal
{
    /// <summary>
    /// Carries running coroutines from one generation into the next at a reload's swap. A
    /// coroutine is a chain of compiler-generated iterator objects (its method's, then those
    /// of the nested coroutines it yielded), each holding its state number, its hoisted locals,
    /// its arguments and `this`. The two generations live in two app domains, so the host
    /// does the carrying in three calls:
    ///  1. <see cref="Export"/>, in the old generation: one text line per coroutine (owner,
    ///     what it waits for) and per iterator (class, method, code fingerprint), and the
    ///     iterator objects themselves;
    ///  2. <see cref="Plan"/>, in the new one (scripts attached, nothing run yet): for each
    ///     coroutine, the decision — resume (every iterator's code unchanged), restart from
    ///     the beginning with the same arguments (code edited), or stop ([StopOnEdit], the
    ///     method is gone, the script is gone) — and the new iterator objects, empty, with
    ///     which old object's fields go into which; the host copies the fields by the same
    ///     value rules as [SerializeField] fields (references by id), and falls back from
    ///     resume to restart when one cannot be copied exactly;
    ///  3. <see cref="Adopt"/>: the decisions taken; the coroutines join the new scheduler in
    ///     their old order, with their waits (game time and frames are the host's clock, so
    ///     they carry as they are; fixed steps as the number left).
    /// </summary>
    static class CoroutineCarry
    {
        static Func<object, object> s_Clone;

        /// <summary>
        /// A copy of a compiler-generated iterator made before its first step: its arguments
        /// and `this`, which is what a reload restarts an edited coroutine from. Null for
        /// enumerators a script wrote by hand (a reload stops those when it cannot resume them).
        /// </summary>
        internal static IEnumerator StartCopy(IEnumerator routine)
        {
            if (GeneratedNames.IteratorMethod(routine.GetType()) == null) return null;
            if (s_Clone == null)
            {
                MethodInfo clone = typeof(object).GetMethod("MemberwiseClone", BindingFlags.Instance | BindingFlags.NonPublic);
                s_Clone = (Func<object, object>)Delegate.CreateDelegate(typeof(Func<object, object>), clone);
            }
            return (IEnumerator)s_Clone(routine);
        }

        // The fields an iterator holds its method's arguments in: plain names (hoisted locals
        // and the compiler's own state have names starting with '<' or '$').
        static string ArgumentFields(Type t)
        {
            var names = new List<string>();
            foreach (FieldInfo f in t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
                if (f.Name.Length > 0 && f.Name[0] != '<' && f.Name[0] != '$') names.Add(f.Name);
            names.Sort(string.CompareOrdinal);
            return string.Join(",", names.ToArray());
        }

        // ---- 1. the old generation -------------------------------------------------------

        /// <summary>
        /// Every running coroutine, for the next generation's <see cref="Plan"/>: element 0 is
        /// the description, the rest the objects it refers to by index; null when none runs.
        /// Lines: "C owner method wait resumeFrame resumeTime fixedLeft awaited start problem" per
        /// coroutine, then "I object class declaringClass method fingerprint arguments" per
        /// iterator of its chain, outermost first (tab-separated).
        /// </summary>
        internal static object[] Export()
        {
            List<Coroutine> running = CoroutineScheduler.Running;
            if (running.Count == 0) return null; // the common case: nothing to carry, nothing made
            var objects = new List<object>();
            objects.Add(null);
            var index = new Dictionary<Coroutine, int>();
            foreach (Coroutine c in running)
                if (!c.m_Done) index[c] = index.Count;
            var text = new StringBuilder();
            foreach (Coroutine c in running)
            {
                if (c.m_Done) continue;
                int awaited = -1;
                string problem = "";
                switch (c.m_Wait)
                {
                    case Coroutine.Wait.Coroutine:
                        if (!index.TryGetValue((Coroutine)c.m_Awaited, out awaited)) awaited = -1;
                        break;
                    case Coroutine.Wait.Custom:
                        problem = "it waits on " + c.m_Awaited.GetType().Name + ", which a reload cannot carry yet";
                        break;
                    case Coroutine.Wait.Task:
                        problem = "it waits on a Task, which a reload cannot carry";
                        break;
                }
                int start = -1;
                if (c.m_Start != null) { start = objects.Count; objects.Add(c.m_Start); }
                text.Append("C\t").Append(c.m_Owner.m_NativeId.ToString(CultureInfo.InvariantCulture))
                    .Append('\t').Append(c.MethodName)
                    .Append('\t').Append(((int)c.m_Wait).ToString(CultureInfo.InvariantCulture))
                    .Append('\t').Append(c.m_ResumeFrame.ToString(CultureInfo.InvariantCulture))
                    .Append('\t').Append(c.m_ResumeTime.ToString("R", CultureInfo.InvariantCulture))
                    .Append('\t').Append((c.m_ResumeFixed - CoroutineScheduler.FixedSteps).ToString(CultureInfo.InvariantCulture))
                    .Append('\t').Append(awaited.ToString(CultureInfo.InvariantCulture))
                    .Append('\t').Append(start.ToString(CultureInfo.InvariantCulture))
                    .Append('\t').Append(problem).Append('\n');
                AppendIterator(text, objects, c.m_Routine);
                if (c.m_Nested != null)
                    foreach (IEnumerator e in c.m_Nested) AppendIterator(text, objects, e);
            }
            objects[0] = text.ToString();
            return objects.ToArray();
        }

        static void AppendIterator(StringBuilder text, List<object> objects, IEnumerator e)
        {
            Type t = e.GetType();
            string method = GeneratedNames.IteratorMethod(t);
            text.Append("I\t").Append(objects.Count.ToString(CultureInfo.InvariantCulture)).Append('\t').Append(t.FullName)
                .Append('\t').Append(t.DeclaringType != null ? t.DeclaringType.FullName : "")
                .Append('\t').Append(method ?? "")
                .Append('\t').Append(method != null ? CodeFingerprint.OfType(t) : "")
                .Append('\t').Append(method != null ? ArgumentFields(t) : "").Append('\n');
            objects.Add(e);
        }

        // ---- 2. the new generation: the plan -------------------------------------------------

        sealed class Iterator
        {
            public int Object;
            public string Class, DeclaringClass, Method, Fingerprint, Arguments;
        }

        sealed class Planned
        {
            public UMonoScriptComponent Owner;
            public int Wait;
            public long ResumeFrame, FixedLeft;
            public double ResumeTime;
            public int Awaited;
            public int[] Chain;     // new objects: the resumed chain
            public int Start = -1;  // new object: the resumed coroutine's start copy
            public int Restart = -1; // new object: the restarted routine
        }

        static readonly List<Planned> s_Planned = new List<Planned>();
        static readonly List<object> s_Objects = new List<object>();
        static readonly Dictionary<Type, string> s_Fingerprints = new Dictionary<Type, string>();

        /// <summary>
        /// Decides what becomes of each exported coroutine and makes the new iterator objects.
        /// Returns the plan (element 0) and the new objects. One line per coroutine:
        /// "owner method decision reason copies fallback fallbackReason fallbackCopies", where a
        /// decision is resume, restart or stop, copies read "old&gt;new:mode,…" (indexes into the
        /// exported and the returned objects; mode all: every field but the current value;
        /// mode start: `this` and the arguments), and the fallback is what to do when a copy
        /// of the first decision fails (restart or stop).
        /// </summary>
        static object[] Plan(string exported)
        {
            s_Planned.Clear();
            s_Objects.Clear();
            s_Objects.Add(null);
            var plan = new StringBuilder();
            string[] lines = exported.Split('\n');
            for (int at = 0; at < lines.Length;)
            {
                string[] c = lines[at++].Split('\t');
                if (c.Length < 10 || c[0] != "C") continue;
                var chain = new List<Iterator>();
                while (at < lines.Length && lines[at].StartsWith("I\t", StringComparison.Ordinal))
                {
                    string[] i = lines[at++].Split('\t');
                    chain.Add(new Iterator
                    {
                        Object = int.Parse(i[1], CultureInfo.InvariantCulture), Class = i[2], DeclaringClass = i[3],
                        Method = i[4], Fingerprint = i[5], Arguments = i.Length > 6 ? i[6] : ""
                    });
                }
                PlanOne(plan, c, chain);
            }
            s_Objects[0] = plan.ToString();
            return s_Objects.ToArray();
        }

        static void PlanOne(StringBuilder plan, string[] c, List<Iterator> chain)
        {
            ulong ownerId = ulong.Parse(c[1], CultureInfo.InvariantCulture);
            string method = c[2];
            int start = int.Parse(c[8], CultureInfo.InvariantCulture);
            string problem = c[9];
            plan.Append(c[1]).Append('\t').Append(method).Append('\t');
            var p = new Planned
            {
                Owner = ScriptRuntime.ScriptById(ownerId),
                Wait = int.Parse(c[3], CultureInfo.InvariantCulture),
                ResumeFrame = long.Parse(c[4], CultureInfo.InvariantCulture),
                ResumeTime = double.Parse(c[5], NumberStyles.Float, CultureInfo.InvariantCulture),
                FixedLeft = long.Parse(c[6], CultureInfo.InvariantCulture),
                Awaited = int.Parse(c[7], CultureInfo.InvariantCulture)
            };
            if (p.Owner == null)
            {
                plan.Append("stop\tits script is no longer in the scripts (parked)\t\tstop\t\t\n");
                s_Planned.Add(p);
                return;
            }
            Iterator root = chain[0];
            if (root.Method.Length == 0)
            {
                plan.Append("stop\tit was not started from an iterator method, so it cannot be followed into new code\t\tstop\t\t\n");
                s_Planned.Add(p);
                return;
            }

            // Resume: every iterator's class has the same code in the new generation.
            string changed = problem.Length != 0 ? problem : null;
            var resumed = new List<Type>();
            foreach (Iterator i in chain)
            {
                if (changed != null) break;
                if (i.Method.Length == 0) { changed = "the nested enumerator " + i.Class + " is not an iterator method"; break; }
                Type same = SameIterator(i);
                if (same == null) changed = (i == root ? i.Method : i.Method + " (nested in " + root.Method + ")") + " was edited";
                else resumed.Add(same);
            }

            // What restarting it would take: the edited method's new iterator class, taking the
            // same arguments, and the copy of the routine made when it started.
            bool stopOnEdit;
            string restartProblem;
            Type restartClass = RestartIterator(root, out stopOnEdit, out restartProblem);
            if (restartClass != null && start < 0) { restartClass = null; restartProblem = "its arguments were not recorded when it started"; }
            string fallback, fallbackReason, fallbackCopies = "";
            if (stopOnEdit) { fallback = "stop"; fallbackReason = "[StopOnEdit]"; }
            else if (restartClass == null) { fallback = "stop"; fallbackReason = restartProblem; }
            else
            {
                fallback = "restart";
                fallbackReason = "";
                p.Restart = NewObject(restartClass);
                fallbackCopies = start + ">" + p.Restart + ":start";
            }

            if (changed == null)
            {
                var copies = new StringBuilder();
                p.Chain = new int[chain.Count];
                for (int k = 0; k < chain.Count; k++)
                {
                    p.Chain[k] = NewObject(resumed[k]);
                    copies.Append(chain[k].Object).Append('>').Append(p.Chain[k]).Append(":all,");
                }
                if (start >= 0)
                {
                    p.Start = NewObject(resumed[0]);
                    copies.Append(start).Append('>').Append(p.Start).Append(":all,");
                }
                plan.Append("resume\tits code is unchanged\t").Append(copies).Append('\t');
            }
            else if (fallback == "restart")
            {
                plan.Append("restart\t").Append(changed).Append('\t').Append(fallbackCopies).Append('\t');
                fallback = "stop";
                fallbackReason = "";
                fallbackCopies = "";
            }
            else
            {
                plan.Append("stop\t").Append(changed).Append(fallbackReason.Length != 0 ? "; " + fallbackReason : "").Append("\t\t");
                fallback = "stop";
                fallbackReason = "";
            }
            plan.Append(fallback).Append('\t').Append(fallbackReason).Append('\t').Append(fallbackCopies).Append('\n');
            s_Planned.Add(p);
        }

        static int NewObject(Type t)
        {
            s_Objects.Add(Activator.CreateInstance(t, true));
            return s_Objects.Count - 1;
        }

        // The new generation's iterator class for the same method with the same code, or null.
        static Type SameIterator(Iterator old)
        {
            Type declaring = FindType(old.DeclaringClass);
            if (declaring == null) return null;
            foreach (Type t in declaring.GetNestedTypes(BindingFlags.Public | BindingFlags.NonPublic))
                if (GeneratedNames.IteratorMethod(t) == old.Method && FingerprintOf(t) == old.Fingerprint) return t;
            return null;
        }

        // The new generation's iterator class a restart of `root` would run: the method of that
        // name whose arguments the old start copy holds (all of them; an overload with the same
        // argument names first).
        static Type RestartIterator(Iterator root, out bool stopOnEdit, out string problem)
        {
            stopOnEdit = false;
            problem = null;
            Type declaring = FindType(root.DeclaringClass);
            if (declaring == null) { problem = root.DeclaringClass + " is no longer in the scripts"; return null; }
            const BindingFlags all = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;
            bool exists = false;
            foreach (MethodInfo m in declaring.GetMethods(all))
            {
                if (m.Name != root.Method) continue;
                exists = true;
                if (m.IsDefined(typeof(StopOnEditAttribute), false)) stopOnEdit = true;
            }
            if (!exists) { problem = root.Method + " no longer exists"; return null; }
            var had = new HashSet<string>(root.Arguments.Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries));
            Type subset = null;
            foreach (Type t in declaring.GetNestedTypes(BindingFlags.Public | BindingFlags.NonPublic))
            {
                if (GeneratedNames.IteratorMethod(t) != root.Method) continue;
                string args = ArgumentFields(t);
                if (args == root.Arguments) return t;
                bool covered = true;
                foreach (string a in args.Split(new[] { ',' }, StringSplitOptions.RemoveEmptyEntries))
                    if (!had.Contains(a)) covered = false;
                if (covered && subset == null) subset = t;
            }
            if (subset == null) problem = root.Method + " is no longer an iterator method with the arguments it was started with";
            return subset;
        }

        static string FingerprintOf(Type t)
        {
            string fingerprint;
            if (!s_Fingerprints.TryGetValue(t, out fingerprint))
            {
                fingerprint = CodeFingerprint.OfType(t);
                s_Fingerprints.Add(t, fingerprint);
            }
            return fingerprint;
        }

        internal static Type FindType(string fullName)
        {
            if (string.IsNullOrEmpty(fullName)) return null;
            // ScriptCore's own (Invoke's iterator): the domain's assembly list may not name it.
            Type own = typeof(CoroutineCarry).Assembly.GetType(fullName, false);
            if (own != null) return own;
            foreach (Assembly a in AppDomain.CurrentDomain.GetAssemblies())
            {
                Type t = a.GetType(fullName, false);
                if (t != null) return t;
            }
            return null;
        }

        // ---- 3. the new generation: adoption --------------------------------------------------

        /// <summary>
        /// Takes the host's decisions, one character per planned coroutine in plan order
        /// (r: resume, s: restart, x: stop), and starts the carried coroutines in the new
        /// scheduler. Restarted ones take their first step at the next frame step. Returns
        /// how many run.
        /// </summary>
        static int Adopt(string decisions)
        {
            var adopted = new Coroutine[s_Planned.Count];
            for (int k = 0; k < s_Planned.Count && k < decisions.Length; k++)
            {
                Planned p = s_Planned[k];
                if (decisions[k] == 'r' && p.Chain != null)
                {
                    var routine = (IEnumerator)s_Objects[p.Chain[0]];
                    var c = new Coroutine(p.Owner, routine, p.Start >= 0 ? (IEnumerator)s_Objects[p.Start] : null);
                    if (p.Chain.Length > 1)
                    {
                        c.m_Nested = new List<IEnumerator>(p.Chain.Length - 1);
                        for (int i = 1; i < p.Chain.Length; i++) c.m_Nested.Add((IEnumerator)s_Objects[p.Chain[i]]);
                    }
                    c.m_Wait = (Coroutine.Wait)p.Wait;
                    c.m_ResumeFrame = p.ResumeFrame;
                    c.m_ResumeTime = p.ResumeTime;
                    adopted[k] = c;
                }
                else if (decisions[k] == 's' && p.Restart >= 0)
                {
                    var routine = (IEnumerator)s_Objects[p.Restart];
                    adopted[k] = new Coroutine(p.Owner, routine); // its start copy is taken now, before any step
                }
            }
            // Waits on another coroutine follow it into the new generation; a waiter whose
            // coroutine did not come along goes on at the next frame, as after a stop.
            for (int k = 0; k < adopted.Length; k++)
            {
                Coroutine c = adopted[k];
                if (c == null || c.m_Wait != Coroutine.Wait.Coroutine) continue;
                int awaited = s_Planned[k].Awaited;
                Coroutine other = awaited >= 0 && awaited < adopted.Length ? adopted[awaited] : null;
                if (other == null) { c.m_Wait = Coroutine.Wait.NextFrame; continue; }
                c.m_Awaited = other;
                if (other.m_Waiters == null) other.m_Waiters = new List<Coroutine>(1);
                other.m_Waiters.Add(c);
            }
            int count = 0;
            for (int k = 0; k < adopted.Length; k++)
            {
                if (adopted[k] == null) continue;
                CoroutineScheduler.Adopt(adopted[k], s_Planned[k].FixedLeft);
                count++;
            }
            s_Planned.Clear();
            s_Objects.Clear();
            return count;
        }
    }
}
