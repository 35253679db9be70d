package dev.jobqueue.autoconfigure;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;
import dev.jobqueue.runtime.HandlerLogs;

/**
 * Copies what a handler's thread logs through Logback into its job's log ({@code jobqueue.worker.capture-logs}), as
 * {@link dev.jobqueue.JobContext#log} lines, bounded as those are: {@code LEVEL logger - message}, with the class and
 * message of a logged exception. Attached to the root logger, so it sees whatever the application's levels let
 * through; events of threads that run no handler pass by.
 */
final class HandlerLogAppender extends AppenderBase<ILoggingEvent> implements AutoCloseable {

	private static final String NAME = "jobqueue-handler-logs";

	private final Logger root;

	private HandlerLogAppender(LoggerContext context) {
		this.root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
		setContext(context);
		setName(NAME);
	}

	/**
	 * Attaches a started appender to the root logger.
	 *
	 * @throws IllegalStateException when SLF4J does not log through Logback
	 */
	static HandlerLogAppender attach() {
		if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
			throw new IllegalStateException("jobqueue.worker.capture-logs=true copies handlers' Logback output, but "
					+ "SLF4J logs through " + LoggerFactory.getILoggerFactory().getClass().getName()
					+ " here; use Logback (Spring Boot's default logging), or turn the property off");
		}
		HandlerLogAppender appender = new HandlerLogAppender(context);
		appender.start();
		appender.root.addAppender(appender);
		return appender;
	}

	@Override
	protected void append(ILoggingEvent event) {
		IThrowableProxy thrown = event.getThrowableProxy();
		HandlerLogs.log(event.getLevel() + " " + event.getLoggerName() + " - "
				+ event.getFormattedMessage()
				+ (thrown == null ? "" : " (" + thrown.getClassName() + ": " + thrown.getMessage() + ")"));
	}

	@Override
	public void close() {
		root.detachAppender(this);
		stop();
	}
}
