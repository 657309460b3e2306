using UnityEngine;

// Flies straight ahead and damages the first target it comes close to. Without physics it
// checks the distance to its targets itself; it is gone after its lifetime either way.
public class Projectile : MonoBehaviour
{
    public float speed = 10f;
    public float lifetime = 3f;
    public int damage = 10;
    public float hitRadius = 0.6f;
    public string targetTag = "Enemy";

    public float distanceTravelled;

    void Start()
    {
        Destroy(gameObject, lifetime);
    }

    void Update()
    {
        transform.Translate(Vector3.forward * speed * Time.deltaTime);
        distanceTravelled += speed * Time.deltaTime;

        foreach (GameObject target in GameObject.FindGameObjectsWithTag(targetTag))
        {
            if (Vector3.Distance(transform.position, target.transform.position) <= hitRadius)
            {
                Debug.Log(name + " hit " + target.name + " (frame " + Time.frameCount + ")");
                Health health = target.GetComponent<Health>();
                if (health != null)
                    health.TakeDamage(damage);
                Destroy(gameObject);
                return;
            }
        }
    }

    void OnDestroy()
    {
        Debug.Log(name + " destroyed at frame " + Time.frameCount);
    }
}
