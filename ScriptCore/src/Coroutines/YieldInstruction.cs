namespace UEngine
{
    /// <summary>
    /// Base of the instructions the host understands when a coroutine yields one:
    /// <see cref="WaitForSeconds"/>, <see cref="WaitForFixedUpdate"/> and <see cref="Coroutine"/>.
    /// Yielding <c>null</c> (or any object the host does not know) waits for the next frame.
    /// </summary>
    public abstract class YieldInstruction
    {
        internal YieldInstruction() { }

        /// <summary>What the coroutine waits for, as `scriptctl coroutines` shows it.</summary>
        internal abstract string Describe();
    }
}
