using UnityEngine;

// Aims its barrel (a child) at a target every frame and follows the muzzle (the barrel's own
// child) through the hierarchy.
public class Turret : MonoBehaviour
{
    public Transform target;
    public string barrelName = "Barrel";

    public int children;
    public string muzzleRoot = "";
    public Vector3 muzzlePosition;
    public Vector3 muzzleLocalPosition;
    public int aims;

    [SerializeField] private Transform barrel;
    [SerializeField] private Transform muzzle;

    void Start()
    {
        foreach (Transform child in transform)
            children++;
        barrel = transform.Find(barrelName);
        muzzle = barrel.GetChild(0);
        muzzleRoot = muzzle.root.name;
        Debug.Log(name + " has " + children + " child, its muzzle under " + muzzleRoot);
    }

    void LateUpdate()
    {
        if (target == null)
            return;
        barrel.LookAt(target);
        muzzlePosition = muzzle.position;
        muzzleLocalPosition = muzzle.localPosition;
        aims++;
    }
}
