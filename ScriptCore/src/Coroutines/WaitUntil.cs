using System;

namespace UEngine
{
    /// <summary>
    /// Waits until the predicate returns true. The predicate is called once per frame, after
    /// Update, on the game loop (first in the frame after the yield), and the coroutine
    /// resumes in the frame it returns true. A predicate that throws stops the coroutine.
    /// </summary>
    public sealed class WaitUntil : CustomYieldInstruction
    {
        readonly Func<bool> m_Predicate;

        /// <summary>Waits until <paramref name="predicate"/> returns true (it must not be null).</summary>
        public WaitUntil(Func<bool> predicate)
        {
            if (predicate == null) throw new ArgumentNullException("predicate");
            m_Predicate = predicate;
        }

        /// <summary>True while the predicate returns false.</summary>
        public override bool keepWaiting { get { return !m_Predicate(); } }

        /// <summary>"WaitUntil(method)", naming the predicate's method.</summary>
        public override string ToString() { return "WaitUntil(" + m_Predicate.Method.Name + ")"; }
    }
}
