package dev.jobqueue.autoconfigure;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/**
 * The console's HTML building blocks. Everything a page prints from the database (payloads, errors, kinds,
 * node names) is untrusted, so every value goes through {@link #text(Object)} or {@link #url(String)}: there
 * is no other way to put one into a page.
 */
final class ConsoleHtml {

	private static final String STYLE = """
			body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2430;background:#fafafa}
			header{background:#1d2430;color:#fff;padding:.6em 1.2em}header a{color:#fff;margin-right:1.2em}
			main{padding:1em 1.2em}table{border-collapse:collapse;background:#fff;margin:.5em 0 1.2em}
			th,td{border:1px solid #d7dbe0;padding:.3em .6em;text-align:left;vertical-align:top}
			th{background:#eef1f4}td.n{text-align:right;font-variant-numeric:tabular-nums}
			pre{background:#fff;border:1px solid #d7dbe0;padding:.6em;overflow:auto;max-height:24em;
			white-space:pre-wrap;overflow-wrap:anywhere;margin:0}td.t{white-space:nowrap}
			.dead{color:#b00020;font-weight:600}.explain{background:#fff8e1;border-left:4px solid #f0b400;padding:.5em .8em}
			form.inline{display:inline}button{padding:.25em .8em}label{margin-right:.8em}
			""";

	private final StringBuilder html = new StringBuilder();

	static ConsoleHtml page(String base, String title) {
		return page(base, title, "");
	}

	/**
	 * A page that loads itself again every {@code seconds} while {@code refresh} is on (a {@code meta} refresh: the
	 * console runs no script), with a link at its top that turns it off or on: {@code self}, the page's own address,
	 * with {@code refresh=off} or {@code refresh=on}.
	 */
	static ConsoleHtml refreshingPage(String base, String title, String self, boolean refresh, int seconds) {
		ConsoleHtml page = page(base, title, refresh ? "<meta http-equiv=\"refresh\" content=\"" + seconds + "\">" : "");
		return page.raw("<p><a id=\"refresh-toggle\" href=\"")
			.url(self + (self.contains("?") ? "&" : "?") + "refresh=" + (refresh ? "off" : "on"))
			.raw("\">")
			.text(refresh ? "Pause the refresh (every " + seconds + " s)" : "Refresh every " + seconds + " s")
			.raw("</a></p>");
	}

	private static ConsoleHtml page(String base, String title, String head) {
		ConsoleHtml page = new ConsoleHtml();
		page.raw("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">" + head + "<title>")
			.text(title)
			.raw(" · jobqueue</title><style>" + STYLE + "</style></head><body><header><a href=\"")
			.url(base + "/")
			.raw("\">Overview</a><a href=\"")
			.url(base + "/jobs")
			.raw("\">Jobs</a><a href=\"")
			.url(base + "/jobs?state=dead")
			.raw("\">Dead jobs</a><a href=\"")
			.url(base + "/schedules")
			.raw("\">Schedules</a></header><main><h1>")
			.text(title)
			.raw("</h1>");
		return page;
	}

	/** Markup written by the console itself: never a value from a request or the database. */
	ConsoleHtml raw(String markup) {
		html.append(markup);
		return this;
	}

	/** Any value, escaped for an element's text or a quoted attribute; null prints as an empty string. */
	ConsoleHtml text(Object value) {
		if (value == null) {
			return this;
		}
		String text = value instanceof Instant instant ? instant.toString() : String.valueOf(value);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '&' -> html.append("&amp;");
				case '<' -> html.append("&lt;");
				case '>' -> html.append("&gt;");
				case '"' -> html.append("&quot;");
				case '\'' -> html.append("&#39;");
				default -> html.append(c);
			}
		}
		return this;
	}

	/** A link's target, built by the console: escaped as an attribute like any text. */
	ConsoleHtml url(String url) {
		return text(url);
	}

	/**
	 * A button that posts one of the console's forms to {@code url}: the CSRF field (markup the request gave), then
	 * {@code fields} as hidden inputs, in their order.
	 */
	ConsoleHtml postButton(String url, String csrfField, Map<String, String> fields, String id, String label) {
		raw("<form class=\"inline\" method=\"post\" action=\"").url(url).raw("\">").raw(csrfField);
		fields.forEach((name, value) -> raw("<input type=\"hidden\" name=\"").text(name).raw("\" value=\"").text(value)
			.raw("\">"));
		return raw("<button type=\"submit\" id=\"").text(id).raw("\">").text(label).raw("</button></form> ");
	}

	ConsoleHtml cell(Object value) {
		return raw("<td>").text(value).raw("</td>");
	}

	/** A timestamp's cell, kept on one line. */
	ConsoleHtml time(Instant value) {
		return raw("<td class=\"t\">").text(value).raw("</td>");
	}

	/** A query parameter's value, encoded for a URL (and escaped again when the URL is printed). */
	static String param(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	/** The markup so far, to be placed inside a page with {@link #raw(String)}. */
	String fragment() {
		return html.toString();
	}

	String end() {
		return html.append("</main></body></html>").toString();
	}
}
