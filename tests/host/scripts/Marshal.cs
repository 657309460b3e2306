using System;
using System.Collections.Generic;
using UEngine;

namespace Tests
{
    // C++ → C#: the host writes the *In fields; Update computes each *Out from its In in
    // managed code (a different value, so a copy that skipped C# would show), and C++
    // reads the Outs back.
    public class MarshalEcho : UMonoScriptComponent
    {
        [SerializeField] bool boolIn; [SerializeField] bool boolOut;
        [SerializeField] sbyte i8In; [SerializeField] sbyte i8Out;
        [SerializeField] byte u8In; [SerializeField] byte u8Out;
        [SerializeField] short i16In; [SerializeField] short i16Out;
        [SerializeField] ushort u16In; [SerializeField] ushort u16Out;
        [SerializeField] int i32In; [SerializeField] int i32Out;
        [SerializeField] uint u32In; [SerializeField] uint u32Out;
        [SerializeField] long i64In; [SerializeField] long i64Out;
        [SerializeField] ulong u64In; [SerializeField] ulong u64Out;
        [SerializeField] float f32In; [SerializeField] float f32Out;
        [SerializeField] double f64In; [SerializeField] double f64Out;
        [SerializeField] string textIn; [SerializeField] string textOut; [SerializeField] int textLength;
        [SerializeField] Mood moodIn; [SerializeField] Mood moodOut;
        [SerializeField] Vector2 v2In; [SerializeField] Vector2 v2Out;
        [SerializeField] Vector3 v3In; [SerializeField] Vector3 v3Out;
        [SerializeField] Vector4 v4In; [SerializeField] Vector4 v4Out;
        [SerializeField] Quaternion qIn; [SerializeField] Quaternion qOut;
        [SerializeField] int[] intsIn; [SerializeField] int[] intsOut; [SerializeField] long intsSum;
        [SerializeField] List<string> wordsIn; [SerializeField] List<string> wordsOut;
        [SerializeField] List<Vector3> pointsIn; [SerializeField] List<Vector3> pointsOut;
        [SerializeField] UEntity entityIn; [SerializeField] UEntity entityOut; [SerializeField] string entityName;
        [SerializeField] UCameraComponent cameraIn; [SerializeField] URenderComponent cameraAsRender;
        [SerializeField] Counter counterIn; [SerializeField] Counter counterOut; [SerializeField] int counterUpdates;
        [SerializeField] UEntity[] entitiesIn; [SerializeField] List<UEntity> entitiesOut; [SerializeField] string entityNames;

        public override void Update(float deltaTime)
        {
            boolOut = !boolIn;
            i8Out = (sbyte)(i8In ^ 1); u8Out = (byte)(u8In ^ 1);
            i16Out = (short)(i16In ^ 1); u16Out = (ushort)(u16In ^ 1);
            i32Out = i32In ^ 1; u32Out = u32In ^ 1;
            i64Out = i64In ^ 1; u64Out = u64In ^ 1;
            f32Out = -f32In; f64Out = -f64In;
            textOut = textIn == null ? null : textIn + "!";
            textLength = textIn == null ? -1 : textIn.Length;
            moodOut = moodIn == Mood.Happy ? Mood.Angry : Mood.Happy;
            v2Out = v2In * 2f; v3Out = v3In * 2f; v4Out = v4In * 2f;
            qOut = new Quaternion(qIn.w, qIn.z, qIn.y, qIn.x);
            if (intsIn != null)
            {
                intsOut = (int[])intsIn.Clone();
                Array.Reverse(intsOut);
                intsSum = 0;
                foreach (int x in intsIn) intsSum += x;
            }
            if (wordsIn != null) { wordsOut = new List<string>(wordsIn); wordsOut.Add("end"); }
            if (pointsIn != null) { pointsOut = new List<Vector3>(); foreach (var p in pointsIn) pointsOut.Add(p + Vector3.one); }
            entityOut = entityIn;
            entityName = entityIn == null ? "<null>" : entityIn.name;
            cameraAsRender = cameraIn;
            counterOut = counterIn;
            counterUpdates = counterIn == null ? -1 : counterIn.publicUpdates;
            if (entitiesIn != null)
            {
                entitiesOut = new List<UEntity>(entitiesIn);
                entitiesOut.Reverse();
                entityNames = "";
                foreach (var e in entitiesIn) entityNames += (e == null ? "<null>" : e.name) + ";";
            }
        }
    }

    // C# → C++: values written by managed code only, read by the host.
    public class MarshalConstants : UMonoScriptComponent
    {
        [SerializeField] long minLong; [SerializeField] ulong maxULong; [SerializeField] sbyte minSByte;
        [SerializeField] float nan; [SerializeField] float posInf; [SerializeField] double negInf;
        [SerializeField] float tiny; [SerializeField] double precise;
        [SerializeField] string empty; [SerializeField] string nonAscii; [SerializeField] string nullText;
        [SerializeField] Mood mood;
        [SerializeField] Vector3 vector; [SerializeField] Quaternion rotation;
        [SerializeField] int[] emptyArray; [SerializeField] int[] bigArray; [SerializeField] int[] nullArray;
        [SerializeField] List<string> words; [SerializeField] List<double> emptyList;
        [SerializeField] UEntity self; [SerializeField] UEntity nobody; [SerializeField] MarshalConstants me;
        [SerializeField] List<UEntity> selves;

        public override void Initialize()
        {
            minLong = long.MinValue; maxULong = ulong.MaxValue; minSByte = sbyte.MinValue;
            nan = float.NaN; posInf = float.PositiveInfinity; negInf = double.NegativeInfinity;
            tiny = float.Epsilon; precise = 0.1 + 0.2;
            empty = ""; nonAscii = "日本語 ✓ ünïcødé \U0001F600"; nullText = null;
            mood = Mood.Angry;
            vector = new Vector3(-1.5f, 2.25f, 1e30f); rotation = Quaternion.AngleAxis(90f, Vector3.up);
            emptyArray = new int[0];
            bigArray = new int[10000];
            for (int i = 0; i < bigArray.Length; i++) bigArray[i] = i * i - 5000;
            words = new List<string> { "alpha", "", "γ" };
            emptyList = new List<double>();
            self = gameObject; nobody = null; me = this;
            selves = new List<UEntity> { gameObject, null, gameObject };
        }
    }
}
