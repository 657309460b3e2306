using System;
using System.Collections.Generic;
using UEngine;

namespace Tests
{
    // Holds thousands of proxies (given by the host as a list of references) and checks,
    // each frame, that every one still resolves to its own entity.
    public class ProxyHolder : UMonoScriptComponent
    {
        [SerializeField] List<UEntity> targets;
        [SerializeField] int resolved;
        [SerializeField] int identical;

        public override void Update(float deltaTime)
        {
            resolved = 0;
            identical = 0;
            for (int i = 0; i < targets.Count; i++)
            {
                if (targets[i].name == "E" + i) resolved++;
                // Asking the host again must give the very same proxy object.
                if (ReferenceEquals(targets[i].transform, targets[i].transform) &&
                    ReferenceEquals(UEntity.Find("E0"), targets[0])) identical++;
            }
        }
    }

    // Creates entities from C# and lets them go (or keeps some).
    public class Spawner : UMonoScriptComponent
    {
        [SerializeField] int count = 1000;
        [SerializeField] int keep;
        [SerializeField] bool spawned;
        [SerializeField] int keepTransforms;
        [SerializeField] List<UEntity> kept = new List<UEntity>();
        [SerializeField] int transformsLeadBack = -1;
        List<UTransform> heldTransforms = new List<UTransform>(); // their entities held through them only

        public override void Update(float deltaTime)
        {
            if (spawned)
            {
                transformsLeadBack = 0;
                foreach (var t in heldTransforms)
                    if (t.gameObject.name.StartsWith("spawned") && ReferenceEquals(t.gameObject.transform, t))
                        transformsLeadBack++;
                return;
            }
            spawned = true;
            for (int i = 0; i < count; i++)
            {
                var e = new UEntity("spawned" + i);
                if (i < keep) kept.Add(e);
                else if (i < keep + keepTransforms) heldTransforms.Add(e.transform);
            }
        }
    }

    // Calls every UTransform member on an entity that has been destroyed.
    public class TransformOnDestroyed : UMonoScriptComponent
    {
        [SerializeField] int thrown;
        [SerializeField] int updates;
        [SerializeField] string firstMessage = "";
        UTransform t;

        public override void Initialize() { t = UEntity.Find("Doomed").transform; }

        public override void Update(float deltaTime)
        {
            updates++;
            if (updates != 2) return;
            var actions = new List<Action>
            {
                () => { var p = t.position; }, () => t.position = Vector3.one,
                () => { var r = t.rotation; }, () => t.rotation = Quaternion.identity,
                () => { var s = t.scaling; }, () => t.scaling = Vector3.one,
                () => { var f = t.forward; }, () => { var u = t.up; }, () => { var r = t.right; },
                () => t.Move(Vector3.one), () => t.Rotate(Vector3.up, 1f), () => t.Scale(Vector3.one),
            };
            foreach (var a in actions)
            {
                try { a(); }
                catch (MissingReferenceException e) { thrown++; if (firstMessage == "") firstMessage = e.Message; }
            }
        }
    }

    // Holds the transform of "Old", reading it every frame until the test destroys "Old" and
    // gives its slot to "New" (so the held transform's direct access is warm): reading and
    // writing through the held transform must then raise, never reach "New". Also reads and
    // writes "New"'s transform through its own proxy.
    public class StaleTransform : UMonoScriptComponent
    {
        [SerializeField] Vector3 heldPosition;
        [SerializeField] int staleThrown;
        [SerializeField] Vector3 newPosition;
        [SerializeField] Vector3 newScaling;
        [SerializeField] Quaternion newRotation;
        [SerializeField] bool checkedNow;
        UTransform held;

        public override void Initialize() { held = UEntity.Find("Old").transform; }

        public override void Update(float deltaTime)
        {
            var fresh = UEntity.Find("New");
            if (fresh == null)
            {
                heldPosition = held.position;
                return;
            }
            if (checkedNow) return;
            checkedNow = true;
            try { var p = held.position; } catch (MissingReferenceException) { staleThrown++; }
            try { held.position = new Vector3(9, 9, 9); } catch (MissingReferenceException) { staleThrown++; }
            try { var s = held.scaling; } catch (MissingReferenceException) { staleThrown++; }
            try { held.scaling = new Vector3(9, 9, 9); } catch (MissingReferenceException) { staleThrown++; }
            try { var r = held.rotation; } catch (MissingReferenceException) { staleThrown++; }
            newPosition = fresh.transform.position;
            newScaling = fresh.transform.scaling;
            newRotation = fresh.transform.rotation;
            fresh.transform.position = newPosition + new Vector3(1, 0, 0);
            fresh.transform.scaling = new Vector3(2, 3, 4);
        }
    }

    // Uses the factory functions from C#.
    public class Factory : UMonoScriptComponent
    {
        [SerializeField] bool done;
        [SerializeField] UEntity made;
        [SerializeField] UCameraComponent addedCamera;
        [SerializeField] Counter addedScript;
        [SerializeField] bool scriptFound;
        [SerializeField] bool cameraFound;
        [SerializeField] string nullDestroy = "";
        [SerializeField] string notAComponent = "";
        [SerializeField] string abstractComponent = "";
        [SerializeField] string missingKind = "";
        [SerializeField] bool destroyedRequested;

        public override void Update(float deltaTime)
        {
            if (!done)
            {
                done = true;
                made = new UEntity("Made");
                addedCamera = made.AddComponent<UCameraComponent>();
                addedScript = made.AddComponent<Counter>();
                scriptFound = ReferenceEquals(made.GetComponent<Counter>(), addedScript);
                cameraFound = ReferenceEquals(made.GetComponent<UCameraComponent>(), addedCamera);
                try { UObject.Destroy(null); } catch (Exception e) { nullDestroy = e.GetType().Name; }
                try { made.AddComponent(typeof(string)); } catch (Exception e) { notAComponent = e.GetType().Name; }
                try { made.AddComponent(typeof(UComponent)); } catch (Exception e) { abstractComponent = e.GetType().Name; }
                try { made.AddComponent(typeof(Unbound)); } catch (Exception e) { missingKind = e.GetType().Name; }
                return;
            }
            if (!destroyedRequested && Time.frameCount >= 3)
            {
                destroyedRequested = true;
                UObject.Destroy(made); // the entity, its camera and its Counter, at the end of the frame
            }
        }
    }

    // A component class bound to no native kind.
    public class Unbound : UComponent { }
}
