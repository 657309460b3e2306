using UnityEngine;

// Moves one grid cell per key press (arrows or WASD), one axis at a time, with a short
// cooldown between steps so that holding a key walks at a steady pace.
public class GridMover : MonoBehaviour
{
    public float gridSize = 1f;
    public float stepCooldown = 0.2f;

    public int steps;
    public Vector3 lastStep;

    [SerializeField] private float cooldownLeft;

    void Start()
    {
        transform.position = Snap(transform.position);
    }

    void Update()
    {
        if (cooldownLeft > 0f)
        {
            cooldownLeft -= Time.deltaTime;
            return;
        }

        float horizontal = Input.GetAxisRaw("Horizontal");
        float vertical = Input.GetAxisRaw("Vertical");
        if (horizontal == 0f && vertical == 0f)
            return;

        Vector3 step = horizontal != 0f ? new Vector3(Mathf.Sign(horizontal), 0f, 0f)
                                        : new Vector3(0f, 0f, Mathf.Sign(vertical));
        transform.position = Snap(transform.position + step * gridSize);
        lastStep = step;
        steps++;
        cooldownLeft = stepCooldown;
    }

    Vector3 Snap(Vector3 position)
    {
        return new Vector3(Mathf.Round(position.x / gridSize) * gridSize, position.y,
                           Mathf.Round(position.z / gridSize) * gridSize);
    }
}
