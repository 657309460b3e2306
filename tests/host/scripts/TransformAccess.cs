using System;
using System.Threading;
using UEngine;

namespace Tests
{
    // Reads its entity's transform every frame through the same UTransform, so its direct
    // access stays warm: `seen` is the position read, `seenRotation` the rotation; then the
    // scaling is set to the position read and multiplied by `scaleBy`, and the entity moves by
    // `moveBy`. With `probeThread` set it also reads and writes the same UTransform from a
    // thread of its own, once.
    public class TransformMirror : UMonoScriptComponent
    {
        [SerializeField] Vector3 seen;
        [SerializeField] Quaternion seenRotation;
        [SerializeField] Vector3 moveBy;
        [SerializeField] Vector3 scaleBy = Vector3.one;
        [SerializeField] int reads;
        [SerializeField] string error = "";
        [SerializeField] bool probeThread;
        [SerializeField] string threadRead = "";
        [SerializeField] string threadWrite = "";

        public override void Update(float deltaTime)
        {
            error = "";
            try
            {
                UTransform t = transform;
                seen = t.position;
                seenRotation = t.rotation;
                t.scaling = seen;
                t.Scale(scaleBy);
                t.Move(moveBy);
                reads++;
            }
            catch (Exception e) { error = e.GetType().Name + ": " + e.Message; }
            if (!probeThread) return;
            probeThread = false;
            UTransform held = transform;
            var thread = new Thread(() =>
            {
                try { threadRead = "read " + held.position; }
                catch (Exception e) { threadRead = e.GetType().Name + ": " + e.Message; }
                try { held.position = new Vector3(-1, -1, -1); threadWrite = "wrote"; }
                catch (Exception e) { threadWrite = e.GetType().Name + ": " + e.Message; }
            });
            thread.Start();
            thread.Join();
        }
    }
}
