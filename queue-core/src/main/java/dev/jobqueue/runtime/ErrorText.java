package dev.jobqueue.runtime;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * The error stored with a failed job: message and stack trace, cut to a bounded length, and storable in
 * any database's text column. A handler's message is not ours to trust: it may be megabytes long, or hold
 * NUL characters, which PostgreSQL text refuses; either would make the outcome write fail and the job
 * run again and again with its error unseen.
 */
final class ErrorText {

	private ErrorText() {
	}

	static String of(Throwable error, int maxLength) {
		StringWriter text = new StringWriter();
		error.printStackTrace(new PrintWriter(text));
		return withoutNul(bounded(text.toString(), maxLength));
	}

	private static String withoutNul(String text) {
		return text.indexOf('\u0000') < 0 ? text : text.replace('\u0000', '\uFFFD');
	}

	static String bounded(String text, int maxLength) {
		if (text.length() <= maxLength) {
			return text;
		}
		String marker = "\n... (" + (text.length() - maxLength) + " more characters cut)";
		return text.substring(0, maxLength - marker.length()) + marker;
	}
}
