using UEngine;

namespace Demo
{
    /// Logs a line every few seconds of game time, so a headless run shows it is alive.
    public class Heartbeat : UMonoScriptComponent
    {
        [SerializeField("Seconds between beats")] float interval = 1f;
        [SerializeField] int beats;
        [SerializeField] float untilNext; // carried across reloads, so a reload does not beat early

        public override void Initialize() { untilNext = interval; }

        public override void Update(float deltaTime)
        {
            untilNext -= deltaTime;
            if (untilNext > 0f) return;
            untilNext += interval;
            beats++;
            Debug.Log("heartbeat " + beats + " at t=" + Time.time.ToString("F2") + " s");
        }
    }
}
