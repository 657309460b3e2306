using System.Collections.Generic;
using UnityEngine;

// Walks from waypoint to waypoint, round and round.
public class Patrol : MonoBehaviour
{
    public Transform[] waypoints;
    public float speed = 3f;
    public float arriveDistance = 0.01f;

    public int reachedWaypoint = -1;
    public int arrivals;
    public List<long> arrivalFrames = new List<long>();
    public List<float> arrivalTimes = new List<float>();

    [SerializeField] private int targetIndex;

    void Update()
    {
        if (waypoints == null || waypoints.Length == 0)
            return;

        Transform target = waypoints[targetIndex];
        transform.LookAt(target);
        transform.position = Vector3.MoveTowards(transform.position, target.position, speed * Time.deltaTime);

        if (Vector3.Distance(transform.position, target.position) < arriveDistance)
        {
            reachedWaypoint = targetIndex;
            arrivals++;
            arrivalFrames.Add(Time.frameCount);
            arrivalTimes.Add(Time.time);
            Debug.Log(name + " reached waypoint " + targetIndex + " at frame " + Time.frameCount);
            targetIndex = (targetIndex + 1) % waypoints.Length;
        }
    }
}
