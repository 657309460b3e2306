using System.Collections;
using UnityEngine;

// Keeps an eye on the enemies: counts the ones still standing every few moments, and hears
// about every hit and every kill of the ones that were in the level from the start.
public class WaveManager : MonoBehaviour
{
    public float firstCheckDelay = 0.25f;
    public float checkInterval = 0.5f;

    public int checks;
    public int enemiesAlive;
    public int peakEnemies;
    public int enemyHits;
    public int enemiesKilled;
    public int lastEnemyHealth = -1;

    void Start()
    {
        foreach (GameObject enemy in GameObject.FindGameObjectsWithTag("Enemy"))
        {
            Health health = enemy.GetComponent<Health>();
            if (health != null)
            {
                health.Damaged += OnEnemyDamaged;
                health.Died += OnEnemyDied;
            }
        }
        StartCoroutine(CountEnemies());
    }

    IEnumerator CountEnemies()
    {
        yield return new WaitForSeconds(firstCheckDelay);
        while (true)
        {
            enemiesAlive = GameObject.FindGameObjectsWithTag("Enemy").Length;
            peakEnemies = Mathf.Max(peakEnemies, enemiesAlive);
            checks++;
            Debug.Log("Wave check " + checks + ": " + enemiesAlive + " enemies (frame " + Time.frameCount + ")");
            yield return new WaitForSeconds(checkInterval);
        }
    }

    void OnEnemyDamaged(int healthLeft)
    {
        enemyHits++;
        lastEnemyHealth = healthLeft;
    }

    void OnEnemyDied()
    {
        enemiesKilled++;
    }
}
