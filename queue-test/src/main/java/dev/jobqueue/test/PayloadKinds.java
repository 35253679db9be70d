package dev.jobqueue.test;

import java.util.List;

import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition;

/**
 * The kinds whose payload is of a given type, from the handlers registered here: the one place where the
 * tester turns {@code SendMail.class} into {@code "send-mail"}. Payload types that name their own kind
 * (a typed {@code JobArgs} API) would be asked here first, before the handlers.
 */
final class PayloadKinds {

	private final HandlerRegistry handlers;

	PayloadKinds(HandlerRegistry handlers) {
		this.handlers = handlers;
	}

	/** Every kind whose handler takes {@code type}, sorted; fails when there is none. */
	List<String> of(Class<?> type) {
		List<String> kinds = handlers.all().stream()
			.filter(handler -> handler.payloadType().equals(type))
			.map(JobHandlerDefinition::kind)
			.sorted()
			.toList();
		if (kinds.isEmpty()) {
			throw new IllegalArgumentException("no handler here takes " + type.getName() + " as its payload ("
					+ described() + "): name the kind instead");
		}
		return kinds;
	}

	/** The one kind whose handler takes {@code type}; fails when there are none or several. */
	String only(Class<?> type) {
		List<String> kinds = of(type);
		if (kinds.size() > 1) {
			throw new IllegalArgumentException("several handlers take " + type.getName() + " (kinds "
					+ String.join(", ", kinds) + "): name the kind");
		}
		return kinds.get(0);
	}

	private String described() {
		List<String> handled = handlers.all().stream()
			.map(handler -> handler.kind() + " takes " + handler.payloadType().getTypeName())
			.sorted()
			.toList();
		return handled.isEmpty() ? "no handlers at all" : String.join(", ", handled);
	}
}
