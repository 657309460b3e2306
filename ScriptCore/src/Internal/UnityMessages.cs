using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;

namespace UEngine.Internal
{
    /// <summary>
    /// Calls Unity's message methods, declared without <c>override</c>, when and in the order
    /// Unity calls them: Awake then OnEnable when a script is attached; Start once, at the next
    /// FixedUpdate or Update phase, before the script's first FixedUpdate, Update or LateUpdate
    /// (none of which runs before it); Update() and FixedUpdate() in the dispatcher's loops
    /// (<see cref="ScriptRuntime"/>); LateUpdate() after every Update, the coroutines' frame step
    /// and the await continuations; OnDisable then OnDestroy when the script is destroyed. On an
    /// inactive entity, Awake and OnEnable wait for its first activation and Start for the first
    /// frame after it; deactivating runs OnDisable, activating OnEnable. A reload restores scripts
    /// without calling any of them again (OnAfterReload is the reload's message), but an Awake or
    /// Start still owed is carried by the native slot (ScriptSlot::messagesDue) and called once.
    /// Every call is guarded like the dispatcher's: an exception is the script's failure, an
    /// abort by the watchdog stops only that script.
    /// </summary>
    static class UnityMessages
    {
        // Phase numbers shared with the host (host/model/script_phase.hpp).
        internal const int PhaseAwake = 8;
        internal const int PhaseStart = 9;
        internal const int PhaseLateUpdate = 10;
        internal const int PhaseOnEnable = 11;
        internal const int PhaseOnDisable = 12;
        internal const int PhaseOnDestroy = 13;

        static readonly List<UMonoScriptComponent> s_PendingStart = new List<UMonoScriptComponent>();
        static readonly List<UMonoScriptComponent> s_PendingAwake = new List<UMonoScriptComponent>();
        static readonly List<UMonoScriptComponent> s_LateUpdate = new List<UMonoScriptComponent>();

        /// <summary>Scripts scheduled for LateUpdate (detached ones may still be in it).</summary>
        internal static List<UMonoScriptComponent> LateUpdateScripts { get { return s_LateUpdate; } }

        /// <summary>
        /// Binds a newly attached script's per-frame messages and schedules its LateUpdate; a new
        /// script (not one a reload restores) gets Awake and OnEnable now and Start later.
        /// </summary>
        internal static void Attached(UMonoScriptComponent script, int messages, bool isNew)
        {
            MessageMethods methods = MessageMethods.Of(script.GetType());
            script.m_Messages = messages;
            Action update = methods.Bind(script, MessageMethods.Update);
            if (update != null && (messages & 1) != 0) // it overrides Update(float) too: both run
            {
                Action unity = update;
                update = () => { script.Update(Time.deltaTime); unity(); };
            }
            script.m_UpdateMessage = update;
            Action fixedUpdate = methods.Bind(script, MessageMethods.FixedUpdate);
            if (fixedUpdate != null && (messages & 2) != 0)
            {
                Action unity = fixedUpdate;
                fixedUpdate = () => { script.FixedUpdate(Time.fixedDeltaTime); unity(); };
            }
            script.m_FixedUpdateMessage = fixedUpdate;
            script.m_LateUpdateMessage = methods.Bind(script, MessageMethods.LateUpdate);
            if (!isNew)
            {
                // Restored by a reload: only what it was still owed.
                // (A script waiting for its Awake joins the Start list once awake.)
                if ((messages & (int)ScriptRuntime.Messages.AwakeDue) != 0) s_PendingAwake.Add(script);
                else if ((messages & (int)ScriptRuntime.Messages.StartDue) != 0) s_PendingStart.Add(script);
                return;
            }
            if (script.m_Inactive)
            {
                s_PendingAwake.Add(script);
                Internal_SetMessagesDue(script.m_NativeId, MessageMethods.Awake | MessageMethods.Start);
                return;
            }
            s_PendingStart.Add(script);
            Internal_SetMessagesDue(script.m_NativeId, MessageMethods.Start);
            Call(script, MessageMethods.Awake, PhaseAwake);
            if (script.isActiveAndEnabled) Call(script, MessageMethods.OnEnable, PhaseOnEnable);
        }

        /// <summary>
        /// A script being destroyed: OnDisable (when it ran), then OnDestroy. A script whose entity
        /// was never active gets neither (it never had its Awake), as in Unity.
        /// </summary>
        internal static void Detaching(UMonoScriptComponent script, bool wasEnabled)
        {
            if (s_PendingAwake.Remove(script)) return;
            if (wasEnabled) Call(script, MessageMethods.OnDisable, PhaseOnDisable);
            Call(script, MessageMethods.OnDestroy, PhaseOnDestroy);
        }

        /// <summary>
        /// The script's entity was activated or deactivated (it ran before when
        /// <paramref name="was"/>): a first activation calls the pending Awake; then OnEnable or
        /// OnDisable when whether the script runs changed.
        /// </summary>
        internal static void ActiveChanged(UMonoScriptComponent script, bool was)
        {
            if (!script.m_Inactive && s_PendingAwake.Remove(script))
            {
                s_PendingStart.Add(script);
                Internal_SetMessagesDue(script.m_NativeId, MessageMethods.Start);
                Call(script, MessageMethods.Awake, PhaseAwake);
                if (script.isActiveAndEnabled) Call(script, MessageMethods.OnEnable, PhaseOnEnable);
                return;
            }
            if (was != script.isActiveAndEnabled) EnabledChanged(script, script.isActiveAndEnabled);
        }

        /// <summary>OnEnable or OnDisable, when the script's enabled state changed.</summary>
        internal static void EnabledChanged(UMonoScriptComponent script, bool enabled)
        {
            if (enabled) Call(script, MessageMethods.OnEnable, PhaseOnEnable);
            else Call(script, MessageMethods.OnDisable, PhaseOnDisable);
        }

        static void Call(UMonoScriptComponent script, int message, int phase)
        {
            if ((script.m_Messages & message) == 0) return;
            try { MessageMethods.Of(script.GetType()).Call(script, message); }
            catch (ThreadAbortException e) { Thread.ResetAbort(); ScriptRuntime.Stopped(script, phase, e); }
            catch (Exception e) { ScriptRuntime.Fail(script, phase, e); }
        }

        /// <summary>True when some new script still waits for its Start (and its first Update).</summary>
        internal static bool StartsPending { get { return s_PendingStart.Count != 0; } }

        /// <summary>
        /// Schedules every new script attached since the last phase for its per-frame messages
        /// and calls its Start, in attach order. A disabled script, or one on an inactive entity,
        /// keeps waiting (Unity starts it when it first runs); a script attached by a Start starts
        /// at the next phase.
        /// </summary>
        internal static void RunStarts()
        {
            UMonoScriptComponent[] starting = s_PendingStart.ToArray();
            s_PendingStart.Clear();
            for (int i = 0; i < starting.Length; i++)
            {
                try
                {
                    for (; i < starting.Length; i++)
                    {
                        UMonoScriptComponent script = starting[i];
                        if (script.m_Detached) continue;
                        if (!script.isActiveAndEnabled) { s_PendingStart.Add(script); continue; }
                        ScriptRuntime.Schedule(script, script.m_Messages);
                        Internal_SetMessagesDue(script.m_NativeId, 0);
                        Call(script, MessageMethods.Start, PhaseStart);
                    }
                }
                catch (ThreadAbortException) { Thread.ResetAbort(); ScriptRuntime.AbortHandled(); } // see ScriptRuntime.RunUpdate
            }
        }

        /// <summary>LateUpdate of every scheduled script, the last step of a frame's Update phase.</summary>
        internal static void RunLateUpdate()
        {
            int count = s_LateUpdate.Count;
            for (int i = 0; i < count; i++)
            {
                try
                {
                    for (; i < count; i++)
                    {
                        UMonoScriptComponent script = s_LateUpdate[i];
                        if (script.m_Disabled || script.m_Detached || script.m_SelfDisabled || script.m_Inactive) continue;
                        try { script.m_LateUpdateMessage(); }
                        catch (ThreadAbortException e) { Thread.ResetAbort(); ScriptRuntime.Stopped(script, PhaseLateUpdate, e); }
                        catch (Exception e) { ScriptRuntime.Fail(script, PhaseLateUpdate, e); }
                    }
                }
                catch (ThreadAbortException) { Thread.ResetAbort(); ScriptRuntime.AbortHandled(); } // see ScriptRuntime.RunUpdate
            }
        }

        /// <summary>Drops destroyed scripts from the lists.</summary>
        internal static void Compact()
        {
            s_LateUpdate.RemoveAll(s => s.m_Detached);
            s_PendingStart.RemoveAll(s => s.m_Detached);
            s_PendingAwake.RemoveAll(s => s.m_Detached);
        }

        /// <summary>
        /// Records in the script's native slot the messages (MessageMethods bits: Awake, Start) it
        /// is still owed, so a reload carries them.
        /// </summary>
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetMessagesDue(ulong scriptId, int messages);
    }
}
