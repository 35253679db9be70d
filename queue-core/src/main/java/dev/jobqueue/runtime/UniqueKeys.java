package dev.jobqueue.runtime;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

import dev.jobqueue.Unique;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The unique key a job is stored with, which the unique index compares: the key of {@link Unique#byKey}, or
 * {@value #PAYLOAD_PREFIX} and the SHA-256 of the chosen payload fields for {@link Unique#byPayload}; with a period,
 * followed by {@code @} and the start of the period's bucket the job is due in, so that jobs of other buckets differ.
 */
final class UniqueKeys {

	static final String PAYLOAD_PREFIX = "payload:";

	private final JsonMapper json;

	UniqueKeys(JsonMapper json) {
		this.json = json;
	}

	/**
	 * @param payload the payload as written, JSON
	 * @param due when the job is due by the enqueuing node's clock
	 * @throws IllegalArgumentException when a named field is not in the payload
	 */
	String storedKey(Unique unique, String payload, Instant due) {
		String key = unique.key() != null ? unique.key() : PAYLOAD_PREFIX + payloadHash(unique, payload);
		return unique.period() == null ? key : key + "@" + bucketStart(due, unique.period());
	}

	static Instant bucketStart(Instant due, Duration period) {
		long seconds = period.getSeconds();
		return Instant.ofEpochSecond(Math.floorDiv(due.getEpochSecond(), seconds) * seconds);
	}

	private String payloadHash(Unique unique, String payload) {
		JsonNode node = json.readTree(payload);
		StringBuilder canonical = new StringBuilder();
		if (unique.fields().isEmpty()) {
			canonical(node, canonical);
		}
		else {
			if (!node.isObject()) {
				throw new IllegalArgumentException("uniqueFields: " + unique.fields()
						+ " name fields of a JSON object, and the payload is " + node.getNodeType());
			}
			Map<String, JsonNode> chosen = new TreeMap<>();
			for (String field : unique.fields()) {
				JsonNode value = node.get(field);
				if (value == null) {
					throw new IllegalArgumentException("uniqueFields: the payload has no field '" + field
							+ "' (its fields: " + node.propertyNames() + ")");
				}
				chosen.put(field, value);
			}
			object(chosen, canonical);
		}
		return HexFormat.of().formatHex(sha256(canonical.toString()));
	}

	/** JSON with the fields of every object in name order, so that equal values are equal text. */
	private void canonical(JsonNode node, StringBuilder out) {
		if (node.isObject()) {
			Map<String, JsonNode> sorted = new TreeMap<>();
			node.properties().forEach(entry -> sorted.put(entry.getKey(), entry.getValue()));
			object(sorted, out);
		}
		else if (node.isArray()) {
			out.append('[');
			for (int i = 0; i < node.size(); i++) {
				out.append(i == 0 ? "" : ",");
				canonical(node.get(i), out);
			}
			out.append(']');
		}
		else {
			out.append(json.writeValueAsString(node));
		}
	}

	private void object(Map<String, JsonNode> fields, StringBuilder out) {
		out.append('{');
		boolean first = true;
		for (Map.Entry<String, JsonNode> field : fields.entrySet()) {
			out.append(first ? "" : ",").append(json.writeValueAsString(field.getKey())).append(':');
			canonical(field.getValue(), out);
			first = false;
		}
		out.append('}');
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}
}
