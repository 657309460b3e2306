using System;
using System.Runtime.CompilerServices;

namespace UEngine
{
    /// <summary>
    /// The position, rotation and scaling of an entity. Every member reads or writes the
    /// native transform, so values are never stale; using the transform of a destroyed
    /// entity throws MissingReferenceException.
    /// </summary>
    public sealed class UTransform
    {
        readonly ulong m_EntityId;

        internal UTransform(ulong entityId) { m_EntityId = entityId; }

        /// <summary>The entity's position in world units.</summary>
        public Vector3 position
        {
            // Inlined into the caller: the hottest engine call (docs/MONO.md §6).
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            get { Vector3 v; Internal_GetPosition(m_EntityId, out v); return v; }
            [MethodImpl(MethodImplOptions.AggressiveInlining)]
            set { Internal_SetPosition(m_EntityId, ref value); }
        }

        /// <summary>The entity's rotation (a unit quaternion; see <see cref="Rotate"/> to turn it).</summary>
        public Quaternion rotation
        {
            get { Quaternion q; Internal_GetRotation(m_EntityId, out q); return q; }
            set { Internal_SetRotation(m_EntityId, ref value); }
        }

        /// <summary>The entity's scale on each axis (1, 1, 1: unscaled).</summary>
        public Vector3 scaling
        {
            get { Vector3 v; Internal_GetScaling(m_EntityId, out v); return v; }
            set { Internal_SetScaling(m_EntityId, ref value); }
        }

        /// <summary>The direction the entity faces: rotation * (0, 0, -1).</summary>
        public Vector3 forward { get { Vector3 v; Internal_GetAxis(m_EntityId, 0, out v); return v; } }
        /// <summary>rotation * (0, 1, 0).</summary>
        public Vector3 up { get { Vector3 v; Internal_GetAxis(m_EntityId, 1, out v); return v; } }
        /// <summary>rotation * (1, 0, 0).</summary>
        public Vector3 right { get { Vector3 v; Internal_GetAxis(m_EntityId, 2, out v); return v; } }

        /// <summary>Adds <paramref name="delta"/> to the position (world space).</summary>
        public void Move(Vector3 delta) { Internal_Move(m_EntityId, delta); }

        /// <summary>Rotates by <paramref name="degrees"/> about <paramref name="axis"/> (local space).</summary>
        public void Rotate(Vector3 axis, float degrees) { Internal_Rotate(m_EntityId, axis, degrees); }

        /// <summary>Multiplies the scaling component-wise by <paramref name="factor"/>.</summary>
        public void Scale(Vector3 factor) { Internal_Scale(m_EntityId, ref factor); }

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
