using UnityEngine;

// A health pack. There are no trigger colliders here, so it looks at whoever could walk over
// it (visitors) and checks the distance itself; only the player may take it.
public class Pickup : MonoBehaviour
{
    public Transform[] visitors;
    public float pickupRadius = 0.5f;
    public int healAmount = 25;

    public bool collected;
    public long collectedFrame = -1;
    public string collectedBy = "";
    public string lastIgnored = "";

    void Update()
    {
        foreach (Transform visitor in visitors)
        {
            if (visitor == null)
                continue;
            if (Vector3.Distance(transform.position, visitor.position) <= pickupRadius)
                Touched(visitor.gameObject);
            if (collected)
                return;
        }
    }

    void Touched(GameObject other)
    {
        if (!other.CompareTag("Player"))
        {
            if (lastIgnored != other.name)
            {
                lastIgnored = other.name;
                Debug.Log(name + " ignores " + other.name + " (frame " + Time.frameCount + ")");
            }
            return;
        }

        Health health = other.GetComponent<Health>();
        if (health != null)
            health.Heal(healAmount);

        collected = true;
        collectedFrame = Time.frameCount;
        collectedBy = other.name;
        Debug.Log(other.name + " picked up " + name + " (frame " + Time.frameCount + ")");
        gameObject.SetActive(false);
    }
}
