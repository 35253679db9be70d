package dev.jobqueue.faults.app;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Leaves a mark when its class is initialized: a line in the file named by the system property
 * {@code jobqueue.faults.canary}. Hostile payloads name this class; the mark's absence proves no worker
 * loaded it.
 */
public class Canary implements Serializable {

	public static final String MARK_PROPERTY = "jobqueue.faults.canary";

	static {
		String mark = System.getProperty(MARK_PROPERTY);
		if (mark != null) {
			try {
				Files.writeString(Path.of(mark), "Canary initialized in process " + ProcessHandle.current().pid() + "\n",
						StandardOpenOption.CREATE, StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

	private String note = "hostile";

	public String getNote() {
		return note;
	}

	public void setNote(String note) {
		this.note = note;
	}
}
