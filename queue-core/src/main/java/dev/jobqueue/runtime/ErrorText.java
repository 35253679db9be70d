package dev.jobqueue.runtime;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The error stored with a failed job: message and stack trace, cut to a bounded length. */
final class ErrorText {

	private ErrorText() {
	}

	static String of(Throwable error, int maxLength) {
		StringWriter text = new StringWriter();
		error.printStackTrace(new PrintWriter(text));
		return bounded(text.toString(), maxLength);
	}

	static String bounded(String text, int maxLength) {
		if (text.length() <= maxLength) {
			return text;
		}
		String marker = "\n... (" + (text.length() - maxLength) + " more characters cut)";
		return text.substring(0, maxLength - marker.length()) + marker;
	}
}
