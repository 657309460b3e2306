using UnityEngine;

// A third-person camera: it glides to a point behind and above its target and keeps looking
// at it. LateUpdate, so the target has already moved this frame.
public class CameraFollow : MonoBehaviour
{
    public Transform target;
    public Vector3 offset = new Vector3(0f, 5f, -8f);
    public float smoothTime = 0.25f;

    // How far the camera still is from where it wants to be (for the HUD's debug line).
    public float distanceToGoal;

    private Vector3 velocity = Vector3.zero;

    void LateUpdate()
    {
        if (target == null)
            return;

        Vector3 goal = target.position + offset;
        transform.position = Vector3.SmoothDamp(transform.position, goal, ref velocity, smoothTime);
        transform.LookAt(target);
        distanceToGoal = Vector3.Distance(transform.position, goal);
    }
}
