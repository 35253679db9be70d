package dev.jobqueue.runtime;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import dev.jobqueue.Job;
import dev.jobqueue.JobPage;
import dev.jobqueue.JobQuery;
import dev.jobqueue.store.OperatorReads;

/**
 * Pages of a search: the store's keyset over ids, one id more than a page to know whether another follows,
 * then the page's rows. The cursor is the last id of the page, wrapped so that callers treat it as opaque.
 */
final class JobSearch {

	private static final String CURSOR_PREFIX = "before:";

	private final OperatorReads store;

	JobSearch(OperatorReads store) {
		this.store = store;
	}

	JobPage search(JobQuery query, String cursor) {
		if (query == null) {
			throw new IllegalArgumentException("query must not be null; JobQuery.all() selects every job");
		}
		long before = cursor == null ? Long.MAX_VALUE : decode(cursor);
		List<Long> ids = store.search(query).idsBefore(before, query.pageSize() + 1);
		boolean more = ids.size() > query.pageSize();
		List<Long> page = more ? ids.subList(0, query.pageSize()) : ids;
		List<Job> jobs = store.findAll(page);
		return new JobPage(jobs, more ? encode(page.get(page.size() - 1)) : null);
	}

	static String encode(long id) {
		return Base64.getUrlEncoder().withoutPadding().encodeToString((CURSOR_PREFIX + id).getBytes(StandardCharsets.UTF_8));
	}

	static long decode(String cursor) {
		try {
			String text = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
			if (text.startsWith(CURSOR_PREFIX)) {
				long id = Long.parseLong(text.substring(CURSOR_PREFIX.length()));
				if (id > 0) {
					return id;
				}
			}
		}
		catch (IllegalArgumentException ex) {
			// Not Base64, or not a number: refused below like any other cursor search never gave out.
		}
		throw new IllegalArgumentException("cursor '" + cursor + "' is not one that search returned; pass the "
				+ "nextCursor of a JobPage, or no cursor for the first page");
	}
}
