package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.UnsatisfiedDependencyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import dev.jobqueue.JobQueue;

/**
 * A bean that needs a {@link JobQueue} where none could be set up gets a report of why, instead of Spring's
 * generic "required a bean of type": no {@code DataSource}, or the queue turned off. Ahead of Spring Boot's
 * own analyzer of missing beans, which would otherwise speak first; any other missing bean is left to it.
 */
final class MissingJobQueueFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException>
		implements Ordered {

	private final BeanFactory beanFactory;

	private final Environment environment;

	MissingJobQueueFailureAnalyzer(BeanFactory beanFactory, Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
		if (!JobQueue.class.equals(cause.getBeanType())) {
			return null;
		}
		String use = requiringBean(rootFailure) + " needs a JobQueue";
		if (!environment.getProperty("jobqueue.enabled", Boolean.class, true)) {
			return new FailureAnalysis(use + ", but the queue is turned off (jobqueue.enabled=false).",
					"Remove jobqueue.enabled=false, or let the bean do without the queue (ObjectProvider<JobQueue>).",
					cause);
		}
		if (beanFactory instanceof ListableBeanFactory beans && beans.getBeanNamesForType(DataSource.class).length == 0) {
			return new FailureAnalysis(NoDataSource.description(use), NoDataSource.ACTION, cause);
		}
		return null;
	}

	private String requiringBean(Throwable failure) {
		UnsatisfiedDependencyException unsatisfied = findCause(failure, UnsatisfiedDependencyException.class);
		return unsatisfied != null && unsatisfied.getBeanName() != null ? "Bean '" + unsatisfied.getBeanName() + "'"
				: "A bean";
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}
}
