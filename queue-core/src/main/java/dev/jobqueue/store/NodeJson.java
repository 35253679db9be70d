package dev.jobqueue.store;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The node registry's queues and kinds as the JSON both dialects store them in. */
public final class NodeJson {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private NodeJson() {
	}

	/** {@code {"queue": concurrency, …}}, in name order. */
	public static String queues(Map<String, Integer> queues) {
		return JSON.writeValueAsString(new TreeMap<>(queues));
	}

	/** {@code ["kind", …]}, in name order. */
	public static String kinds(List<String> kinds) {
		return JSON.writeValueAsString(kinds.stream().sorted().toList());
	}

	public static Map<String, Integer> queues(String json) {
		return JSON.readValue(json, new TypeReference<TreeMap<String, Integer>>() {
		});
	}

	public static List<String> kinds(String json) {
		return JSON.readValue(json, new TypeReference<List<String>>() {
		});
	}
}
