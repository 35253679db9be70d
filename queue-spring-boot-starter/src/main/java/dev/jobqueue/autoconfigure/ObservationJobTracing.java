package dev.jobqueue.autoconfigure;

import java.util.Map;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobTracing;

/**
 * The queue's spans as Micrometer Observations. The enqueue is a producer's observation whose carrier is the
 * map the queue stores with the job: micrometer-tracing's propagating handler writes the enqueue span's
 * context into it ({@code traceparent}, or B3's fields, as the application's propagator does). Each execution
 * is a consumer's observation whose carrier is that map read back, so its span is the enqueue span's child,
 * whichever node runs it and however long after. Without a tracer the observations still time both
 * (jobqueue.enqueue, jobqueue.execute) when a meter handler is registered.
 *
 * <p>Low-cardinality keys are the queue and the kind (both bounded: queues are configured, kinds are code);
 * the job's id, its attempt and a batch's size go on the span only.
 */
final class ObservationJobTracing implements JobTracing {

	static final String ENQUEUE = "jobqueue.enqueue";

	static final String EXECUTE = "jobqueue.execute";

	private final ObservationRegistry registry;

	ObservationJobTracing(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public Span enqueueing(String queue, String kind, int jobs, Map<String, String> context) {
		SenderContext<Map<String, String>> sender = new SenderContext<>(
				(carrier, key, value) -> carrier.put(key, value), Kind.PRODUCER);
		sender.setCarrier(context);
		Observation observation = Observation.createNotStarted(ENQUEUE, () -> sender, registry)
			.contextualName("enqueue " + kind)
			.lowCardinalityKeyValues(KeyValues.of("jobqueue.queue", queue, "jobqueue.kind", kind))
			.highCardinalityKeyValue("jobqueue.jobs", Integer.toString(jobs));
		return new ObservedSpan(observation.start());
	}

	@Override
	public Span executing(JobContext job, Map<String, String> context) {
		ReceiverContext<Map<String, String>> receiver = new ReceiverContext<>(
				(carrier, key) -> carrier.get(key), Kind.CONSUMER);
		receiver.setCarrier(context);
		Observation observation = Observation.createNotStarted(EXECUTE, () -> receiver, registry)
			.contextualName("execute " + job.kind())
			.lowCardinalityKeyValues(KeyValues.of("jobqueue.queue", job.queue(), "jobqueue.kind", job.kind()))
			.highCardinalityKeyValues(KeyValues.of("jobqueue.job.id", Long.toString(job.jobId()),
					"jobqueue.job.attempt", Integer.toString(job.attempt())));
		return new ObservedSpan(observation.start());
	}

	/** A started observation, current on this thread until closed. */
	private static final class ObservedSpan implements Span {

		private final Observation observation;

		private final Observation.Scope scope;

		ObservedSpan(Observation observation) {
			this.observation = observation;
			this.scope = observation.openScope();
		}

		@Override
		public void failed(Throwable error) {
			observation.error(error);
		}

		@Override
		public void close() {
			scope.close();
			observation.stop();
		}
	}
}
