using System.Runtime.CompilerServices;

namespace UEngine.Internal
{
    /// <summary>
    /// Whether a script runs: its own <c>enabled</c> (Unity's, kept in its native slot), the
    /// host's (it disables a script after repeated failures), and its entity's active flag
    /// (UEntity.SetActive). Each change calls OnEnable or OnDisable when whether the script runs
    /// (<see cref="UMonoScriptComponent.isActiveAndEnabled"/>) changed.
    /// </summary>
    static class ScriptActivation
    {
        /// <summary>The host enables or disables a script; a re-enabled script starts with a clean failure count.</summary>
        internal static void SetEnabled(UMonoScriptComponent script, bool enabled)
        {
            bool was = script.isActiveAndEnabled;
            script.m_Disabled = !enabled;
            script.m_ConsecutiveFailures = 0;
            if (!enabled && CoroutineScheduler.Count != 0) CoroutineScheduler.StopAll(script);
            AfterEnabledSet(script, was);
        }

        /// <summary>
        /// A script set its own <see cref="UMonoScriptComponent.enabled"/>: recorded in its native
        /// slot (saved, carried), then OnEnable or OnDisable. Nothing happens once it is destroyed.
        /// </summary>
        internal static void SetSelfEnabled(UMonoScriptComponent script, bool enabled)
        {
            if (script.m_Detached || script.m_SelfDisabled == !enabled) return;
            bool was = script.isActiveAndEnabled;
            script.m_SelfDisabled = !enabled;
            Internal_SetSelfEnabled(script.m_NativeId, enabled);
            AfterEnabledSet(script, was);
        }

        /// <summary>
        /// The host has set an entity's active flag (UEntity.SetActive): each of its scripts
        /// stops or resumes its messages, in the order attached. Deactivating runs OnDisable and
        /// stops the scripts' coroutines (not their Invokes), as in Unity; activating runs a
        /// pending Awake, then OnEnable.
        /// </summary>
        internal static void EntityActiveChanged(ulong entityId, bool active)
        {
            foreach (UMonoScriptComponent script in ScriptRuntime.ScriptsOn(entityId))
            {
                if (script.m_Detached || script.m_Inactive == !active) continue;
                bool was = script.isActiveAndEnabled;
                script.m_Inactive = !active;
                if (!active && CoroutineScheduler.Count != 0) CoroutineScheduler.StopAll(script, false);
                if ((script.m_Messages & MessageMethods.Any) != 0) UnityMessages.ActiveChanged(script, was);
            }
        }

        static void AfterEnabledSet(UMonoScriptComponent script, bool was)
        {
            if (was != script.isActiveAndEnabled && (script.m_Messages & MessageMethods.Any) != 0)
                UnityMessages.EnabledChanged(script, script.isActiveAndEnabled);
        }

        /// <summary>Records in the script's native slot what the script set its enabled to.</summary>
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetSelfEnabled(ulong scriptId, bool enabled);
    }
}
