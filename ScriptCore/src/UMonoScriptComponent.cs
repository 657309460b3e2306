using System;
using System.Collections;
using UEngine.Internal;

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
        internal bool m_SelfDisabled; // the script's own enabled = false; kept in its native slot
        internal bool m_Inactive;     // its entity is inactive (UEntity.SetActive(false))
        // The Unity message methods the class declares (MessageMethods bits) and delegates to
        // the per-frame ones (null when the class declares none), bound at attach.
        internal int m_Messages;
        internal System.Action m_UpdateMessage;
        internal System.Action m_FixedUpdateMessage;
        internal System.Action m_LateUpdateMessage;

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

        /// <summary>
        /// Whether the script's messages run (Unity's MonoBehaviour.enabled). Set it to false and
        /// its Update, FixedUpdate and LateUpdate stop and OnDisable runs; set it back to true and
        /// OnEnable runs (and Start, if it has not run yet). Its coroutines go on, as in Unity.
        /// What a script sets is saved with the scene and kept across a reload. Reads false too
        /// while the host has disabled the script after repeated failures (until the next
        /// reload) and once it is destroyed.
        /// </summary>
        public bool enabled
        {
            get { return !m_Disabled && !m_Detached && !m_SelfDisabled; }
            set { ScriptActivation.SetSelfEnabled(this, value); }
        }

        /// <summary>
        /// Enabled and on an active entity: whether the script's messages run (Unity's
        /// Behaviour.isActiveAndEnabled). See <see cref="UEntity.SetActive"/>.
        /// </summary>
        public bool isActiveAndEnabled
        {
            get { return !m_Disabled && !m_Detached && !m_SelfDisabled && !m_Inactive; }
        }

        /// <summary>
        /// Starts a coroutine: runs <paramref name="routine"/> now up to its first
        /// <c>yield return</c>, then resumes it on the game loop after every script's Update,
        /// when what it yielded is over: <c>null</c> (the next frame), <see cref="WaitForSeconds"/>,
        /// <see cref="WaitForSecondsRealtime"/>, <see cref="WaitForFixedUpdate"/>,
        /// <see cref="WaitUntil"/>, <see cref="WaitWhile"/>, another <see cref="IEnumerator"/>
        /// (run inside this one until it ends), a <see cref="Coroutine"/> (until it ends) or a
        /// <see cref="System.Threading.Tasks.Task"/> (until it completes). The coroutine stops when
        /// this script is destroyed or disabled, or when it throws (reported as this script's
        /// failure). Throws when the script is disabled or destroyed. On an inactive entity it
        /// starts nothing, logs an error and returns null, as Unity does.
        /// </summary>
        public Coroutine StartCoroutine(IEnumerator routine)
        {
            if (m_Inactive && !m_Detached)
            {
                Debug.LogError("Coroutine couldn't be started because the game object '" + gameObject.name + "' is inactive!");
                return null;
            }
            return CoroutineScheduler.Start(this, routine);
        }

        /// <summary>Stops a coroutine this script started; its finally blocks run. Null or finished: nothing happens.</summary>
        public void StopCoroutine(Coroutine routine)
        {
            if (routine != null && ReferenceEquals(routine.m_Owner, this)) CoroutineScheduler.Stop(routine);
        }

        /// <summary>Stops the coroutines this script started with this enumerator.</summary>
        public void StopCoroutine(IEnumerator routine)
        {
            CoroutineScheduler.StopRoutine(this, routine);
        }

        /// <summary>Stops every coroutine this script started (not its pending Invoke calls).</summary>
        public void StopAllCoroutines()
        {
            CoroutineScheduler.StopAll(this, false);
        }

        /// <summary>
        /// Calls the method named <paramref name="methodName"/> (an instance method of this
        /// script without parameters, any visibility) in <paramref name="time"/> seconds of game
        /// time, after that frame's Update, as Unity does; also while the script is disabled. A
        /// name this script has no such method for is logged as an error and nothing is called.
        /// The pending call is carried across a reload; the new code's method is called.
        /// </summary>
        public void Invoke(string methodName, float time)
        {
            Invocations.Start(this, methodName, time, 0f);
        }

        /// <summary>
        /// Calls the method named <paramref name="methodName"/> in <paramref name="time"/>
        /// seconds, then every <paramref name="repeatRate"/> seconds until
        /// <see cref="CancelInvoke()"/> or the script is destroyed. The times are kept
        /// exactly (a late frame delays one call, not the next ones). An exception in the method
        /// is reported as this script's failure and the calls go on.
        /// </summary>
        public void InvokeRepeating(string methodName, float time, float repeatRate)
        {
            if (!(repeatRate > 0.00001f))
                throw new ArgumentOutOfRangeException("repeatRate", repeatRate, "InvokeRepeating: the repeat rate must be larger than 0.00001 seconds");
            Invocations.Start(this, methodName, time, repeatRate);
        }

        /// <summary>Cancels every pending Invoke and InvokeRepeating call of this script.</summary>
        public void CancelInvoke() { Invocations.Cancel(this, null); }

        /// <summary>Cancels this script's pending calls of the method named <paramref name="methodName"/>.</summary>
        public void CancelInvoke(string methodName)
        {
            if (methodName == null) throw new ArgumentNullException("methodName");
            Invocations.Cancel(this, methodName);
        }

        /// <summary>Whether this script has any Invoke or InvokeRepeating call pending.</summary>
        public bool IsInvoking() { return Invocations.Pending(this, null); }

        /// <summary>Whether a call of the method named <paramref name="methodName"/> is pending.</summary>
        public bool IsInvoking(string methodName)
        {
            if (methodName == null) throw new ArgumentNullException("methodName");
            return Invocations.Pending(this, methodName);
        }
    }
}
