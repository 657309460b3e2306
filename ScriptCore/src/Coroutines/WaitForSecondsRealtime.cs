using System.Diagnostics;
using System.Globalization;

namespace UEngine
{
    /// <summary>
    /// Waits the given number of seconds of wall-clock time, whatever the game time does
    /// (a paused host still counts them). Checked once per frame, after Update.
    /// </summary>
    public class WaitForSecondsRealtime : CustomYieldInstruction
    {
        float m_Seconds;
        long m_Until = -1; // Stopwatch ticks; set when the coroutine first asks

        /// <summary>Waits <paramref name="time"/> seconds of wall-clock time, counted from the first check.</summary>
        public WaitForSecondsRealtime(float time) { m_Seconds = time; }

        /// <summary>The seconds to wait; setting it starts the wait again.</summary>
        public float waitTime
        {
            get { return m_Seconds; }
            set { m_Seconds = value; m_Until = -1; }
        }

        /// <summary>True until the seconds have passed; then false once, and the wait can be yielded again.</summary>
        public override bool keepWaiting
        {
            get
            {
                long now = Stopwatch.GetTimestamp();
                if (m_Until < 0)
                    m_Until = now + (long)(m_Seconds * Stopwatch.Frequency);
                if (now < m_Until) return true;
                m_Until = -1; // the instruction can be yielded again
                return false;
            }
        }

        /// <summary>"WaitForSecondsRealtime(seconds)".</summary>
        public override string ToString()
        {
            return "WaitForSecondsRealtime(" + m_Seconds.ToString("0.###", CultureInfo.InvariantCulture) + ")";
        }
    }
}
