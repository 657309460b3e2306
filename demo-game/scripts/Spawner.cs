using System.Collections.Generic;
using UEngine;

namespace Demo
{
    /// Creates sparks (entities made from C#) that drift across the arena and are
    /// destroyed when their time is up. The sparks and their ages are serialized, so they
    /// survive a reload.
    public class Spawner : UMonoScriptComponent
    {
        [SerializeField("Seconds between sparks")] float interval = 0.5f;
        [SerializeField("Seconds a spark lives")] float lifetime = 3f;
        [SerializeField("Spark speed")] float speed = 3f;
        [SerializeField] int spawned;
        [SerializeField] List<UEntity> sparks = new List<UEntity>();
        [SerializeField] List<float> ages = new List<float>();
        float untilNext;

        public override void Update(float deltaTime)
        {
            untilNext -= deltaTime;
            if (untilNext <= 0f)
            {
                untilNext += interval;
                Spawn();
            }
            for (int i = sparks.Count - 1; i >= 0; --i)
            {
                ages[i] += deltaTime;
                UEntity spark = sparks[i];
                if (spark == null || !spark.isAlive || ages[i] >= lifetime)
                {
                    if (spark != null && spark.isAlive) UObject.Destroy(spark);
                    sparks.RemoveAt(i);
                    ages.RemoveAt(i);
                    continue;
                }
                spark.transform.Move(spark.transform.forward * (speed * deltaTime));
            }
        }

        void Spawn()
        {
            spawned++;
            var spark = new UEntity("Spark " + spawned);
            spark.AddComponent<URenderComponent>();
            spark.transform.position = transform.position;
            // Fan out: each spark heads off at another angle, 47° further left.
            spark.transform.Rotate(Vector3.up, -(spawned * 47f % 360f));
            sparks.Add(spark);
            ages.Add(0f);
        }

        public override void Destroy()
        {
            foreach (UEntity spark in sparks)
                if (spark != null && spark.isAlive) UObject.Destroy(spark);
            sparks.Clear();
            ages.Clear();
        }
    }
}
