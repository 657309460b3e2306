using UnityEngine;

// Hit points, with C# events for whoever wants to know (HUD, score, sound).
public class Health : MonoBehaviour
{
    public int maxHealth = 100;
    [SerializeField] private int currentHealth;
    public bool isDead;

    public event System.Action<int> Damaged; // the health left
    public event System.Action Died;

    public int CurrentHealth { get { return currentHealth; } }

    void Awake()
    {
        // A level may start someone hurt; otherwise they start at full health.
        if (currentHealth <= 0)
            currentHealth = maxHealth;
    }

    public void TakeDamage(int amount)
    {
        if (isDead)
            return;

        currentHealth = Mathf.Max(currentHealth - amount, 0);
        Debug.Log(name + " took " + amount + " damage, " + currentHealth + " left (frame " + Time.frameCount + ")");
        Damaged?.Invoke(currentHealth);

        if (currentHealth == 0)
        {
            isDead = true;
            Died?.Invoke();
            gameObject.SetActive(false);
        }
    }

    public void Heal(int amount)
    {
        if (isDead)
            return;
        currentHealth = Mathf.Min(currentHealth + amount, maxHealth);
    }
}
