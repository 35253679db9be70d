package dev.jobqueue.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;

import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON mapper of payloads and results: the application's own, so that its modules and settings apply
 * to its payload types, or a plain one when it has none.
 */
final class PayloadJson {

	private PayloadJson() {
	}

	static JsonMapper mapper(ObjectProvider<JsonMapper> applicationMapper) {
		JsonMapper application = applicationMapper.getIfUnique();
		// A payload is read as its handler's parameter type; default typing would let a class name stored in
		// the database choose what gets instantiated, so it is switched off whatever the application chose.
		return application == null ? JsonMapper.builder().build()
				: application.rebuild().deactivateDefaultTyping().build();
	}
}
