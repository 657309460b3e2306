using System;
using System.Runtime.CompilerServices;

namespace UEngine
{
    /// <summary>
    /// Base of every managed side of a native object: entity and component proxies, and
    /// scripts. It carries the native object's id (a generational index that never
    /// changes across reloads), so going from a proxy to the native object is a field read.
    /// </summary>
    public abstract class UObject
    {
        // Packed ObjectId: generation in the high 32 bits, index in the low 32 bits.
        // Zero is never a valid id. Set by the host.
        internal ulong m_NativeId;

        /// <summary>The native object's id, stable across hot reloads; 0 for none.</summary>
        public ulong nativeId { get { return m_NativeId; } }

        /// <summary>False once the native object has been destroyed.</summary>
        public bool isAlive { get { return Internal_IsAlive(m_NativeId); } }

        /// <summary>
        /// Destroys an entity (with its components and scripts), a native component or a
        /// script at the end of the current frame. Destroying what is already gone does nothing.
        /// </summary>
        public static void Destroy(UObject obj)
        {
            if (ReferenceEquals(obj, null)) throw new ArgumentNullException("obj");
            Internal_Destroy(obj.m_NativeId);
        }

        /// <summary>"Type(#index:version)": the class name and the object's native id.</summary>
        public override string ToString()
        {
            return string.Format("{0}(#{1}:{2})", GetType().Name, m_NativeId & 0xffffffffUL, m_NativeId >> 32);
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern bool Internal_IsAlive(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_Destroy(ulong id);
    }
}
