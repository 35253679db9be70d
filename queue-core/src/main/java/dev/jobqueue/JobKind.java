package dev.jobqueue;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The job kind of a {@link JobArgs} payload type, as its handlers serve it. */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface JobKind {

	/** The kind, such as {@code send-mail}: not blank, without U+0000. */
	String value();
}
