using System;
using UEngine;

namespace Tests
{
    public enum Mood { Calm = 0, Happy = 5, Angry = -3 }
    public enum Tiny : byte { Zero, One, Max = 255 }

    public class ZooBase : UMonoScriptComponent
    {
        [SerializeField] protected int baseValue = 11;
        [SerializeField] private string basePrivate = "base";
    }

    // Every field kind of the foundation, plus fields that must NOT be serialised.
    public class FieldZoo : ZooBase
    {
        [SerializeField] bool flag = true;
        [SerializeField] sbyte i8 = -8;
        [SerializeField] byte u8 = 8;
        [SerializeField] short i16 = -16;
        [SerializeField] ushort u16 = 16;
        [SerializeField] int i32 = -32;
        [SerializeField] uint u32 = 32;
        [SerializeField] long i64 = -64;
        [SerializeField] ulong u64 = 64;
        [SerializeField] float f32 = 1.5f;
        [SerializeField] double f64 = 2.25;
        [SerializeField] string text = "héllo";
        [SerializeField] Mood mood = Mood.Happy;
        [SerializeField] Tiny tiny = Tiny.One;
        [SerializeField] Vector3 position = new Vector3(1, 2, 3);
        [SerializeField("Pretty Name"), FormerlySerializedAs("oldName"), FormerlySerializedAs("olderName")]
        int renamed = 3;

        public int publicField = 1;                    // serialised: public (Unity's rule)
        [HideInInspector] public int hiddenField = 5;  // serialised, left out of listings
        public readonly int readOnlyField = 6;         // readonly: never
        public System.Collections.Generic.Dictionary<string, int> table; // cannot be carried: skipped
        [NonSerialized] public int optedOut = 7;
        [SerializeField, NonSerialized] int nonSerialized = 2;
        [SerializeField] static int staticField = 3;
        int privateNotSerialized = 4;

        public int Sum() { return nonSerialized + staticField + privateNotSerialized; }
    }
}
