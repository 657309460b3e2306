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
        // Set when the native object is destroyed (by the host on a proxy it handed out, by the
        // dispatcher on a script it detaches): from then on the object compares equal to null.
        internal bool m_Destroyed;

        /// <summary>The native object's id, stable across hot reloads; 0 for none.</summary>
        public ulong nativeId { get { return m_NativeId; } }

        /// <summary>False once the native object has been destroyed.</summary>
        public bool isAlive { get { return Internal_IsAlive(m_NativeId); } }

        /// <summary>
        /// Keeps the entity <paramref name="target"/> is (or is on) through
        /// <see cref="SceneManagement.SceneManager.LoadScene(string)"/>, with everything below its
        /// topmost parent (Unity keeps root objects; here the root of a child is kept).
        /// </summary>
        public static void DontDestroyOnLoad(UObject target)
        {
            if (ReferenceEquals(target, null)) throw new ArgumentNullException("target");
            Internal_DontDestroyOnLoad(target.m_NativeId);
        }

        /// <summary>
        /// Destroys an entity (with its components and scripts), a native component or a
        /// script at the end of the current frame. Destroying what is already gone does nothing.
        /// </summary>
        public static void Destroy(UObject obj)
        {
            if (ReferenceEquals(obj, null)) throw new ArgumentNullException("obj");
            Internal_Destroy(obj.m_NativeId);
        }

        /// <summary>
        /// A copy of <paramref name="original"/>'s entity, as Unity's Instantiate makes one:
        /// named "Name(Clone)", with the same native components and scripts, each script's saved
        /// fields copied (references to the original or anything on it point at the copy's)
        /// before its Awake and OnEnable run, which happens before this returns; Start follows
        /// at the next frame. Any entity can be the template. Returns the copy of what was
        /// passed: the new entity, or its component or script of the same place.
        /// </summary>
        public static T Instantiate<T>(T original) where T : UObject
        {
            if (ReferenceEquals(original, null)) throw new ArgumentNullException("original");
            Vector3 p = default(Vector3); Quaternion r = default(Quaternion);
            return (T)(object)Internal.ObjectTable.Object(Internal_Instantiate(original.m_NativeId, false, ref p, ref r));
        }

        /// <summary>Instantiate, the copy placed at <paramref name="position"/> and <paramref name="rotation"/> before its Awake runs.</summary>
        public static T Instantiate<T>(T original, Vector3 position, Quaternion rotation) where T : UObject
        {
            if (ReferenceEquals(original, null)) throw new ArgumentNullException("original");
            return (T)(object)Internal.ObjectTable.Object(Internal_Instantiate(original.m_NativeId, true, ref position, ref rotation));
        }

        /// <summary>
        /// The first script of type T (or derived from it), in the order scripts were added, on an
        /// active entity; null when there is none. Scripts only: entities are found with
        /// <see cref="UEntity.Find"/> and <see cref="UEntity.FindWithTag"/>.
        /// </summary>
        public static T FindObjectOfType<T>() where T : UObject { return (T)FindObjectOfType(typeof(T)); }

        /// <summary>Non-generic form of <see cref="FindObjectOfType{T}()"/>.</summary>
        public static UObject FindObjectOfType(Type type)
        {
            CheckFindType(type);
            foreach (UMonoScriptComponent s in Internal.ScriptRuntime.Attached)
                if (!s.m_Detached && !s.m_Inactive && type.IsInstanceOfType(s)) return s;
            return null;
        }

        /// <summary>Every script of type T (or derived from it) on an active entity, in the order added.</summary>
        public static T[] FindObjectsOfType<T>() where T : UObject
        {
            CheckFindType(typeof(T));
            var found = new System.Collections.Generic.List<T>();
            foreach (UMonoScriptComponent s in Internal.ScriptRuntime.Attached)
            {
                T match = s as T;
                if (!s.m_Detached && !s.m_Inactive && !ReferenceEquals(match, null)) found.Add(match);
            }
            return found.ToArray();
        }

        static void CheckFindType(Type type)
        {
            if (type == null) throw new ArgumentNullException("type");
            if (!typeof(UMonoScriptComponent).IsAssignableFrom(type) && type != typeof(UObject) && type != typeof(UComponent))
                throw new ArgumentException(type.FullName + " is not a script class: FindObjectOfType finds scripts (entities: UEntity.Find, UEntity.FindWithTag)", "type");
        }

        /// <summary>
        /// Destroys <paramref name="obj"/> at the end of the first frame <paramref name="t"/>
        /// seconds of game time from now (Unity's Destroy(obj, t)). A reload keeps the
        /// appointment; destroying what is already gone does nothing.
        /// </summary>
        public static void Destroy(UObject obj, float t)
        {
            if (ReferenceEquals(obj, null)) throw new ArgumentNullException("obj");
            Internal_DestroyAfter(obj.m_NativeId, t);
        }

        /// <summary>
        /// Unity's rule for its objects: one that has been destroyed compares equal to null (and
        /// to any other destroyed one), so <c>if (target != null)</c> and <c>if (target)</c> are
        /// false once the target is gone. Use ReferenceEquals for the plain reference test.
        /// </summary>
        public static bool operator ==(UObject a, UObject b)
        {
            bool aGone = ReferenceEquals(a, null) || a.m_Destroyed;
            bool bGone = ReferenceEquals(b, null) || b.m_Destroyed;
            if (aGone || bGone) return aGone && bGone;
            return ReferenceEquals(a, b);
        }

        /// <summary>The negation of ==.</summary>
        public static bool operator !=(UObject a, UObject b) { return !(a == b); }

        /// <summary>Whether the object exists: not null and not destroyed.</summary>
        public static implicit operator bool(UObject o) { return !ReferenceEquals(o, null) && !o.m_Destroyed; }

        /// <summary>The same object, or both destroyed (as ==).</summary>
        public override bool Equals(object other)
        {
            if (ReferenceEquals(other, null)) return m_Destroyed;
            var o = other as UObject;
            return !ReferenceEquals(o, null) && this == o;
        }

        /// <summary>A hash of the object's identity.</summary>
        public override int GetHashCode() { return RuntimeHelpers.GetHashCode(this); }

        /// <summary>"Type(#index:version)": the class name and the object's native id.</summary>
        public override string ToString()
        {
            return string.Format("{0}(#{1}:{2})", GetType().Name, m_NativeId & 0xffffffffUL, m_NativeId >> 32);
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern bool Internal_IsAlive(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_Destroy(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_DestroyAfter(ulong id, float seconds);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_DontDestroyOnLoad(ulong id);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern ulong Internal_Instantiate(ulong id, bool placed, ref Vector3 position, ref Quaternion rotation);
    }
}
