package dev.jobqueue.autoconfigure;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.util.ClassUtils;

/**
 * The hidden field that carries Spring Security's CSRF token in the console's forms, when the application has
 * Spring Security and its CSRF filter put a token on the request: its filter then refuses a POST without it.
 */
final class ConsoleCsrf {

	private static final boolean SECURITY_PRESENT = ClassUtils
		.isPresent("org.springframework.security.web.csrf.CsrfToken", ConsoleCsrf.class.getClassLoader());

	private ConsoleCsrf() {
	}

	/** The field's markup (values escaped), or an empty string without Spring Security or a token. */
	static String field(HttpServletRequest request) {
		return SECURITY_PRESENT ? SecurityToken.field(request) : "";
	}

	/** Touches Spring Security's types only when they are on the classpath. */
	private static final class SecurityToken {

		static String field(HttpServletRequest request) {
			if (!(request.getAttribute(CsrfToken.class.getName()) instanceof CsrfToken token)) {
				return "";
			}
			return new ConsoleHtml().raw("<input type=\"hidden\" name=\"")
				.text(token.getParameterName())
				.raw("\" value=\"")
				.text(token.getToken())
				.raw("\">")
				.fragment();
		}
	}
}
