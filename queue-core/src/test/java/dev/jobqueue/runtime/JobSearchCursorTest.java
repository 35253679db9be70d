package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;

class JobSearchCursorTest {

	@Test
	void aCursorNamesTheIdBelowWhichTheNextPageStarts() {
		assertThat(JobSearch.decode(JobSearch.encode(4711))).isEqualTo(4711);
	}

	@Test
	void aCursorThatNoPageGaveIsRefused() {
		for (String cursor : new String[] { "4711", "not base64!", encoded("before:0"), encoded("before:-3"),
				encoded("before:abc"), encoded("after:12") }) {
			assertThatIllegalArgumentException().isThrownBy(() -> JobSearch.decode(cursor))
				.withMessageStartingWith("cursor '" + cursor + "' is not one that search returned");
		}
	}

	private static String encoded(String text) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
	}
}
