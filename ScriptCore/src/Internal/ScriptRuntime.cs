using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.CompilerServices;
using System.Threading;

namespace UEngine.Internal
{
    /// <summary>
    /// The managed dispatcher. The host makes one call per phase per frame (RunUpdate,
    /// RunFixedUpdate) and this class iterates the scripts inside managed code, so a frame
    /// costs one native→managed transition per phase instead of one per script. Only
    /// scripts whose class overrides a message are scheduled for it. Every script call is
    /// guarded: an exception is reported to the host, which logs it and decides whether to
    /// disable the script; the other scripts of the phase still run. A script the host's
    /// watchdog aborts (it ran past its time budget) is disabled and reported; the abort
    /// is reset here, so the rest of the phase and the frame go on.
    /// </summary>
    static class ScriptRuntime
    {
        // Phase numbers shared with the host (host/src/mono/script_phase.hpp).
        const int PhaseInitialize = 0;
        const int PhaseUpdate = 1;
        const int PhaseFixedUpdate = 2;
        const int PhaseDestroy = 3;
        internal const int PhaseCoroutine = 5;
        internal const int PhaseContinuation = 6;

        // Shared with the host (ManagedDispatcher::AttachFlag, same bits).
        // The Unity message bits above these are MessageMethods'.
        // SelfDisabled: the script set its enabled to false (carried through its native slot).
        // EntityInactive: its entity is inactive. AwakeDue, StartDue: Unity messages the script
        // has not had yet (its native slot's messagesDue, so a reload does not lose them).
        [Flags]
        internal enum Messages
        {
            None = 0, Update = 1, FixedUpdate = 2,
            StartDue = 1 << 27, AwakeDue = 1 << 28, EntityInactive = 1 << 29, SelfDisabled = 1 << 30
        }

        // Keyed maps hold `object` values: Dictionary<ulong, object> involves only class
        // library types, so Mono can share its compiled code across app domains instead
        // of JIT-compiling it again in every generation (milliseconds per reload).
        // s_ByEntity holds an entity's script itself, or a List of them once it has several:
        // most entities carry one script, and a list each would be garbage a reload makes.
        // Not readonly: Reserve replaces them with presized maps in a new generation.
        static Dictionary<ulong, object> s_ById = new Dictionary<ulong, object>();
        static Dictionary<ulong, object> s_ByEntity = new Dictionary<ulong, object>();

        internal static bool TryGet<T>(Dictionary<ulong, object> map, ulong key, out T value) where T : class
        {
            object found;
            bool ok = map.TryGetValue(key, out found);
            value = found as T;
            return ok;
        }
        static readonly List<UMonoScriptComponent> s_Attached = new List<UMonoScriptComponent>();
        static readonly List<UMonoScriptComponent> s_Update = new List<UMonoScriptComponent>();
        static readonly List<UMonoScriptComponent> s_FixedUpdate = new List<UMonoScriptComponent>();
        static bool s_NeedsCompaction;
        static int s_ReservedMaps; // the capacity Reserve gave the (still empty) maps

        // The game loop's SynchronizationContext: `await` on the main thread comes back here.
        // Each generation (app domain) has its own Thread object for the main thread, so each
        // sets it once, on the first dispatcher call in its domain (which is on the main thread).
        static readonly GameLoopSynchronizationContext s_Context = InstallContext();
        static readonly Action<Exception, bool> s_ContinuationFailed = ContinuationFailed;

        static GameLoopSynchronizationContext InstallContext()
        {
            var context = new GameLoopSynchronizationContext(Thread.CurrentThread.ManagedThreadId);
            SynchronizationContext.SetSynchronizationContext(context);
            return context;
        }

        /// <summary>
        /// The host's one entry point into the dispatcher: `op` picks the method (the host's
        /// ManagedDispatcher::Op, same numbers), the other parameters carry its arguments
        /// (unused ones are zero) and `result` an integer result. Returns the object result
        /// (an exception a phase reports, a text) or null. One method instead of one per
        /// operation because Mono keeps, for every generation, a few hundred bytes per
        /// managed method the host calls into (its unmanaged thunk's wrapper) after the
        /// generation's domain is unloaded (docs/MONO.md section 19).
        /// </summary>
        static object Call(int op, object arg, ulong a, ulong b, int i, int j, float f, double d, ref ulong result)
        {
            switch (op)
            {
                case 0: Attach((UMonoScriptComponent)arg, a, b, i != 0, j); return null;
                case 1: Detach(a); return null;
                case 2: SetEnabled(a, i != 0); return null;
                case 3: RunUpdate(f, d, (long)a); return null;
                case 4: RunFixedUpdate(f, d, (long)a); return null;
                case 5: result = (ulong)CountScheduled(i); return null;
                case 6: return RunAfterReload(out result);
                case 7: return RunClassConstructor((Type)arg);
                case 8: Reserve(i); return null;
                case 9: DispatcherWarmUp.Warm(i); return null;
                case 10: return DescribeInFlightAwaits();
                case 11: return CoroutineCarry.Export();
                case 12: ScriptActivation.EntityActiveChanged(a, i != 0); return null;
                default: throw new ArgumentOutOfRangeException("op", op, "no such dispatcher operation");
            }
        }

        /// <summary>
        /// Binds a new script instance to its ids, schedules it and, when asked, runs
        /// Initialize (a reload restores instances without running it again).
        /// </summary>
        static void Attach(UMonoScriptComponent script, ulong scriptId, ulong entityId, bool runInitialize, int messages)
        {
            script.m_NativeId = scriptId;
            script.m_EntityId = entityId;
            script.m_SelfDisabled = (messages & (int)Messages.SelfDisabled) != 0;
            script.m_Inactive = (messages & (int)Messages.EntityInactive) != 0;
            s_ById[scriptId] = script;
            object onEntity;
            if (!s_ByEntity.TryGetValue(entityId, out onEntity))
            {
                s_ByEntity.Add(entityId, script);
            }
            else
            {
                var several = onEntity as List<UMonoScriptComponent>;
                if (several == null)
                {
                    several = new List<UMonoScriptComponent>(2);
                    several.Add((UMonoScriptComponent)onEntity);
                    s_ByEntity[entityId] = several;
                }
                several.Add(script);
            }
            s_Attached.Add(script);

            // A new script with Unity messages, or a restored one still waiting for its Start,
            // is scheduled when its Start runs (Unity calls no Update before Start); the others
            // at once.
            bool unity = (messages & MessageMethods.Any) != 0;
            if (!unity || (!runInitialize && (messages & (int)Messages.StartDue) == 0)) Schedule(script, messages);

            if (runInitialize)
            {
                try { script.Initialize(); }
                catch (ThreadAbortException e) { Thread.ResetAbort(); Stopped(script, PhaseInitialize, e); }
                catch (Exception e) { Fail(script, PhaseInitialize, e); }
            }
            if (unity) UnityMessages.Attached(script, messages, runInitialize);
        }

        /// <summary>
        /// Schedules a script for the phases its class overrides or declares Unity's way: the
        /// host read that from the metadata (no reflection here for a class without Unity
        /// messages, which would cost milliseconds in every new domain).
        /// </summary>
        internal static void Schedule(UMonoScriptComponent script, int messages)
        {
            if ((messages & ((int)Messages.Update | MessageMethods.Update)) != 0) s_Update.Add(script);
            if ((messages & ((int)Messages.FixedUpdate | MessageMethods.FixedUpdate)) != 0) s_FixedUpdate.Add(script);
            if ((messages & MessageMethods.LateUpdate) != 0) UnityMessages.LateUpdateScripts.Add(script);
        }

        /// <summary>Runs Destroy and unschedules the script. Unknown ids are ignored.</summary>
        static void Detach(ulong scriptId)
        {
            UMonoScriptComponent script;
            if (!TryGet(s_ById, scriptId, out script))
                return;
            s_ById.Remove(scriptId);
            object onEntity;
            if (s_ByEntity.TryGetValue(script.m_EntityId, out onEntity))
            {
                var several = onEntity as List<UMonoScriptComponent>;
                if (several == null)
                {
                    if (ReferenceEquals(onEntity, script)) s_ByEntity.Remove(script.m_EntityId);
                }
                else
                {
                    several.Remove(script);
                    if (several.Count == 0) s_ByEntity.Remove(script.m_EntityId);
                }
            }
            bool wasEnabled = script.isActiveAndEnabled;
            script.m_Detached = true;
            script.m_Destroyed = true; // == null from now on, as in Unity
            s_NeedsCompaction = true;
            if ((script.m_Messages & MessageMethods.Any) != 0) UnityMessages.Detaching(script, wasEnabled);
            try { script.Destroy(); }
            catch (ThreadAbortException e) { Thread.ResetAbort(); Stopped(script, PhaseDestroy, e); }
            catch (Exception e) { Fail(script, PhaseDestroy, e); }
            if (CoroutineScheduler.Count != 0) CoroutineScheduler.StopAll(script);
        }

        /// <summary>The host enables or disables a script (ScriptActivation.SetEnabled). Unknown ids are ignored.</summary>
        static void SetEnabled(ulong scriptId, bool enabled)
        {
            UMonoScriptComponent script;
            if (TryGet(s_ById, scriptId, out script)) ScriptActivation.SetEnabled(script, enabled);
        }

        /// <summary>
        /// Makes room for <paramref name="scripts"/> more attached scripts, so attaching a
        /// whole generation in one frame (a reload) does not regrow the maps and lists
        /// step by step. Empty maps are replaced by presized ones.
        /// </summary>
        static void Reserve(int scripts)
        {
            if (scripts <= 0) return;
            if (s_ById.Count == 0 && s_ByEntity.Count == 0 && scripts > s_ReservedMaps)
            {
                s_ById = new Dictionary<ulong, object>(scripts);
                s_ByEntity = new Dictionary<ulong, object>(scripts);
                s_ReservedMaps = scripts;
            }
            int wanted = s_Attached.Count + scripts;
            if (s_Attached.Capacity < wanted) s_Attached.Capacity = wanted;
            if (s_Update.Capacity < wanted) s_Update.Capacity = wanted;
        }

        /// <summary>
        /// The Update phase: every scheduled script's Update, then the coroutines' frame step,
        /// then the await continuations posted to the game loop since the last frame.
        /// </summary>
        static void RunUpdate(float deltaTime, double time, long frame)
        {
            if (s_NeedsCompaction) Compact();
            // A script may have replaced the context (SetSynchronizationContext): put it back.
            if (SynchronizationContext.Current != s_Context) SynchronizationContext.SetSynchronizationContext(s_Context);
            Time.s_DeltaTime = deltaTime;
            Time.s_Time = time;
            Time.s_FrameCount = frame;
            if (UnityMessages.StartsPending) UnityMessages.RunStarts();
            // Scripts attached during this loop run from the next frame on.
            int count = s_Update.Count;
            for (int i = 0; i < count; i++)
            {
                try
                {
                    for (; i < count; i++)
                    {
                        UMonoScriptComponent script = s_Update[i];
                        if (script.m_Disabled || script.m_Detached || script.m_SelfDisabled || script.m_Inactive) continue;
                        try
                        {
                            Action unity = script.m_UpdateMessage;
                            if (unity == null) script.Update(deltaTime);
                            else unity();
                            script.m_ConsecutiveFailures = 0;
                        }
                        catch (ThreadAbortException e) { Thread.ResetAbort(); Stopped(script, PhaseUpdate, e); }
                        catch (Exception e) { Fail(script, PhaseUpdate, e); }
                    }
                }
                // The watchdog's abort came just as a script returned and landed here, between
                // two scripts: nobody to blame; the loop goes on with the next script.
                catch (ThreadAbortException) { Thread.ResetAbort(); Internal_AbortHandled(); }
            }
            if (CoroutineScheduler.Count != 0) CoroutineScheduler.StepFrame();
            if (s_Context.HasWork) s_Context.RunPosted(s_ContinuationFailed);
            if (UnityMessages.LateUpdateScripts.Count != 0) UnityMessages.RunLateUpdate();
        }

        /// <summary>One fixed step of frame <paramref name="frame"/>: every FixedUpdate, then the coroutines waiting for it.</summary>
        static void RunFixedUpdate(float fixedDeltaTime, double time, long frame)
        {
            if (s_NeedsCompaction) Compact();
            Time.s_DeltaTime = fixedDeltaTime;
            Time.s_FixedDeltaTime = fixedDeltaTime;
            Time.s_Time = time;
            Time.s_FrameCount = frame;
            if (UnityMessages.StartsPending) UnityMessages.RunStarts();
            int count = s_FixedUpdate.Count;
            for (int i = 0; i < count; i++)
            {
                try
                {
                    for (; i < count; i++)
                    {
                        UMonoScriptComponent script = s_FixedUpdate[i];
                        if (script.m_Disabled || script.m_Detached || script.m_SelfDisabled || script.m_Inactive) continue;
                        try
                        {
                            Action unity = script.m_FixedUpdateMessage;
                            if (unity == null) script.FixedUpdate(fixedDeltaTime);
                            else unity();
                            script.m_ConsecutiveFailures = 0;
                        }
                        catch (ThreadAbortException e) { Thread.ResetAbort(); Stopped(script, PhaseFixedUpdate, e); }
                        catch (Exception e) { Fail(script, PhaseFixedUpdate, e); }
                    }
                }
                catch (ThreadAbortException) { Thread.ResetAbort(); Internal_AbortHandled(); } // see RunUpdate
            }
            CoroutineScheduler.StepFixed();
        }

        /// <summary>
        /// Calls OnAfterReload on every attached script, in attach order. Stops at the
        /// first exception and returns it (the host then rolls the reload back), with the
        /// failing script's id; returns null when all succeeded.
        /// </summary>
        static Exception RunAfterReload(out ulong failedScript)
        {
            failedScript = 0;
            foreach (UMonoScriptComponent script in s_Attached)
            {
                if (script.m_Detached) continue;
                try { script.OnAfterReload(); }
                catch (ThreadAbortException e) { Thread.ResetAbort(); failedScript = script.m_NativeId; return e; }
                catch (Exception e) { failedScript = script.m_NativeId; return e; }
            }
            return null;
        }

        /// <summary>
        /// Runs a class's static constructor now (the host does this before it reads or
        /// restores [PreserveStatic] fields, so a later first use cannot overwrite them).
        /// Returns its exception instead of throwing it.
        /// </summary>
        static Exception RunClassConstructor(Type type)
        {
            try { System.Runtime.CompilerServices.RuntimeHelpers.RunClassConstructor(type.TypeHandle); return null; }
            catch (ThreadAbortException e) { Thread.ResetAbort(); return e; }
            catch (Exception e) { return e.InnerException ?? e; }
        }

        /// <summary>How many scripts are scheduled for a phase (1 Update, 2 FixedUpdate, 10 LateUpdate), disabled ones excluded.</summary>
        static int CountScheduled(int phase)
        {
            List<UMonoScriptComponent> list = phase == PhaseUpdate ? s_Update : phase == PhaseFixedUpdate ? s_FixedUpdate
                : phase == UnityMessages.PhaseLateUpdate ? UnityMessages.LateUpdateScripts : null;
            if (list == null) return 0;
            int n = 0;
            foreach (UMonoScriptComponent s in list)
                if (!s.m_Disabled && !s.m_Detached && !s.m_SelfDisabled && !s.m_Inactive) n++;
            return n;
        }

        /// <summary>The attached scripts, in attach order (detached ones may still be in it, marked m_Detached).</summary>
        internal static List<UMonoScriptComponent> Attached { get { return s_Attached; } }

        /// <summary>The attached script with this id, or null.</summary>
        internal static UMonoScriptComponent ScriptById(ulong scriptId)
        {
            UMonoScriptComponent script;
            TryGet(s_ById, scriptId, out script);
            return script;
        }

        /// <summary>The scripts on the entity, in attach order (a copy: the caller may attach or detach).</summary>
        internal static UMonoScriptComponent[] ScriptsOn(ulong entityId)
        {
            object onEntity;
            if (!s_ByEntity.TryGetValue(entityId, out onEntity)) return new UMonoScriptComponent[0];
            var several = onEntity as List<UMonoScriptComponent>;
            return several != null ? several.ToArray() : new[] { (UMonoScriptComponent)onEntity };
        }

        /// <summary>The first script on the entity whose class is <paramref name="type"/> or derives from it.</summary>
        internal static UComponent FindScript(ulong entityId, Type type)
        {
            object onEntity;
            if (!s_ByEntity.TryGetValue(entityId, out onEntity))
                return null;
            var several = onEntity as List<UMonoScriptComponent>;
            if (several == null)
                return type.IsInstanceOfType(onEntity) ? (UComponent)onEntity : null;
            foreach (UMonoScriptComponent s in several)
                if (type.IsInstanceOfType(s)) return s;
            return null;
        }

        internal static void Fail(UMonoScriptComponent script, int phase, Exception e)
        {
            script.m_ConsecutiveFailures++;
            if (Internal_ReportException(script.m_NativeId, phase, script.m_ConsecutiveFailures, e))
                Disable(script);
        }

        static void Disable(UMonoScriptComponent script)
        {
            script.m_Disabled = true;
            if (CoroutineScheduler.Count != 0) CoroutineScheduler.StopAll(script);
        }

        internal static void AbortHandled() { Internal_AbortHandled(); }

        /// <summary>
        /// An await continuation (or an async void method's exception, which the compiler's
        /// builder posts here) threw on the game loop. The exception is charged to the script
        /// class whose code it came from; to the script itself when exactly one of that class
        /// is attached, else it is reported with the class alone.
        /// </summary>
        static void ContinuationFailed(Exception e, bool aborted)
        {
            Type scriptClass;
            UMonoScriptComponent script = ScriptOf(e, out scriptClass);
            if (!ReferenceEquals(script, null))
            {
                if (aborted) Stopped(script, PhaseContinuation, (ThreadAbortException)e);
                else Fail(script, PhaseContinuation, e);
                return;
            }
            if (aborted) Internal_AbortHandled();
            Internal_ReportUnattributed(PhaseContinuation, scriptClass == null ? null : scriptClass.FullName, e);
        }

        /// <summary>
        /// The script class the exception came from (<see cref="ScriptStack.ScriptClassOf"/>)
        /// and, when it is a script component class with exactly one attached script, that
        /// script (else null).
        /// </summary>
        static UMonoScriptComponent ScriptOf(Exception e, out Type scriptClass)
        {
            scriptClass = ScriptStack.ScriptClassOf(e);
            if (scriptClass == null || !typeof(UMonoScriptComponent).IsAssignableFrom(scriptClass)) return null;
            UMonoScriptComponent only = null;
            foreach (UMonoScriptComponent s in s_Attached)
            {
                if (s.m_Detached || s.GetType() != scriptClass) continue;
                if (only != null) return null;
                only = s;
            }
            return only;
        }

        /// <summary>The running coroutines, one line each: "scriptId\tmethod\twaiting for".</summary>
        static string DescribeCoroutines() { return CoroutineScheduler.Describe(); }
        static string DescribeInFlightAwaits() { return s_Context.DescribeInFlight(); }

        /// <summary>Await continuations posted to the game loop and not run yet.</summary>
        static int PendingContinuations() { return s_Context.Pending; }

        /// <summary>
        /// The host's watchdog stopped a script that ran past its time budget (the abort
        /// has been reset, so the frame goes on): the script is disabled and reported.
        /// </summary>
        internal static void Stopped(UMonoScriptComponent script, int phase, ThreadAbortException e)
        {
            Disable(script);
            Internal_ReportStopped(script.m_NativeId, phase, e);
        }

        static void Compact()
        {
            s_Attached.RemoveAll(s => s.m_Detached);
            s_Update.RemoveAll(s => s.m_Detached);
            s_FixedUpdate.RemoveAll(s => s.m_Detached);
            UnityMessages.Compact();
            s_NeedsCompaction = false;
        }

        /// <summary>
        /// Tells the host a script threw. Returns true when the host wants the script disabled.
        /// </summary>
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern bool Internal_ReportException(ulong scriptId, int phase, int consecutiveFailures, Exception exception);

        /// <summary>
        /// Tells the host that code on the game loop no single script can be charged with threw
        /// (<paramref name="scriptClass"/>: the script class it came from, or null).
        /// </summary>
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_ReportUnattributed(int phase, string scriptClass, Exception exception);

        /// <summary>Tells the host the watchdog stopped a script (it is disabled).</summary>
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_ReportStopped(ulong scriptId, int phase, Exception exception);

        /// <summary>Tells the host's watchdog an abort was reset, so it may stop the next runaway.</summary>
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_AbortHandled();
    }
}
