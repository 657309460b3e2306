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

        /// <summary>Waits while <paramref name="predicate"/> returns true (it must not be null).</summary>
        public WaitWhile(Func<bool> predicate)
        {
            if (predicate == null) throw new ArgumentNullException("predicate");
            m_Predicate = predicate;
        }

        /// <summary>True while the predicate returns true.</summary>
        public override bool keepWaiting { get { return m_Predicate(); } }

        /// <summary>"WaitWhile(method)", naming the predicate's method.</summary>
        public override string ToString() { return "WaitWhile(" + m_Predicate.Method.Name + ")"; }
    }
}
