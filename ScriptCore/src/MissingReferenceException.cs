using System;

namespace UEngine
{
    /// <summary>Thrown when a script uses an entity or component that has been destroyed.</summary>
    public class MissingReferenceException : InvalidOperationException
    {
        public MissingReferenceException(string message) : base(message) { }
    }
}
