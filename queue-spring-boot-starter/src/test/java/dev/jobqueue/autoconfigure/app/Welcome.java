package dev.jobqueue.autoconfigure.app;

import java.time.Instant;
import java.util.List;

/** A payload with the shapes JSON must carry intact: text beyond ASCII, a list, a nested record, an instant. */
public record Welcome(String email, String name, List<String> topics, Address address, Instant signedUpAt) {

	public record Address(String city, String country) {
	}
}
