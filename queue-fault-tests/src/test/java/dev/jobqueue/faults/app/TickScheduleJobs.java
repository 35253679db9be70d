package dev.jobqueue.faults.app;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

import dev.jobqueue.spring.JobHandler;

/**
 * A schedule that fires every second, declared by each worker started with {@code --fault.tick-schedule=true}. Its
 * jobs do nothing: what a scenario looks at is when each fire time was enqueued, and by whom.
 */
@Component
@ConditionalOnBooleanProperty("fault.tick-schedule")
class TickScheduleJobs {

	@JobHandler(kind = "tick", every = "1s")
	void tick() {
		// Nothing to do: the job's row, its unique key naming its fire time, is the scenario's record.
	}
}
