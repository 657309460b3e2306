using System;
using System.Runtime.CompilerServices;
using UEngine.Internal;

namespace UEngine
{
    /// <summary>
    /// The position, rotation and scaling of an entity. Every member reads or writes the
    /// native transform, so values are never stale; using the transform of a destroyed
    /// entity throws MissingReferenceException.
    /// </summary>
    public sealed unsafe class UTransform
    {
        readonly ulong m_EntityId;

        // Direct access (docs/MONO.md §6). position, rotation (get), scaling, Move and Scale
        // read and write the native Transform through m_Native, without an internal call,
        // while the world bound on this thread still has the epoch m_Native was found under:
        // the world changes its epoch whenever entities may move or a destroyed entity's slot
        // may be reused. A thread that never found a transform has no cell (t_BoundEpoch
        // null), and the cell of the loop's thread holds 0 while no world is bound, which no
        // cache holds after a find. Every other case (no context, another thread, a destroyed
        // entity) takes the checked internal call, which raises the exception that says why.
        NativeTransform* m_Native;
        ulong m_Epoch;
        [ThreadStatic] static ulong* t_BoundEpoch;

        internal UTransform(ulong entityId) { m_EntityId = entityId; }

        /// <summary>The entity's position in world units.</summary>
        public Vector3 position
        {
            // Inlined into the caller: the hottest engine call (docs/MONO.md §6).
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get
            {
                NativeTransform* t = Native;
                if (t != null) return t->position;
                Vector3 v; Internal_GetPosition(m_EntityId, out v); return v;
            }
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            set
            {
                NativeTransform* t = Native;
                if (t != null) t->position = value;
                else Internal_SetPosition(m_EntityId, ref value);
            }
        }

        /// <summary>The entity's rotation (a unit quaternion; see <see cref="Rotate"/> to turn it).</summary>
        public Quaternion rotation
        {
            get
            {
                NativeTransform* t = Native;
                if (t != null) return t->rotation;
                Quaternion q; Internal_GetRotation(m_EntityId, out q); return q;
            }
            // Always the internal call: it normalizes and rejects a zero or non-finite value.
            set { Internal_SetRotation(m_EntityId, ref value); }
        }

        /// <summary>The entity's scale on each axis (1, 1, 1: unscaled).</summary>
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

        // The slow half of Native, out of line so the inlined half stays small: asks the host
        // where the transform is now and caches the answer.
        [MethodImpl(MethodImplOptions.NoInlining)]
        NativeTransform* Locate()
        {
            ulong epoch;
            ulong* bound;
            NativeTransform* t = Internal_Locate(m_EntityId, out epoch, out bound);
            if (t != null)
            {
                m_Native = t;
                m_Epoch = epoch;
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
            NativeTransform* t = Native;
            if (t != null) t->position = t->position + delta;
            else Internal_Move(m_EntityId, delta);
        }

        /// <summary>Rotates by <paramref name="degrees"/> about <paramref name="axis"/> (local space).</summary>
        public void Rotate(Vector3 axis, float degrees) { Internal_Rotate(m_EntityId, axis, degrees); }

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
        static extern NativeTransform* Internal_Locate(ulong entity, out ulong epoch, out ulong* boundEpoch);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetPosition(ulong entity, out Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetPosition(ulong entity, ref Vector3 value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_GetRotation(ulong entity, out Quaternion value);
        [MethodImpl(MethodImplOptions.InternalCall)]
        static extern void Internal_SetRotation(ulong entity, ref Quaternion value);
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
