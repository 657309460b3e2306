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

        public WaitUntil(Func<bool> predicate)
        {
            if (predicate == null) throw new ArgumentNullException("predicate");
            m_Predicate = predicate;
        }

        public override bool keepWaiting { get { return !m_Predicate(); } }

        public override string ToString() { return "WaitUntil(" + m_Predicate.Method.Name + ")"; }
    }
}
