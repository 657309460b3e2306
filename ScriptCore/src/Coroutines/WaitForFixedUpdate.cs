namespace UEngine
{
    /// <summary>
    /// Waits for the next fixed step: the coroutine resumes right after the next
    /// FixedUpdate phase (after every script's FixedUpdate of that step). A frame may run
    /// no fixed step, or several.
    /// </summary>
    public sealed class WaitForFixedUpdate : YieldInstruction
    {
        internal override string Describe() { return "WaitForFixedUpdate"; }
    }
}
