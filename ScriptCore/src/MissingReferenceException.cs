using System;

namespace UEngine
{
    /// <summary>Thrown when a script uses an entity or component that has been destroyed.</summary>
    public class MissingReferenceException : InvalidOperationException
    {
        // The host raises this through mono_exception_from_name_msg, which needs a
        // parameterless constructor (without one Mono aborts the process).
        public MissingReferenceException() { }
        public MissingReferenceException(string message) : base(message) { }
        public MissingReferenceException(string message, Exception inner) : base(message, inner) { }
    }
}
