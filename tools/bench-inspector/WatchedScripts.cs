// The scripts bench_inspector watches: three fields that change every frame, so that every
// sweep of a watch has every row to send (the most work a watch can make).
using UEngine;

namespace Bench
{
    public class Watched : UMonoScriptComponent
    {
        [SerializeField] int updates;
        [SerializeField] float distance;
        [SerializeField] public Vector3 offset;

        public override void Update(float deltaTime)
        {
            updates++;
            distance += deltaTime;
            offset = new Vector3(distance, updates, 0);
        }
    }
}
