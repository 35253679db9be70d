package dev.jobqueue.faults.app;

/**
 * What a probe job does when it runs.
 *
 * @param sleepMillis how long it works
 * @param failTimes how many of its first attempts throw
 * @param halt whether it halts its JVM (a poison pill)
 * @param ignoreInterrupt whether it keeps working when its lease is found lost (a handler that never checks)
 * @param errorChars when positive, every attempt throws with a message this long
 * @param nulInError whether that message holds NUL characters, which PostgreSQL text cannot store
 * @param record whether it records its start and end in {@code fault_execution}
 */
public record Probe(long sleepMillis, int failTimes, boolean halt, boolean ignoreInterrupt, int errorChars,
		boolean nulInError, boolean record) {

	public static Probe sleeping(long sleepMillis) {
		return new Probe(sleepMillis, 0, false, false, 0, false, false);
	}

	public Probe failing(int times) {
		return new Probe(sleepMillis, times, halt, ignoreInterrupt, errorChars, nulInError, record);
	}

	public Probe halting() {
		return new Probe(sleepMillis, failTimes, true, ignoreInterrupt, errorChars, nulInError, record);
	}

	public Probe ignoringInterrupts() {
		return new Probe(sleepMillis, failTimes, halt, true, errorChars, nulInError, record);
	}

	public Probe withError(int chars, boolean nul) {
		return new Probe(sleepMillis, failTimes, halt, ignoreInterrupt, chars, nul, record);
	}

	public Probe recorded() {
		return new Probe(sleepMillis, failTimes, halt, ignoreInterrupt, errorChars, nulInError, true);
	}
}
