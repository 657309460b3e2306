using System;

namespace UEngine
{
    /// <summary>
    /// Waits while the predicate returns true: the opposite of <see cref="WaitUntil"/>, with
    /// the same timing.
    /// </summary>
    public sealed class WaitWhile : CustomYieldInstruction
    {
        readonly Func<bool> m_Predicate;

        public WaitWhile(Func<bool> predicate)
        {
            if (predicate == null) throw new ArgumentNullException("predicate");
            m_Predicate = predicate;
        }

        public override bool keepWaiting { get { return m_Predicate(); } }

        public override string ToString() { return "WaitWhile(" + m_Predicate.Method.Name + ")"; }
    }
}
