using System.Collections.Generic;
using UnityEngine;

// Spawns a few enemies around itself from a prefab, one every spawnInterval seconds. A fixed
// seed makes every play-through spawn them at the same places.
public class EnemySpawner : MonoBehaviour
{
    public GameObject enemyPrefab;
    public int seed = 1234;
    public int maxEnemies = 5;
    public float firstSpawnDelay = 0.5f;
    public float spawnInterval = 0.5f;
    public float spawnRadius = 5f;

    public int spawned;
    public int kills;
    public List<Vector3> spawnPositions = new List<Vector3>();

    void Start()
    {
        Random.InitState(seed);
        InvokeRepeating("Spawn", firstSpawnDelay, spawnInterval);
    }

    void Spawn()
    {
        Vector3 offset = new Vector3(Random.Range(-spawnRadius, spawnRadius), 0f,
                                     Random.Range(-spawnRadius, spawnRadius));
        Vector3 position = transform.position + offset;

        GameObject enemy = Instantiate(enemyPrefab, position, Quaternion.identity);
        enemy.name = "Enemy " + (spawned + 1);
        enemy.SetActive(true); // the prefab is kept inactive in the level

        Health health = enemy.GetComponent<Health>();
        if (health != null)
            health.Died += OnEnemyDied;

        spawned++;
        spawnPositions.Add(position);
        Debug.Log("Spawned " + enemy.name + " at " + position + " (frame " + Time.frameCount + ")");

        if (spawned >= maxEnemies)
            CancelInvoke("Spawn");
    }

    void OnEnemyDied()
    {
        kills++;
    }
}
