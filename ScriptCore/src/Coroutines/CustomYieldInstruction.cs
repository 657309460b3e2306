using System.Collections;

namespace UEngine
{
    /// <summary>
    /// A yield instruction defined by a condition: the coroutine that yields it resumes in
    /// the first frame (after Update) in which <see cref="keepWaiting"/> is false. It is
    /// checked once per frame, on the game loop. Derive from it for waits of your own.
    /// </summary>
    public abstract class CustomYieldInstruction : IEnumerator
    {
        /// <summary>True while the coroutine should keep waiting.</summary>
        public abstract bool keepWaiting { get; }

        object IEnumerator.Current { get { return null; } }
        bool IEnumerator.MoveNext() { return keepWaiting; }
        void IEnumerator.Reset() { }

        /// <summary>What the coroutine waits for, as `scriptctl coroutines` shows it.</summary>
        public override string ToString() { return GetType().Name; }
    }
}
