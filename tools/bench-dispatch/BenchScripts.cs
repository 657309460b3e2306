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

        /// n reads of transform.position: one internal call (Vector3 by out) each.
        public static float ReadPosition(string entity, int n)
        {
            UTransform t = UEntity.Find(entity).transform;
            float sum = 0f;
            for (int i = 0; i < n; i++) sum += t.position.x;
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
