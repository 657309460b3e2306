using System.Runtime.CompilerServices;
using UEngine;

namespace Bench
{
    /// The script every dispatch strategy calls: a cheap Update, so the figure is the
    /// cost of getting there.
    public class Mover : UMonoScriptComponent
    {
        [SerializeField] int updates;
        [SerializeField] float distance;

        public override void Update(float deltaTime)
        {
            updates++;
            distance += deltaTime;
        }
    }

    public static class Loops
    {
        static Vector3 s_Field = new Vector3(1f, 2f, 3f);

        /// n reads of transform.position: direct reads through the cached pointer.
        public static float ReadPosition(string entity, int n)
        {
            UTransform t = UEntity.Find(entity).transform;
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += t.position.x;
            return sum;
        }

        /// n reads of the world position of E's first child: composed under its parent, by the
        /// internal call.
        public static float ReadChildPosition(string entity, int n)
        {
            UTransform t = UEntity.Find(entity).transform.GetChild(0);
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += t.position.x;
            return sum;
        }

        /// n reads of the local position of E's first child: direct reads through the cached pointer.
        public static float ReadChildLocalPosition(string entity, int n)
        {
            UTransform t = UEntity.Find(entity).transform.GetChild(0);
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += t.localPosition.x;
            return sum;
        }

        /// The breakdown of the position read: n calls of each probe below (bench_dispatch
        /// registers them), each doing one more part of UTransform.position's work.
        public static float ReadProbe(string entity, int n, int which)
        {
            ulong id = UEntity.Find(entity).nativeId;
            float sum = 0f;
            Vector3 v;
            switch (which)
            {
            case 0: for (int i = 0; i < n; i++) { IcallProbe.Empty(id, out v); sum += v.x; } break;
            case 1: for (int i = 0; i < n; i++) { IcallProbe.Guard(id, out v); sum += v.x; } break;
            case 2: for (int i = 0; i < n; i++) { IcallProbe.Lookup(id, out v); sum += v.x; } break;
            case 3: for (int i = 0; i < n; i++) sum += IcallProbe.ByValue(id).x; break;
            case 4: for (int i = 0; i < n; i++) { IcallProbe.RawEmpty(id, out v); sum += v.x; } break;
            case 5: for (int i = 0; i < n; i++) { IcallProbe.RawLookup(id, out v); sum += v.x; } break;
            case 6: { var t = new PreviousTransform(id); for (int i = 0; i < n; i++) sum += t.position.x; } break;
            case 7: for (int i = 0; i < n; i++) { IcallProbe.Checked(id, out v); sum += v.x; } break;
            }
            return sum;
        }

        /// n clamps through Mathf.Clamp (the value varies, so nothing folds away).
        public static float ClampMathf(string entity, int n)
        {
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += Mathf.Clamp(i * 0.37f - 50f, -10f, 10f);
            return sum;
        }

        /// Baseline: the same clamps written out in plain C#.
        public static float ClampInline(string entity, int n)
        {
            float sum = 0f;
            for (int i = 0; i < n; i++)
            {
                float v = i * 0.37f - 50f;
                if (v < -10f) v = -10f;
                else if (v > 10f) v = 10f;
                sum += v;
            }
            return sum;
        }

        /// n draws of Random.Range(0f, 10f): ScriptCore's seedable xorshift128 in static fields.
        public static float RandomRange(string entity, int n)
        {
            UEngine.Random.InitState(7);
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += UEngine.Random.Range(0f, 10f);
            return sum;
        }

        // The baseline's generator: what a game's own C# random class would keep.
        static uint s_X, s_Y, s_Z, s_W;

        /// Baseline: the same xorshift128 draws written in plain C#, its state in static fields
        /// of the game's assembly as a game's own generator would keep it.
        public static float RandomInline(string entity, int n)
        {
            s_X = 7u; s_Y = s_X * 1812433253u + 1u; s_Z = s_Y * 1812433253u + 1u; s_W = s_Z * 1812433253u + 1u;
            float sum = 0f;
            for (int i = 0; i < n; i++)
            {
                uint t = s_X ^ (s_X << 11);
                s_X = s_Y; s_Y = s_Z; s_Z = s_W;
                s_W = s_W ^ (s_W >> 19) ^ t ^ (t >> 8);
                sum += 10f * ((s_W & 0x7FFFFFu) / 8388607f);
            }
            return sum;
        }

        /// n reads of Input.GetKey(KeyCode.Space): one internal call with the action's name.
        public static float GetKey(string entity, int n)
        {
            float sum = 0f;
            for (int i = 0; i < n; i++) if (Input.GetKey(KeyCode.Space)) sum += 1f;
            return sum;
        }

        static readonly System.Collections.Generic.Dictionary<string, float> s_Keys =
            new System.Collections.Generic.Dictionary<string, float> { { "key:Space", 1f } };

        /// Baseline: the same question asked of a managed dictionary of the actions.
        public static float GetKeyManaged(string entity, int n)
        {
            float sum = 0f;
            float v;
            for (int i = 0; i < n; i++) if (s_Keys.TryGetValue("key:Space", out v) && v != 0f) sum += 1f;
            return sum;
        }

        /// Baseline: n reads of a managed Vector3 (a static field; no transition).
        public static float ReadManagedVector(string entity, int n)
        {
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += s_Field.x;
            return sum;
        }
    }
}

namespace Bench
{
    /// Internal calls with UTransform.position's signature that do part of its work each,
    /// so the benchmark can say where the time of one call goes.
    public static class IcallProbe
    {
        /// The transition alone: writes a constant.
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern void Empty(ulong entity, out Vector3 value);
        /// The transition and the guard (the bound ScriptContext, the try/catch).
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern void Guard(ulong entity, out Vector3 value);
        /// The transition, the guard and the lookup: the body of Internal_GetPosition.
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern void Lookup(ulong entity, out Vector3 value);
        /// The transition with the Vector3 returned by value instead of through `out`.
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern Vector3 ByValue(ulong entity);
        /// Empty, registered raw (mono_dangerous_add_raw_internal_call: no GC-safe transition).
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern void RawEmpty(ulong entity, out Vector3 value);
        /// Lookup, registered raw.
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern void RawLookup(ulong entity, out Vector3 value);
        /// UTransform.Internal_GetPosition as it is (raw, the liveTransform hot path): the
        /// checked path a position read takes when its direct read may not be used.
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern void Checked(ulong entity, out Vector3 value);
        /// UTransform.Internal_GetPosition as it was before the raw registration and the
        /// hot path: the same-run baseline of the position figure.
        [MethodImpl(MethodImplOptions.InternalCall)]
        public static extern void PreviousGetPosition(ulong entity, out Vector3 value);
    }

    /// UTransform.position's getter over the previous internal call.
    public sealed class PreviousTransform
    {
        readonly ulong m_EntityId;
        public PreviousTransform(ulong entityId) { m_EntityId = entityId; }
        public Vector3 position
        {
            get { Vector3 v; IcallProbe.PreviousGetPosition(m_EntityId, out v); return v; }
        }
    }
}

namespace Bench
{
    /// Mover's work done by a coroutine instead of an Update override: the coroutine
    /// figure compares the two, per script per frame.
    public class CoroutineMover : UMonoScriptComponent
    {
        [SerializeField] int updates;
        [SerializeField] float distance;

        public override void Initialize() { StartCoroutine(Move()); }

        System.Collections.IEnumerator Move()
        {
            while (true)
            {
                updates++;
                distance += Time.deltaTime;
                yield return null;
            }
        }
    }
}
