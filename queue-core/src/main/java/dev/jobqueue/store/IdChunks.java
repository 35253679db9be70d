package dev.jobqueue.store;

import java.util.ArrayList;
import java.util.List;

/** Ids split into runs short enough for one statement's {@code IN} list or multi-row {@code VALUES}. */
final class IdChunks {

	/** The most ids one statement names. */
	private static final int IDS_PER_STATEMENT = 500;

	private IdChunks() {
	}

	static List<List<Long>> of(List<Long> ids) {
		List<List<Long>> chunks = new ArrayList<>();
		for (int from = 0; from < ids.size(); from += IDS_PER_STATEMENT) {
			chunks.add(ids.subList(from, Math.min(ids.size(), from + IDS_PER_STATEMENT)));
		}
		return chunks;
	}
}
