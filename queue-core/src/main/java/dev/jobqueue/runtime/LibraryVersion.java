package dev.jobqueue.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The jobqueue version this code was built as: written by the build into {@code dev/jobqueue/version.properties}
 * (a filtered resource), so that it is known in tests as in the jar, where a manifest entry is not.
 */
final class LibraryVersion {

	private static final String VERSION = read();

	private LibraryVersion() {
	}

	static String get() {
		return VERSION;
	}

	private static String read() {
		try (InputStream in = LibraryVersion.class.getResourceAsStream("/dev/jobqueue/version.properties")) {
			if (in == null) {
				return "unknown";
			}
			Properties properties = new Properties();
			properties.load(in);
			return properties.getProperty("version", "unknown");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}
