package dev.jobqueue.faults.app;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;

/**
 * A kind that only the newer version of the application serves: a worker started with
 * {@code --fault.new-version=true} has it, the others play the version deployed before it existed.
 */
@Component
@ConditionalOnBooleanProperty("fault.new-version")
class NewVersionJobs {

	private final ProbeJobs probes;

	NewVersionJobs(ProbeJobs probes) {
		this.probes = probes;
	}

	@JobHandler(kind = "probe-new")
	void probeNew(Probe probe, JobContext context) throws InterruptedException {
		probes.probe(probe, context);
	}
}
