using System;
using System.Runtime.CompilerServices;
using UEngine.Internal;

namespace UEngine
{
    /// <summary>
    /// The position, rotation and scaling of an entity, in its parent's space (local*) and in
    /// the world's (position, rotation, lossyScale); a root's are the same. Every member reads
    /// or writes the native transform, so values are never stale; using the transform of a
    /// destroyed entity throws MissingReferenceException. The hierarchy's members (parent,
    /// children, sibling order) are in UTransformHierarchy.cs.
    /// </summary>
    public sealed unsafe partial class UTransform
    {
        readonly ulong m_EntityId;
        // The entity's proxy, held so that the transform keeps it: the host holds proxies
        // weakly, and a transform alone in a field must lead back to the same entity (and
        // to itself through gameObject.transform) after any collection, and keep an entity
        // the scripts made alive while it is held.
        readonly UEntity m_Entity;

        // Direct access (docs/MONO.md §6). position, rotation (get), scaling, Move and Scale
        // read and write the native Transform through m_Native, without an internal call,
        // while the world bound on this thread still has the epoch m_Native was found under:
        // the world changes its epoch whenever entities may move or a destroyed entity's slot
        // may be reused. A thread that never found a transform has no cell (t_BoundEpoch
        // null), and the cell of the loop's thread holds 0 while no world is bound, which no
        // cache holds after a find. Every other case (no context, another thread, a destroyed
        // entity) takes the checked internal call, which raises the exception that says why.
        // m_Native is the entity's local transform; for a root (m_Root) it is its world one too.
        // A change of parent changes the epoch, so m_Root is as fresh as m_Native.
        NativeTransform* m_Native;
        ulong m_Epoch;
        bool m_Root;
        [ThreadStatic] static ulong* t_BoundEpoch;

        internal UTransform(UEntity entity) { m_Entity = entity; m_EntityId = entity.m_NativeId; }

        /// <summary>The entity's position in world units (a child's: under its parents').</summary>
        public Vector3 position
        {
            // Inlined into the caller: the hottest engine call (docs/MONO.md §6).
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get
            {
                NativeTransform* t = RootNative;
                if (t != null) return t->position;
                Vector3 v; Internal_GetPosition(m_EntityId, out v); return v;
            }
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            set
            {
                NativeTransform* t = RootNative;
                if (t != null) t->position = value;
                else Internal_SetPosition(m_EntityId, ref value);
            }
        }

        /// <summary>The entity's rotation in world space (a unit quaternion; see <see cref="Rotate(Vector3, float)"/> to turn it).</summary>
        public Quaternion rotation
        {
            get
            {
                NativeTransform* t = RootNative;
                if (t != null) return t->rotation;
                Quaternion q; Internal_GetRotation(m_EntityId, out q); return q;
            }
            // Always the internal call: it normalizes and rejects a zero or non-finite value.
            set { Internal_SetRotation(m_EntityId, ref value); }
        }

        /// <summary>The position relative to the parent's transform (a root's: its position).</summary>
        public Vector3 localPosition
        {
            get
            {
                NativeTransform* t = Native;
                if (t != null) return t->position;
                Vector3 v; Internal_GetLocalPosition(m_EntityId, out v); return v;
            }
            set
            {
                NativeTransform* t = Native;
                if (t != null) t->position = value;
                else Internal_SetLocalPosition(m_EntityId, ref value);
            }
        }

        /// <summary>The rotation relative to the parent's (a root's: its rotation).</summary>
        public Quaternion localRotation
        {
            get
            {
                NativeTransform* t = Native;
                if (t != null) return t->rotation;
                Quaternion q; Internal_GetLocalRotation(m_EntityId, out q); return q;
            }
            set { Internal_SetLocalRotation(m_EntityId, ref value); }
        }

        /// <summary>The local rotation as Euler angles in degrees.</summary>
        public Vector3 localEulerAngles
        {
            get { return localRotation.eulerAngles; }
            set { localRotation = Quaternion.Euler(value); }
        }

        /// <summary>The scale relative to the parent's (Unity's localScale; the same as <see cref="scaling"/>).</summary>
        public Vector3 localScale { get { return scaling; } set { scaling = value; } }

        /// <summary>
        /// The scale in world space: each axis's local scale times its parents' (Unity's
        /// lossyScale, read-only: exact unless a rotated child sits under an unevenly scaled parent).
        /// </summary>
        public Vector3 lossyScale
        {
            get
            {
                NativeTransform* t = RootNative;
                if (t != null) return t->scale;
                Vector3 v; Internal_GetLossyScale(m_EntityId, out v); return v;
            }
        }

        /// <summary>The entity's scale on each axis relative to its parent's (1, 1, 1: unscaled).</summary>
        public Vector3 scaling
        {
            get
            {
                NativeTransform* t = Native;
                if (t != null) return t->scale;
                Vector3 v; Internal_GetScaling(m_EntityId, out v); return v;
            }
            set
            {
                NativeTransform* t = Native;
                if (t != null) t->scale = value;
                else Internal_SetScaling(m_EntityId, ref value);
            }
        }

        // The native transform if it may be used directly now, else null.
        NativeTransform* Native
        {
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get
            {
                ulong* bound = t_BoundEpoch;
                return bound != null && *bound == m_Epoch ? m_Native : Locate();
            }
        }

        // The native transform if it is the world one (a root's) and may be used directly now.
        NativeTransform* RootNative
        {
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get
            {
                NativeTransform* t = Native;
                return m_Root ? t : null;
            }
        }

        // The slow half of Native, out of line so the inlined half stays small: asks the host
        // where the transform is now and caches the answer.
        [MethodImpl(MethodImplOptions.NoInlining)]
        NativeTransform* Locate()
        {
            ulong epoch;
            ulong* bound;
            bool root;
            NativeTransform* t = Internal_Locate(m_EntityId, out epoch, out bound, out root);
            if (t != null)
            {
                m_Native = t;
                m_Epoch = epoch;
                m_Root = root;
                t_BoundEpoch = bound;
            }
            return t;
        }

        /// <summary>The direction the entity faces: rotation * (0, 0, 1), as in Unity (<see cref="Vector3.forward"/>).</summary>
        public Vector3 forward { get { Vector3 v; Internal_GetAxis(m_EntityId, 0, out v); return v; } }
        /// <summary>rotation * (0, 1, 0).</summary>
        public Vector3 up { get { Vector3 v; Internal_GetAxis(m_EntityId, 1, out v); return v; } }
        /// <summary>rotation * (1, 0, 0).</summary>
        public Vector3 right { get { Vector3 v; Internal_GetAxis(m_EntityId, 2, out v); return v; } }

        /// <summary>Adds <paramref name="delta"/> to the position (world space).</summary>
        public void Move(Vector3 delta)
        {
            NativeTransform* t = RootNative;
            if (t != null) t->position = t->position + delta;
            else Internal_Move(m_EntityId, delta);
        }

        /// <summary>Rotates by <paramref name="degrees"/> about <paramref name="axis"/> (local space).</summary>
        public void Rotate(Vector3 axis, float degrees) { Internal_Rotate(m_EntityId, axis, degrees); }

        /// <summary>
        /// Rotates by <paramref name="eulers"/> degrees (z, then x, then y, as
        /// <see cref="Quaternion.Euler(Vector3)"/>) about this transform's own axes.
        /// </summary>
        public void Rotate(Vector3 eulers) { rotation = rotation * Quaternion.Euler(eulers); }
        /// <summary>Rotate(new Vector3(x, y, z)).</summary>
        public void Rotate(float xAngle, float yAngle, float zAngle) { Rotate(new Vector3(xAngle, yAngle, zAngle)); }

        /// <summary>The entity this transform belongs to.</summary>
        public UEntity gameObject
        {
            // A destroyed entity's lookup raises MissingReferenceException, saying why.
            get { return m_Entity.isAlive ? m_Entity : ObjectTable.Entity(m_EntityId); }
        }
        /// <summary>This transform (Unity's Component.transform, for code written against a component).</summary>
        public UTransform transform { get { return this; } }
        /// <summary>The entity's name.</summary>
        public string name { get { return gameObject.name; } set { gameObject.name = value; } }
        /// <summary>The first component of type T on this transform's entity, or null.</summary>
        public T GetComponent<T>() where T : UComponent { return gameObject.GetComponent<T>(); }
        /// <summary>The first component of <paramref name="type"/> on this transform's entity, or null.</summary>
        public UComponent GetComponent(Type type) { return gameObject.GetComponent(type); }

        /// <summary>The rotation as Euler angles in degrees (<see cref="Quaternion.eulerAngles"/>).</summary>
        public Vector3 eulerAngles
        {
            get { return rotation.eulerAngles; }
            set { rotation = Quaternion.Euler(value); }
        }

        /// <summary>Moves by <paramref name="translation"/> along this transform's own axes (Unity's default, Space.Self).</summary>
        public void Translate(Vector3 translation) { Move(rotation * translation); }
        /// <summary>Moves by <paramref name="translation"/> along this transform's own axes or the world's.</summary>
        public void Translate(Vector3 translation, Space relativeTo)
        {
            Move(relativeTo == Space.World ? translation : rotation * translation);
        }
        /// <summary>Translate(new Vector3(x, y, z)).</summary>
        public void Translate(float x, float y, float z) { Translate(new Vector3(x, y, z)); }
        /// <summary>Translate(new Vector3(x, y, z), relativeTo).</summary>
        public void Translate(float x, float y, float z, Space relativeTo) { Translate(new Vector3(x, y, z), relativeTo); }

        /// <summary>Turns the forward axis towards <paramref name="worldPosition"/>, up as close to <paramref name="worldUp"/> as it can be.</summary>
        public void LookAt(Vector3 worldPosition, Vector3 worldUp)
        {
            Vector3 direction = worldPosition - position;
            if (direction.sqrMagnitude < 1e-12f) return; // already there: no direction to face
            rotation = Quaternion.LookRotation(direction, worldUp);
        }
        /// <summary>LookAt(worldPosition, Vector3.up).</summary>
        public void LookAt(Vector3 worldPosition) { LookAt(worldPosition, Vector3.up); }
        /// <summary>Turns the forward axis towards <paramref name="target"/>'s position.</summary>
        public void LookAt(UTransform target)
        {
            if (target == null) throw new ArgumentNullException("target");
            LookAt(target.position, Vector3.up);
        }
        /// <summary>LookAt(target.position, worldUp).</summary>
        public void LookAt(UTransform target, Vector3 worldUp)
        {
            if (target == null) throw new ArgumentNullException("target");
            LookAt(target.position, worldUp);
        }

        /// <summary>A direction from this transform's space to world space (rotation only).</summary>
        public Vector3 TransformDirection(Vector3 direction) { return rotation * direction; }
        /// <summary>A direction from world space to this transform's space (rotation only).</summary>
        public Vector3 InverseTransformDirection(Vector3 direction) { return Quaternion.Inverse(rotation) * direction; }
        /// <summary>A point from this transform's space to world space: scaled, rotated, moved.</summary>
        public Vector3 TransformPoint(Vector3 point) { return position + rotation * Vector3.Scale(lossyScale, point); }
        /// <summary>A point from world space to this transform's space (TransformPoint undone).</summary>
        public Vector3 InverseTransformPoint(Vector3 point)
        {
            Vector3 local = Quaternion.Inverse(rotation) * (point - position);
            Vector3 s = lossyScale;
            return new Vector3(s.x != 0f ? local.x / s.x : 0f, s.y != 0f ? local.y / s.y : 0f, s.z != 0f ? local.z / s.z : 0f);
        }

        /// <summary>Multiplies the scaling component-wise by <paramref name="factor"/>.</summary>
        public void Scale(Vector3 factor)
        {
            NativeTransform* t = Native;
            if (t != null)
            {
                Vector3 s = t->scale;
                t->scale = new Vector3(s.x * factor.x, s.y * factor.y, s.z * factor.z);
            }
            else Internal_Scale(m_EntityId, ref factor);
        }

        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern NativeTransform* Internal_Locate(ulong entity, out ulong epoch, out ulong* boundEpoch, out bool root);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetPosition(ulong entity, out Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetPosition(ulong entity, ref Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetRotation(ulong entity, out Quaternion value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetRotation(ulong entity, ref Quaternion value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetLossyScale(ulong entity, out Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetLocalPosition(ulong entity, out Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetLocalPosition(ulong entity, ref Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetLocalRotation(ulong entity, out Quaternion value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetLocalRotation(ulong entity, ref Quaternion value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetScaling(ulong entity, out Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetScaling(ulong entity, ref Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetAxis(ulong entity, int which, out Vector3 value);
        // Move and Rotate take their vectors by value: this exercises (and keeps honest) the
        // by-value struct path of the internal-call ABI next to the by-ref one.
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_Move(ulong entity, Vector3 delta);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_Rotate(ulong entity, Vector3 axis, float degrees);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_Scale(ulong entity, ref Vector3 factor);
    }
}
