package io.kith.bench.report;

import java.util.List;

/**
 * What a scenario hands back: its measured operations, the ratios to compute between them, figures measured
 * outside the load runner, and remarks for the reader (for example which clients were skipped).
 *
 * @param operations stats per operation, in report order
 * @param ratios     ratios to compute, each against a baseline among {@code operations}
 * @param notes      free-text remarks
 * @param figures    numbers measured apart from the operations (bursts, external baselines) and ratios between them
 */
public record ScenarioResult(List<OperationStats> operations, List<RatioSpec> ratios, List<String> notes,
                             List<Figure> figures) {

  /** Copies the lists. */
  public ScenarioResult {
    operations = List.copyOf(operations);
    ratios = List.copyOf(ratios);
    notes = List.copyOf(notes);
    figures = List.copyOf(figures);
  }

  /** A result without figures. */
  public ScenarioResult(List<OperationStats> operations, List<RatioSpec> ratios, List<String> notes) {
    this(operations, ratios, notes, List.of());
  }
}
