package dev.jobqueue.support;

import java.util.List;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/** Captures what jobqueue (or another logger and those below it) logs while a test runs. */
public final class LogCapture implements AutoCloseable {

	private final Logger logger;

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	public LogCapture() {
		this("dev.jobqueue");
	}

	public LogCapture(String loggerName) {
		logger = (Logger) LoggerFactory.getLogger(loggerName);
		appender.start();
		logger.addAppender(appender);
	}

	/** Formatted messages (with the exception's text) logged at {@code level} or above. */
	public List<String> messagesAtLeast(Level level) {
		return List.copyOf(appender.list)
			.stream()
			.filter(event -> event.getLevel().isGreaterOrEqual(level))
			.map(event -> event.getFormattedMessage()
					+ (event.getThrowableProxy() == null ? "" : " " + event.getThrowableProxy().getMessage()))
			.toList();
	}

	@Override
	public void close() {
		logger.detachAppender(appender);
	}
}
