package io.kith.bench.load;

/** Receives the state of a running phase a few times a second, and once when it ends. */
public interface ProgressListener {

  /** A listener that ignores everything (used when the output is not a terminal). */
  ProgressListener NONE = new ProgressListener() {
    @Override
    public void update(Snapshot snapshot) {
    }

    @Override
    public void finished(Snapshot snapshot) {
    }
  };

  /** Called periodically while the phase runs. */
  void update(Snapshot snapshot);

  /** Called once when the phase has ended. */
  void finished(Snapshot snapshot);

  /**
   * The state of a phase.
   *
   * @param phase        the phase's name
   * @param elapsedNanos time since the phase started
   * @param totalNanos   planned length of warm-up plus measurement (the drain of late responses comes on top)
   * @param warmingUp    whether the phase is still in its warm-up
   * @param sent         requests sent so far, warm-up included
   * @param completed    requests answered so far, warm-up included
   * @param failed       recorded errors, timeouts and drops so far
   * @param inFlight     requests awaiting a response
   */
  record Snapshot(String phase, long elapsedNanos, long totalNanos, boolean warmingUp, long sent, long completed,
                  long failed, long inFlight) {
  }
}
