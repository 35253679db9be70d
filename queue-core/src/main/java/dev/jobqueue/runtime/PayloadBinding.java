package dev.jobqueue.runtime;

import java.lang.reflect.Type;

import dev.jobqueue.RuntimeSettings;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.json.JsonMapper;

/**
 * How a payload's JSON is bound to its handler's type: one set of rules for the check at enqueue and for
 * the worker, so that what the enqueue lets through the worker can read. Whether an unknown property
 * fails is this queue's setting ({@link RuntimeSettings#failOnUnknownPayloadProperties()}), whatever the
 * application's mapper says for its other uses (Spring Boot's ignores unknown properties).
 */
final class PayloadBinding {

	private final JsonMapper json;

	private final boolean failOnUnknownProperties;

	PayloadBinding(JsonMapper json, RuntimeSettings settings) {
		this.json = json;
		this.failOnUnknownProperties = settings.failOnUnknownPayloadProperties();
	}

	JavaType type(Type payloadType) {
		return json.getTypeFactory().constructType(payloadType);
	}

	Object read(String text, JavaType type) {
		return reader(type).readValue(text);
	}

	Object read(JsonNode tree, JavaType type) {
		return reader(type).readValue(tree);
	}

	JsonNode tree(String text) {
		return json.readTree(text);
	}

	private ObjectReader reader(JavaType type) {
		ObjectReader reader = json.readerFor(type);
		return failOnUnknownProperties ? reader.with(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
				: reader.without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
	}
}
