package dev.jobqueue.runtime;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.springframework.util.ClassUtils;

import dev.jobqueue.RuntimeSettings;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A payload as the JSON an enqueue writes, checked first: against the kind's handler when this node has
 * it, so that a wrong payload fails in the caller's hands and not attempts later in a worker's, then
 * against what the database can store. Every refusal is an {@link IllegalArgumentException} thrown before
 * any SQL is sent.
 *
 * <p>A payload fits its handler when it is an instance of the handler's payload type (a subtype, or a
 * primitive's box, included; the elements of a generic collection are not looked into), or when it is a
 * JSON value — a {@code Map}, a {@code JsonNode}, a {@code Number}, a {@code CharSequence}, a
 * {@code Boolean} or a {@code Collection} — whose JSON binds to that type as the worker will bind it: a
 * {@code Map} for a record, an {@code Integer} for a {@code long}, a {@code String} for an
 * {@code Instant}. Any other object, a record of another type with the same fields too, is refused: that
 * is what passing the wrong object looks like. A {@code null} payload fits only a nullable handler.
 */
final class PayloadWriter {

	private final JsonMapper json;

	private final PayloadBinding binding;

	private final int maxLength;

	PayloadWriter(JsonMapper json, RuntimeSettings settings) {
		this.json = json;
		this.binding = new PayloadBinding(json, settings);
		this.maxLength = settings.maxPayloadLength();
	}

	/** The payload's JSON, once it fits {@code handler} (when present) and the database. */
	String write(String kind, Object payload, Optional<JobHandlerDefinition> handler) {
		handler.ifPresent(known -> requireNullAllowed(kind, payload, known));
		String text;
		try {
			text = json.writeValueAsString(payload);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("payload of kind '" + kind + "' cannot be written as JSON: "
					+ ex.getOriginalMessage(), ex);
		}
		if (payload != null) {
			handler.ifPresent(known -> requireFits(kind, payload, text, known));
		}
		require(text.length() <= maxLength, () -> "payload of kind '" + kind + "' is " + text.length()
				+ " characters of JSON, over the max payload length (jobqueue.max-payload-length) of " + maxLength);
		require(!escapesNul(text), () -> "payload of kind '" + kind
				+ "' holds the character U+0000, which PostgreSQL cannot store in JSON");
		return text;
	}

	private static void requireNullAllowed(String kind, Object payload, JobHandlerDefinition handler) {
		require(payload != null || handler.payloadNullable(), () -> "payload of kind '" + kind + "' is null, but "
				+ handler.description() + " reads a " + handler.payloadType().getTypeName()
				+ " that is not declared nullable: pass a payload, or declare the parameter @Nullable");
	}

	private void requireFits(String kind, Object payload, String text, JobHandlerDefinition handler) {
		JavaType type = binding.type(handler.payloadType());
		if (ClassUtils.resolvePrimitiveIfNecessary(type.getRawClass()).isInstance(payload)) {
			return;
		}
		String mismatch = "payload of kind '" + kind + "' is a " + payload.getClass().getName() + ", but "
				+ handler.description() + " reads " + handler.payloadType().getTypeName();
		require(isJsonValue(payload), () -> mismatch + ": enqueue a " + type.getRawClass().getSimpleName()
				+ ", or a Map or other JSON value that binds to it");
		try {
			binding.read(text, type);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException(mismatch + ", and its JSON does not bind to it: "
					+ ex.getOriginalMessage(), ex);
		}
	}

	private static boolean isJsonValue(Object payload) {
		return payload instanceof Map || payload instanceof JsonNode || payload instanceof Number
				|| payload instanceof CharSequence || payload instanceof Boolean || payload instanceof Collection;
	}

	/**
	 * Whether JSON text holds the escape of U+0000 (a backslash, then u0000), which jsonb refuses. In JSON a
	 * backslash only ever starts an escape, so each one is read together with the character after it: two
	 * backslashes and u0000 spell a backslash and the letters u0000, not a NUL.
	 */
	private static boolean escapesNul(String json) {
		for (int i = json.indexOf('\\'); i >= 0; i = json.indexOf('\\', i + 2)) {
			if (json.startsWith("u0000", i + 1)) {
				return true;
			}
		}
		return false;
	}

	private static void require(boolean condition, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem.get());
		}
	}
}
