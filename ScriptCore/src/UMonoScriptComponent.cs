namespace UEngine
{
    /// <summary>
    /// Base class of every game script. Override the messages you need; the host only
    /// schedules a script for Update / FixedUpdate when its class overrides them.
    /// </summary>
    public abstract class UMonoScriptComponent : UComponent
    {
        // Dispatcher bookkeeping; internal, so invisible to scripts and to serialisation.
        internal int m_ConsecutiveFailures;
        internal bool m_Disabled;
        internal bool m_Detached;

        /// <summary>Called once when the script is attached to its entity.</summary>
        public virtual void Initialize() { }

        /// <summary>Called once per frame with the frame's duration in seconds.</summary>
        public virtual void Update(float deltaTime) { }

        /// <summary>Called at a fixed rate with the fixed step in seconds.</summary>
        public virtual void FixedUpdate(float fixedDeltaTime) { }

        /// <summary>Called once when the script is removed from its entity.</summary>
        public virtual void Destroy() { }

        /// <summary>
        /// Called after a hot reload restored this script's fields into the new code
        /// (Initialize does not run again). Throwing here rolls the reload back.
        /// </summary>
        public virtual void OnAfterReload() { }

        /// <summary>False once the host has disabled the script (after repeated failures).</summary>
        public bool enabled { get { return !m_Disabled && !m_Detached; } }
    }
}
