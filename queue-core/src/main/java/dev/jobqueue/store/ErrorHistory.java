package dev.jobqueue.store;

import java.time.OffsetDateTime;
import java.util.List;

import dev.jobqueue.Job.AttemptError;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code errors} column on both databases: a JSON array of {@code {"attempt", "at", "worker",
 * "message"}}, oldest first. The statements that record a failure append to it; only they write it, one
 * entry at a time, so dropping the oldest entry once {@link AttemptError#MAX_ENTRIES} are there keeps it
 * at that size. {@code last_error} keeps the latest error in full; an entry keeps the first
 * {@link AttemptError#MAX_MESSAGE_LENGTH} characters, so that ten stack traces cannot grow a row by ten
 * times {@code max-error-length}.
 */
public final class ErrorHistory {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private ErrorHistory() {
	}

	/** The part of {@code error} an entry keeps. */
	public static String entry(String error) {
		if (error == null || error.length() <= AttemptError.MAX_MESSAGE_LENGTH) {
			return error;
		}
		String marker = "\n... (" + (error.length() - AttemptError.MAX_MESSAGE_LENGTH) + " more characters cut)";
		return error.substring(0, AttemptError.MAX_MESSAGE_LENGTH - marker.length()) + marker;
	}

	/** The column's JSON as entries; the time is ISO-8601 text with an offset on both databases. */
	public static List<AttemptError> parse(String json) {
		return JSON.readTree(json)
			.valueStream()
			.map(entry -> new AttemptError(entry.get("attempt").asInt(),
					OffsetDateTime.parse(entry.get("at").asString()).toInstant(), text(entry, "worker"),
					text(entry, "message")))
			.toList();
	}

	private static String text(JsonNode entry, String field) {
		JsonNode value = entry.get(field);
		return value == null || value.isNull() ? null : value.asString();
	}
}
