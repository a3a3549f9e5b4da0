package io.kith.bench.jvm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The open-file (descriptor) limit of this process, as Linux reports it in {@code /proc/self/limits}. Every socket
 * is a descriptor: a loopback connection takes one in the client's process and one in the server's, beside the
 * JVM's own jars, pipes and epoll handles.
 *
 * @param soft the limit in force ({@code ulimit -n}); {@link Long#MAX_VALUE} for unlimited
 * @param hard the ceiling the soft limit may be raised to without privileges ({@code ulimit -Hn})
 */
public record OpenFileLimit(long soft, long hard) {

  /** Descriptors kept for what is not a measured connection (jars, stores, pipes, epoll, the HTTP clients). */
  public static final int RESERVE = 1024;
  private static final Pattern LINE = Pattern.compile("(?m)^Max open files\\s+(\\S+)\\s+(\\S+)\\s+files\\s*$");

  /** This process's limit; empty where {@code /proc/self/limits} cannot be read (not Linux). */
  public static Optional<OpenFileLimit> current() {
    try {
      return parse(Files.readString(Path.of("/proc/self/limits")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The "Max open files" line of a {@code /proc/<pid>/limits} text; empty when it has none. */
  public static Optional<OpenFileLimit> parse(String limits) {
    Matcher m = LINE.matcher(limits);
    if (!m.find()) {
      return Optional.empty();
    }
    return Optional.of(new OpenFileLimit(value(m.group(1)), value(m.group(2))));
  }

  private static long value(String text) {
    return text.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(text);
  }

  /** Descriptors a process holding {@code connections} sockets needs: those plus {@link #RESERVE}. */
  public static long needed(int connections) {
    return (long) connections + RESERVE;
  }

  /** Whether {@code connections} sockets fit under the soft limit. */
  public boolean allows(int connections) {
    return soft >= needed(connections);
  }

  /** What to tell a user whose limit is too low for {@code connections} sockets. */
  public String advice(int connections) {
    long needed = needed(connections);
    String raise = hard >= needed
        ? "raise it in the shell that starts the bench: ulimit -n " + needed
        : "the hard limit is " + format(hard) + ": raise it first (as root: ulimit -Hn " + needed + ", or nofile in "
            + "/etc/security/limits.conf, or LimitNOFILE= for a systemd service), then ulimit -n " + needed;
    return connections + " connections need about " + needed + " open files in each process (server and client), "
        + "but the limit is " + format(soft) + "; " + raise;
  }

  private static String format(long value) {
    return value == Long.MAX_VALUE ? "unlimited" : Long.toString(value);
  }
}
