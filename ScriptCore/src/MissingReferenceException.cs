using System;

namespace UEngine
{
    /// <summary>Thrown when a script uses an entity or component that has been destroyed.</summary>
    public class MissingReferenceException : InvalidOperationException
    {
        // The host raises this through mono_exception_from_name_msg, which needs a
        // parameterless constructor (without one Mono aborts the process).
        /// <summary>An exception with the default message.</summary>
        public MissingReferenceException() { }
        /// <summary>An exception with <paramref name="message"/>.</summary>
        public MissingReferenceException(string message) : base(message) { }
        /// <summary>An exception with <paramref name="message"/>, caused by <paramref name="inner"/>.</summary>
        public MissingReferenceException(string message, Exception inner) : base(message, inner) { }
    }
}
