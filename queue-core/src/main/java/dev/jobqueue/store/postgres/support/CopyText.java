package dev.jobqueue.store.postgres.support;

/**
 * Values in PostgreSQL's COPY text format. Backslash is the escape character, tab separates columns
 * and newline or carriage return ends a row, so those four are written as backslash escapes; every
 * other character stands for itself. With each backslash doubled, no value can read as {@code \N}
 * (NULL) or as the end-of-data marker {@code \.}.
 */
public final class CopyText {

	private CopyText() {
	}

	public static void appendEscaped(StringBuilder out, String value) {
		int plainFrom = 0;
		for (int i = 0; i < value.length(); i++) {
			String escape = escape(value.charAt(i));
			if (escape != null) {
				out.append(value, plainFrom, i).append(escape);
				plainFrom = i + 1;
			}
		}
		out.append(value, plainFrom, value.length());
	}

	private static String escape(char c) {
		return switch (c) {
			case '\\' -> "\\\\";
			case '\t' -> "\\t";
			case '\n' -> "\\n";
			case '\r' -> "\\r";
			default -> null;
		};
	}
}
