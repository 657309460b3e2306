using System;

namespace UEngine
{
    /// <summary>
    /// Base of every managed proxy of a native object. The proxy carries the native
    /// object's id (a generational index that never changes across reloads), so going
    /// from a proxy to the native object is a field read.
    /// </summary>
    public abstract class UObject
    {
        // Packed ObjectId: generation in the high 32 bits, index in the low 32 bits.
        // Zero is never a valid id.
        internal ulong m_NativeId;

        /// <summary>The native object's id, stable across hot reloads; 0 for none.</summary>
        public ulong nativeId { get { return m_NativeId; } }

        public override string ToString()
        {
            return string.Format("{0}(#{1}:{2})", GetType().Name, m_NativeId & 0xffffffffUL, m_NativeId >> 32);
        }
    }
}
