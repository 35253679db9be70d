package dev.jobqueue;


/** The code that runs one job: takes the bound payload, returns the result to store (or null). */
@FunctionalInterface
public interface JobHandlerFunction<T> {

	Object handle(T payload, JobContext context) throws Exception;
}
