using UnityEngine;

// Rings once, delay seconds after the level starts.
public class Timer : MonoBehaviour
{
    public float delay = 1f;

    public bool rang;
    public long startFrame;
    public float startTime;
    public long ringFrame = -1;
    public float ringTime = -1f;
    public float lastTimeBeforeRing; // Time.time of the last frame that did not ring

    private float previousFrameTime;

    void Start()
    {
        startFrame = Time.frameCount;
        startTime = Time.time;
        Invoke("Ring", delay);
    }

    void Update()
    {
        // Invoke calls Ring after Update, so in the frame it rings this still sees the frame before.
        if (!rang)
        {
            lastTimeBeforeRing = previousFrameTime;
            previousFrameTime = Time.time;
        }
    }

    void Ring()
    {
        rang = true;
        ringFrame = Time.frameCount;
        ringTime = Time.time;
        Debug.Log("Timer rang at frame " + Time.frameCount + ", " + Time.time + " s");
    }
}
