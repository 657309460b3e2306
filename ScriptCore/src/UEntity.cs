using System;
using System.Runtime.CompilerServices;
using UEngine.Internal;

namespace UEngine
{
    /// <summary>
    /// A native entity: a name, a transform, native components and scripts. An entity
    /// made with <c>new UEntity(name)</c> belongs to the scripts: once no script holds it
    /// any more, the garbage collector's finalizer hands it back and the host destroys it.
    /// Entities from the scene belong to the world and live until destroyed.
    /// </summary>
    public sealed partial class UEntity : UObject
    {
        UTransform m_Transform;

        // Proxies of existing entities are made by the host without running a constructor.
        UEntity() { }

        /// <summary>Creates a native entity named <paramref name="name"/>, owned by the scripts.</summary>
        public UEntity(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            m_NativeId = Internal_Create(this, name);
        }

        /// <summary>Tells the host the scripts no longer hold this proxy (not during a reload's unload).</summary>
        ~UEntity()
        {
            // Unloading a generation finalizes everything in it: that is a reload, not
            // the scripts letting go of their entities.
            if (!AppDomain.CurrentDomain.IsFinalizingForUnload())
                Internal_ProxyFinalized(m_NativeId);
        }

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

        /// <summary>
        /// Whether the entity itself is active (Unity's GameObject.activeSelf). Saved with the
        /// scene and kept across a reload.
        /// </summary>
        public bool activeSelf { get { return Internal_GetActive(m_NativeId); } }

        /// <summary>
        /// Whether the entity is active in the scene: it and each of its parents are active
        /// (Unity's GameObject.activeInHierarchy). Only then do its scripts run.
        /// </summary>
        public bool activeInHierarchy { get { return Internal_GetActiveInHierarchy(m_NativeId); } }

        /// <summary>
        /// Activates or deactivates the entity (Unity's GameObject.SetActive), and with it the
        /// entities below it that are active themselves. An entity inactive in the hierarchy
        /// has scripts that get no Update, FixedUpdate, LateUpdate or Start; deactivating runs
        /// their OnDisable and stops their coroutines (not their Invokes); activating runs their
        /// OnEnable, after their Awake when the entity had never been active.
        /// </summary>
        public void SetActive(bool value)
        {
            // The entities whose activeInHierarchy changed: this one and those below it that follow it.
            foreach (ulong entity in Internal_SetActive(m_NativeId, value))
                ScriptActivation.EntityActiveChanged(entity, value);
        }

        /// <summary>The entity's tag (Unity's GameObject.tag); "Untagged" when it has none.</summary>
        public string tag
        {
            get { return Internal_GetTag(m_NativeId); }
            set
            {
                if (value == null) throw new ArgumentNullException("value");
                Internal_SetTag(m_NativeId, value);
            }
        }

        /// <summary>Whether the entity's tag is <paramref name="tag"/>.</summary>
        public bool CompareTag(string tag)
        {
            if (tag == null) throw new ArgumentNullException("tag");
            return Internal_GetTag(m_NativeId) == tag;
        }

        /// <summary>The first-created active entity tagged <paramref name="tag"/>, or null.</summary>
        public static UEntity FindWithTag(string tag)
        {
            ulong[] ids = Internal_FindAllWithTag(tag);
            return ids.Length == 0 ? null : ObjectTable.Entity(ids[0]);
        }

        /// <summary>Same as <see cref="FindWithTag"/> (Unity has both names).</summary>
        public static UEntity FindGameObjectWithTag(string tag) { return FindWithTag(tag); }

        /// <summary>Every active entity tagged <paramref name="tag"/>, in creation order.</summary>
        public static UEntity[] FindGameObjectsWithTag(string tag)
        {
            ulong[] ids = Internal_FindAllWithTag(tag);
            var found = new UEntity[ids.Length];
            for (int i = 0; i < ids.Length; i++) found[i] = ObjectTable.Entity(ids[i]);
            return found;
        }

        /// <summary>The entity's transform (position, rotation, scaling).</summary>
        public UTransform transform
        {
            get { return m_Transform ?? (m_Transform = new UTransform(this)); }
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
            CheckComponentType(type);
            if (typeof(UMonoScriptComponent).IsAssignableFrom(type))
                return ScriptRuntime.FindScript(m_NativeId, type);
            if (typeof(UNativeScript).IsAssignableFrom(type))
            {
                int scripts = Internal_GetNativeScriptCount(m_NativeId);
                for (int i = 0; i < scripts; i++)
                {
                    UComponent proxy = ObjectTable.NativeComponent(Internal_GetNativeScriptAt(m_NativeId, i));
                    if (proxy != null && type.IsInstanceOfType(proxy))
                        return proxy;
                }
                return null;
            }
            int count = Internal_GetComponentCount(m_NativeId);
            for (int i = 0; i < count; i++)
            {
                string kind;
                ulong componentId = Internal_GetComponentAt(m_NativeId, i, out kind);
                if (!ObjectTable.HasProxyClass(kind)) continue;
                UComponent proxy = ObjectTable.NativeComponent(componentId);
                if (proxy != null && type.IsInstanceOfType(proxy))
                    return proxy;
            }
            return null;
        }

        /// <summary>
        /// Adds a component of type T: a native component (a class marked
        /// [NativeComponent]), a new script instance, or a new native script (T is a native
        /// script's proxy class); a script's Initialize runs now.
        /// </summary>
        public T AddComponent<T>() where T : UComponent
        {
            return (T)AddComponent(typeof(T));
        }

        /// <summary>Non-generic form of <see cref="AddComponent{T}"/>.</summary>
        public UComponent AddComponent(Type type)
        {
            CheckComponentType(type);
            if (type.IsAbstract)
                throw new ArgumentException(type.FullName + " is abstract", "type");
            if (typeof(UMonoScriptComponent).IsAssignableFrom(type) || typeof(UNativeScript).IsAssignableFrom(type))
            {
                AddRequiredComponents(type);
                return (UComponent)Internal_AddScript(m_NativeId, type.FullName);
            }
            var attr = (NativeComponentAttribute)Attribute.GetCustomAttribute(type, typeof(NativeComponentAttribute), false);
            if (attr == null)
                throw new ArgumentException(type.FullName + " is neither a script nor a [NativeComponent] class", "type");
            return ObjectTable.NativeComponent(Internal_AddComponent(m_NativeId, attr.Kind));
        }

        // The types whose requirements are being added now: A requiring B requiring A ends.
        static readonly System.Collections.Generic.List<Type> s_Requiring = new System.Collections.Generic.List<Type>();

        /// <summary>Adds each component <paramref name="type"/>'s [RequireComponent] names that the entity lacks.</summary>
        void AddRequiredComponents(Type type)
        {
            var required = (RequireComponentAttribute[])type.GetCustomAttributes(typeof(RequireComponentAttribute), true);
            if (required.Length == 0 || s_Requiring.Contains(type)) return;
            s_Requiring.Add(type);
            try
            {
                foreach (RequireComponentAttribute r in required)
                    foreach (Type needed in new[] { r.m_Type0, r.m_Type1, r.m_Type2 })
                        if (needed != null && !s_Requiring.Contains(needed) && ReferenceEquals(GetComponent(needed), null))
                            AddComponent(needed);
            }
            finally { s_Requiring.Remove(type); }
        }

        static void CheckComponentType(Type type)
        {
            if (type == null) throw new ArgumentNullException("type");
            if (!typeof(UComponent).IsAssignableFrom(type))
                throw new ArgumentException(type.FullName + " is not a UComponent", "type");
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_Create(UEntity self, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_ProxyFinalized(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_Find(string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern string Internal_GetName(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetName(ulong id, string name);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern int Internal_GetComponentCount(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_GetComponentAt(ulong id, int index, out string kind);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_AddComponent(ulong id, string kind);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern int Internal_GetNativeScriptCount(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_GetNativeScriptAt(ulong id, int index);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern object Internal_AddScript(ulong id, string className);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern bool Internal_GetActive(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong[] Internal_SetActive(ulong id, bool active);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern bool Internal_GetActiveInHierarchy(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern string Internal_GetTag(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetTag(ulong id, string tag);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong[] Internal_FindAllWithTag(string tag);
    }
}
