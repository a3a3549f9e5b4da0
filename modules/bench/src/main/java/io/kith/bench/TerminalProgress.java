package io.kith.bench;

import io.kith.bench.load.ProgressListener;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar redrawn in place with carriage returns:
 * {@code auth-overhead  measuring [##########----------]  52%  13.0s/25.0s  sent 5200  done 5199  failed 0  in flight 1}.
 * Drawn only when a console is attached, so that redirected output stays clean.
 */
final class TerminalProgress implements ProgressListener {

  private static final int WIDTH = 24;

  private final PrintStream out;
  private int lastLength;

  TerminalProgress(PrintStream out) {
    this.out = out;
  }

  @Override
  public synchronized void update(Snapshot s) {
    draw(line(s));
  }

  @Override
  public synchronized void finished(Snapshot s) {
    draw(line(s));
    out.print('\n');
    out.flush();
    lastLength = 0;
  }

  private void draw(String line) {
    StringBuilder b = new StringBuilder("\r").append(line);
    for (int i = line.length(); i < lastLength; i++) {
      b.append(' ');
    }
    lastLength = line.length();
    out.print(b);
    out.flush();
  }

  static String line(Snapshot s) {
    double share = s.totalNanos() <= 0 ? 1.0 : Math.min(1.0, (double) s.elapsedNanos() / s.totalNanos());
    int filled = (int) Math.round(share * WIDTH);
    String state = s.warmingUp() ? "warm-up  " : s.elapsedNanos() >= s.totalNanos() ? "draining " : "measuring";
    return String.format(Locale.ROOT, "%s  %s [%s%s] %3d%%  %.1fs/%.1fs  sent %d  done %d  failed %d  in flight %d",
        s.phase(), state, "#".repeat(filled), "-".repeat(WIDTH - filled), Math.round(share * 100),
        Math.min(s.elapsedNanos(), s.totalNanos()) / 1e9, s.totalNanos() / 1e9, s.sent(), s.completed(), s.failed(),
        s.inFlight());
  }
}
