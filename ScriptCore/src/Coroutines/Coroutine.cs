using System;
using System.Collections;
using System.Collections.Generic;

namespace UEngine
{
    /// <summary>
    /// A running coroutine, as returned by <see cref="UMonoScriptComponent.StartCoroutine"/>.
    /// Yield it from another coroutine to wait until it finishes; pass it to
    /// <see cref="UMonoScriptComponent.StopCoroutine(Coroutine)"/> to stop it.
    /// </summary>
    public sealed class Coroutine : YieldInstruction
    {
        /// <summary>What a coroutine waits for between two steps.</summary>
        internal enum Wait { NextFrame, GameTime, FixedStep, Custom, Coroutine, Task }

        internal readonly UMonoScriptComponent m_Owner;
        internal readonly IEnumerator m_Routine;
        // A copy of m_Routine made before its first step (its arguments and `this`, nothing
        // run yet): what a reload restarts it from when its code was edited. Null when the
        // routine is not a compiler-generated iterator.
        internal IEnumerator m_Start;
        // The enumerators being run: m_Routine first, then the IEnumerators it yielded
        // (nested coroutines), innermost last. Allocated only when one nests.
        internal List<IEnumerator> m_Nested;
        internal Wait m_Wait;
        internal long m_ResumeFrame;  // the first frame (Time.frameCount) whose frame step may resume it
        internal long m_ResumeFixed;  // FixedStep: the fixed step after which it resumes
        internal double m_ResumeTime; // GameTime: Time.time to resume at
        internal object m_Awaited;    // Custom, Coroutine or Task: what it waits on
        internal bool m_Done;          // finished, stopped or failed
        internal bool m_DisposePending; // stopped while its own step was running
        internal List<Coroutine> m_Waiters; // coroutines that yielded this one, resumed when it ends

        internal Coroutine(UMonoScriptComponent owner, IEnumerator routine)
        {
            m_Owner = owner;
            m_Routine = routine;
            m_Start = Internal.CoroutineCarry.StartCopy(routine);
        }

        /// <summary>A coroutine carried into a new generation by a reload, its chain rebuilt.</summary>
        internal Coroutine(UMonoScriptComponent owner, IEnumerator routine, IEnumerator start)
        {
            m_Owner = owner;
            m_Routine = routine;
            m_Start = start;
        }

        /// <summary>The enumerator that runs next: the innermost nested one.</summary>
        internal IEnumerator Top
        {
            get { return m_Nested == null || m_Nested.Count == 0 ? m_Routine : m_Nested[m_Nested.Count - 1]; }
        }

        /// <summary>The method that started it, e.g. "Blink" (nested ones: "Blink > FadeOut").</summary>
        internal string MethodName
        {
            get
            {
                if (Internal.Invocations.IsInvocation(this, null)) return Internal.Invocations.Describe(this);
                string name = IteratorMethod(m_Routine);
                if (m_Nested != null)
                    foreach (IEnumerator e in m_Nested) name += " > " + IteratorMethod(e);
                return name;
            }
        }

        internal override string Describe() { return "Coroutine " + MethodName; }

        /// <summary>The C# method an iterator object came from; its class's name for any other enumerator.</summary>
        static string IteratorMethod(IEnumerator e)
        {
            Type type = e.GetType();
            return Internal.GeneratedNames.SourceMethod(type) ?? type.Name;
        }
    }
}
