package dev.jobqueue.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** The report of a {@link JobQueueStartupException}: its message as the description, its action. */
final class JobQueueStartupFailureAnalyzer extends AbstractFailureAnalyzer<JobQueueStartupException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, JobQueueStartupException cause) {
		return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
	}
}
