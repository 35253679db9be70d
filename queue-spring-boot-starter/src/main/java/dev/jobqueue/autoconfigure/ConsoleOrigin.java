package dev.jobqueue.autoconfigure;

import java.net.URI;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Whether a console write comes from the console's own pages: a browser names the site a form was sent from
 * ({@code Sec-Fetch-Site}, else {@code Origin}, else {@code Referer}), and a form on another site the operator
 * visits must not retry or cancel jobs with the operator's network access or session. A request that names no
 * site (curl, a script) is not a browser's cross-site form, and is taken.
 */
final class ConsoleOrigin {

	private ConsoleOrigin() {
	}

	static boolean isSameOrigin(HttpServletRequest request) {
		String fetchSite = request.getHeader("Sec-Fetch-Site");
		if (fetchSite != null) {
			return fetchSite.equals("same-origin") || fetchSite.equals("none");
		}
		String origin = request.getHeader("Origin");
		if (origin != null) {
			return sameHost(origin, request);
		}
		String referer = request.getHeader("Referer");
		return referer == null || sameHost(referer, request);
	}

	/**
	 * Compared with the Host the browser addressed, not the scheme: behind a proxy that ends TLS the server sees
	 * http where the browser sent https.
	 */
	private static boolean sameHost(String url, HttpServletRequest request) {
		String host = request.getHeader("Host");
		try {
			URI sent = URI.create(url);
			String authority = sent.getPort() < 0 ? sent.getHost() : sent.getHost() + ":" + sent.getPort();
			return host != null && sent.getHost() != null && authority.equalsIgnoreCase(host);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}
}
