package dev.jobqueue.faults.app;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;

/**
 * A kind limited to one job at a time in the cluster, fired every second by a schedule each worker started with
 * {@code --fault.limited-schedule=true} declares. Each execution outlasts two fire times and records its start and
 * end in {@code fault_execution}, so that executions that overlapped across the workers show there.
 */
@Component
@ConditionalOnBooleanProperty("fault.limited-schedule")
class LimitedScheduleJobs {

	/** Longer than two fire times: a backlog builds, and an execution not held back overlaps the one before. */
	private static final long WORK_MILLIS = 2_500;

	private final ProbeJobs probes;

	LimitedScheduleJobs(ProbeJobs probes) {
		this.probes = probes;
	}

	@JobHandler(kind = "limited-tick", every = "1s", clusterConcurrency = 1)
	void tick(JobContext context) throws InterruptedException {
		long execution = probes.recordStart(context);
		Thread.sleep(WORK_MILLIS);
		probes.recordEnd(execution);
	}
}
