using System;
using System.Runtime.CompilerServices;
using UEngine.Internal;

namespace UEngine
{
    /// <summary>A native entity: a name, a transform, native components and scripts.</summary>
    public sealed class UEntity : UObject
    {
        UTransform m_Transform;

        internal UEntity(ulong id) { m_NativeId = id; }

        /// <summary>The first live entity named <paramref name="name"/>, or null.</summary>
        public static UEntity Find(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            return ObjectTable.Entity(Internal_Find(name));
        }

        /// <summary>The entity's name. Throws MissingReferenceException once destroyed.</summary>
        public string name
        {
            get { return Internal_GetName(m_NativeId); }
            set
            {
                if (value == null) throw new ArgumentNullException("value");
                Internal_SetName(m_NativeId, value);
            }
        }

        /// <summary>False once the native entity has been destroyed.</summary>
        public bool isAlive { get { return Internal_IsAlive(m_NativeId); } }

        /// <summary>The entity's transform (position, rotation, scaling).</summary>
        public UTransform transform
        {
            get { return m_Transform ?? (m_Transform = new UTransform(m_NativeId)); }
        }

        /// <summary>
        /// The first component of type T on this entity — a native component's proxy or a
        /// script instance — or null when there is none.
        /// </summary>
        public T GetComponent<T>() where T : UComponent
        {
            return (T)GetComponent(typeof(T));
        }

        /// <summary>Non-generic form of <see cref="GetComponent{T}"/>.</summary>
        public UComponent GetComponent(Type type)
        {
            if (type == null) throw new ArgumentNullException("type");
            if (!typeof(UComponent).IsAssignableFrom(type))
                throw new ArgumentException(type.FullName + " is not a UComponent", "type");
            if (typeof(UMonoScriptComponent).IsAssignableFrom(type))
                return ScriptRuntime.FindScript(m_NativeId, type);
            int count = Internal_GetComponentCount(m_NativeId);
            for (int i = 0; i < count; i++)
            {
                string kind;
                ulong componentId = Internal_GetComponentAt(m_NativeId, i, out kind);
                UComponent proxy = ObjectTable.NativeComponent(componentId, m_NativeId, kind);
                if (proxy != null && type.IsInstanceOfType(proxy))
                    return proxy;
            }
            return null;
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_Find(string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern string Internal_GetName(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetName(ulong id, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern bool Internal_IsAlive(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern int Internal_GetComponentCount(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_GetComponentAt(ulong id, int index, out string kind);
    }
}
