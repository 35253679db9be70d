package dev.jobqueue;

import java.util.regex.Pattern;

/**
 * What a queue name may be: 1 to 100 letters, digits, {@code _}, {@code .} or {@code -}. Queue names come
 * from configuration, annotations and callers, end up in SQL (bound, never spliced), in logs, metric tags
 * and thread names; a plain name keeps all of those unsurprising, and a bad one is refused where it is
 * given, before any statement is sent.
 */
final class QueueNames {

	/** The rule, as error messages state it. */
	static final String RULE = "[A-Za-z0-9_.-]{1,100}";

	private static final Pattern VALID = Pattern.compile(RULE);

	private QueueNames() {
	}

	static boolean isValid(String name) {
		return name != null && VALID.matcher(name).matches();
	}

	/** Why {@code name} is refused, for a message that starts with what named it. */
	static String problem(String name) {
		return "must match " + RULE + ", was '" + name + "'";
	}

	/** Returns {@code name}, or fails naming {@code source} (the option or property that gave it). */
	static String requireValid(String name, String source) {
		if (!isValid(name)) {
			throw new IllegalArgumentException(source + " " + problem(name));
		}
		return name;
	}
}
