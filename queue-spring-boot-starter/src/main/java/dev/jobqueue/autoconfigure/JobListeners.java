package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.List;

import org.springframework.beans.factory.ObjectProvider;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobListener;

/** Every {@link JobListener} bean (the metrics' and the application's) behind the one the queue reports to. */
final class JobListeners implements JobListener {

	private final List<JobListener> listeners;

	private JobListeners(List<JobListener> listeners) {
		this.listeners = listeners;
	}

	static JobListener of(ObjectProvider<JobListener> beans) {
		List<JobListener> listeners = beans.orderedStream().toList();
		return switch (listeners.size()) {
			case 0 -> JobListener.NONE;
			case 1 -> listeners.get(0);
			default -> new JobListeners(listeners);
		};
	}

	@Override
	public void onEnqueued(String queue, String kind) {
		listeners.forEach(listener -> listener.onEnqueued(queue, kind));
	}

	@Override
	public void onStarted(JobContext job, Duration wait) {
		listeners.forEach(listener -> listener.onStarted(job, wait));
	}

	@Override
	public void onFinished(JobContext job, Outcome outcome, Duration execution) {
		listeners.forEach(listener -> listener.onFinished(job, outcome, execution));
	}

	@Override
	public void onScheduleFired(String schedule, int jobs) {
		listeners.forEach(listener -> listener.onScheduleFired(schedule, jobs));
	}

	@Override
	public void onScheduleMisfired(String schedule, long missed) {
		listeners.forEach(listener -> listener.onScheduleMisfired(schedule, missed));
	}

	@Override
	public void onReaped(int count) {
		listeners.forEach(listener -> listener.onReaped(count));
	}

	@Override
	public void onMaintaining(boolean maintaining) {
		listeners.forEach(listener -> listener.onMaintaining(maintaining));
	}
}
