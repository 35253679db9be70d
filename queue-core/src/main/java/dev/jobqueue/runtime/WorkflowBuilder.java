package dev.jobqueue.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.jobqueue.DependencyFailure;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Workflow;

/**
 * {@link Workflow}: its jobs kept in the order added, checked at {@link #enqueue()}, then written in an order where
 * each job follows those it runs after, each with the ids of those already written, all in one transaction.
 */
final class WorkflowBuilder implements Workflow {

	/** Writes the jobs, ordered so that every job's dependencies come before it, all or nothing. */
	interface Writer {
		Map<String, Long> write(List<Member> members, DependencyFailure policy);
	}

	/**
	 * One job of the workflow.
	 *
	 * @param after the names of the workflow's jobs it runs after
	 * @param hasDependents whether a job of the workflow runs after it
	 */
	record Member(String name, String kind, Object payload, EnqueueOptions options, List<String> after,
			boolean hasDependents) {
	}

	private final Writer writer;

	private final Map<String, Member> members = new LinkedHashMap<>();

	private DependencyFailure policy = DependencyFailure.CANCEL;

	WorkflowBuilder(Writer writer) {
		this.writer = writer;
	}

	@Override
	public Workflow add(String name, String kind, Object payload, EnqueueOptions options, String... after) {
		require(name != null && !name.isBlank(), () -> "a workflow's job needs a name");
		require(!members.containsKey(name), () -> "job '" + name + "' is in the workflow already");
		require(options != null, () -> "job '" + name + "' needs options");
		require(after != null && Arrays.stream(after).noneMatch(a -> a == null),
				() -> "job '" + name + "' must run after names of the workflow's jobs");
		members.put(name, new Member(name, kind, payload, options, List.copyOf(new LinkedHashSet<>(List.of(after))),
				false));
		return this;
	}

	@Override
	public Workflow whenDependencyFails(DependencyFailure policy) {
		require(policy != null, () -> "whenDependencyFails needs a policy");
		this.policy = policy;
		return this;
	}

	@Override
	public Map<String, Long> enqueue() {
		require(!members.isEmpty(), () -> "the workflow has no jobs");
		Map<String, Long> ids = writer.write(ordered(), policy);
		Map<String, Long> byAddition = new LinkedHashMap<>();
		members.keySet().forEach(name -> byAddition.put(name, ids.get(name)));
		return byAddition;
	}

	/**
	 * The members with every job after those it runs after (Kahn's order), each marked when others run after it;
	 * refuses names of no member, and cycles, naming the jobs in them.
	 */
	private List<Member> ordered() {
		Set<String> dependedOn = new LinkedHashSet<>();
		for (Member member : members.values()) {
			for (String name : member.after()) {
				require(members.containsKey(name),
						() -> "job '" + member.name() + "' runs after '" + name + "', which is not in the workflow");
				dependedOn.add(name);
			}
		}
		List<Member> ordered = new ArrayList<>();
		Set<String> written = new LinkedHashSet<>();
		while (ordered.size() < members.size()) {
			List<Member> next = members.values().stream()
				.filter(member -> !written.contains(member.name()) && written.containsAll(member.after()))
				.toList();
			require(!next.isEmpty(), () -> "the jobs " + unwritten(written)
					+ " run after one another in a cycle, or after jobs that do");
			for (Member member : next) {
				ordered.add(new Member(member.name(), member.kind(), member.payload(), member.options(), member.after(),
						dependedOn.contains(member.name())));
				written.add(member.name());
			}
		}
		return ordered;
	}

	private List<String> unwritten(Set<String> written) {
		return members.keySet().stream().filter(name -> !written.contains(name)).toList();
	}

	/**
	 * The ids of {@code member}'s dependencies: those its options name, then those of the workflow; at most
	 * {@link EnqueueOptions#MAX_DEPENDENCIES} in all.
	 */
	static List<Long> dependencyIds(Member member, Function<String, Long> written) {
		Set<Long> ids = new LinkedHashSet<>(member.options().after());
		member.after().forEach(name -> ids.add(written.apply(name)));
		require(ids.size() <= EnqueueOptions.MAX_DEPENDENCIES, () -> "job '" + member.name() + "' runs after "
				+ ids.size() + " jobs, more than the " + EnqueueOptions.MAX_DEPENDENCIES + " one job may");
		return List.copyOf(ids);
	}

	private static void require(boolean condition, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem.get());
		}
	}
}
