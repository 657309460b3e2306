using System;

namespace UEngine
{
    /// <summary>
    /// Binds a managed proxy class to a kind of native component ("Camera", "Render", …).
    /// The class needs a parameterless constructor (it may be non-public).
    /// </summary>
    [AttributeUsage(AttributeTargets.Class, AllowMultiple = false, Inherited = false)]
    public sealed class NativeComponentAttribute : Attribute
    {
        /// <summary>The native component kind this class stands for ("Camera", "Render", …).</summary>
        public string Kind { get; private set; }

        /// <summary>Binds the class to the native component kind <paramref name="kind"/>.</summary>
        public NativeComponentAttribute(string kind) { Kind = kind; }
    }
}
