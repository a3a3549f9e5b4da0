package io.kith.bench.report;

import java.util.List;
import java.util.Locale;

/**
 * A report drawn as one SVG image a person can open in a browser: one row per operation with its latency
 * percentiles (p50, p90, p99, p99.9 as nested bars on a logarithmic axis, since a scenario's operations differ by
 * orders of magnitude), its throughput and Kith's CPU per answer. Written by hand: a chart of bars needs no
 * plotting library. Each row is a {@code <g class="operation" data-operation="...">}, with a tooltip holding the
 * numbers.
 */
public final class ReportChart {

  private static final int WIDTH = 1000;
  private static final int LABEL = 170;
  private static final int PANEL_GAP = 20;
  private static final int LATENCY_WIDTH = 380;
  private static final int SMALL_WIDTH = 190;
  private static final int ROW = 26;
  private static final int TOP = 78;
  private static final int BAR = 16;
  /** Percentile bars from the longest (drawn first, behind) to the shortest, with their colours. */
  private static final double[] PERCENTILES = {99.9, 99, 90, 50};
  private static final String[] SHADES = {"#c6dbef", "#9ecae1", "#4292c6", "#08519c"};
  /** Characters per footer line at its font size, so a long attribution stays inside the image. */
  private static final int FOOTER_CHARS = 170;

  private ReportChart() {
  }

  /** The report as an SVG document. */
  public static String svg(Report report) {
    List<OperationStats> ops = report.operations();
    double[] latencyRange = latencyRange(ops);
    double maxThroughput = ops.stream().mapToDouble(OperationStats::throughput).filter(v -> v > 0).max().orElse(1);
    double maxCpu = ops.stream().filter(op -> op.cpu() != null).mapToDouble(op -> op.cpu().millisPerRequest())
        .filter(v -> v > 0).max().orElse(1);
    List<String> footer = wrap(report.cpuMeasured() ? "CPU: " + report.cpuAttribution()
        + "; (mix): shared by the operations of one phase" : "CPU: not measured", FOOTER_CHARS);
    int height = TOP + Math.max(1, ops.size()) * ROW + 24 + 14 * footer.size();
    int latencyX = LABEL;
    int throughputX = latencyX + LATENCY_WIDTH + PANEL_GAP;
    int cpuX = throughputX + SMALL_WIDTH + PANEL_GAP;
    StringBuilder out = new StringBuilder();
    out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        .append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, height, WIDTH, height))
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    text(out, 10, 20, "kith-bench " + report.run().scenario() + " (" + report.run().startedAt() + ")", "bold", 14);
    text(out, 10, 38, report.run().closedLoop() ? "closed loop (max throughput)"
        : "open loop, " + Report.formatRate(report.run().rate()) + " req/s per operation", null, 11);
    text(out, latencyX, TOP - 16, String.format(Locale.ROOT, "latency ms (log scale, %s to %s): p50 p90 p99 p99.9",
        Figure.format(latencyRange[0]), Figure.format(latencyRange[1])), "bold", 12);
    text(out, throughputX, TOP - 16, "throughput req/s (max " + Figure.format(maxThroughput) + ")", "bold", 12);
    text(out, cpuX, TOP - 16, "Kith CPU ms/req", "bold", 12);
    legend(out, latencyX, TOP - 40);
    for (int i = 0; i < ops.size(); i++) {
      OperationStats op = ops.get(i);
      int y = TOP + i * ROW;
      out.append("<g class=\"operation\" data-operation=\"").append(escape(op.name())).append("\">\n");
      out.append("<title>").append(escape(tooltip(op))).append("</title>\n");
      text(out, 10, y + BAR - 3, op.name(), null, 12);
      latencyBars(out, op, latencyX, y, latencyRange);
      bar(out, throughputX, y, SMALL_WIDTH * share(op.throughput(), maxThroughput), "#31a354", "throughput");
      text(out, throughputX + 4, y + BAR - 4, Figure.format(op.throughput()), null, 10);
      double cpu = op.cpu() == null ? Double.NaN : op.cpu().millisPerRequest();
      bar(out, cpuX, y, SMALL_WIDTH * share(cpu, maxCpu), op.cpu() != null && op.cpu().alone() ? "#e6550d"
          : "#fdae6b", "cpu");
      text(out, cpuX + 4, y + BAR - 4, Double.isNaN(cpu) ? "not measured"
          : Figure.format(cpu) + (op.cpu().alone() ? "" : " (mix)"), null, 10);
      out.append("</g>\n");
    }
    for (int k = 0; k < footer.size(); k++) {
      text(out, 10, height - 14 * (footer.size() - k), footer.get(k), null, 10);
    }
    out.append("</svg>\n");
    return out.toString();
  }

  /** The smallest p50 and the largest p99.9 of the operations that answered, for the log axis. */
  private static double[] latencyRange(List<OperationStats> ops) {
    double min = Double.MAX_VALUE;
    double max = 0;
    for (OperationStats op : ops) {
      if (op.ok() > 0) {
        min = Math.min(min, Math.max(0.001, op.percentileMillis(50)));
        max = Math.max(max, op.percentileMillis(99.9));
      }
    }
    if (max <= 0) {
      return new double[] {0.1, 1};
    }
    // a little room below the fastest median so its bar is still visible
    min = min / 2;
    return new double[] {min, Math.max(max, min * 10)};
  }

  private static void latencyBars(StringBuilder out, OperationStats op, int x, int y, double[] range) {
    if (op.ok() == 0) {
      text(out, x + 4, y + BAR - 4, "no correct answer", null, 10);
      return;
    }
    double span = Math.log10(range[1] / range[0]);
    for (int k = 0; k < PERCENTILES.length; k++) {
      double value = op.percentileMillis(PERCENTILES[k]);
      double width = LATENCY_WIDTH * Math.max(0, Math.log10(Math.max(value, range[0]) / range[0])) / span;
      bar(out, x, y, Math.max(1, width), SHADES[k], "p" + Report.formatRate(PERCENTILES[k]));
    }
    double p50 = op.percentileMillis(50);
    double p50x = LATENCY_WIDTH * Math.max(0, Math.log10(Math.max(p50, range[0]) / range[0])) / span;
    text(out, x + (int) Math.min(p50x + 4, LATENCY_WIDTH - 60), y + BAR - 4, Figure.format(p50), null, 10);
  }

  private static void legend(StringBuilder out, int x, int y) {
    for (int k = PERCENTILES.length - 1; k >= 0; k--) {
      int lx = x + (PERCENTILES.length - 1 - k) * 70;
      out.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"10\" fill=\"%s\"/>%n",
          lx, y, SHADES[k]));
      text(out, lx + 16, y + 9, "p" + Report.formatRate(PERCENTILES[k]), null, 10);
    }
  }

  private static void bar(StringBuilder out, int x, int y, double width, String fill, String kind) {
    if (Double.isNaN(width) || width <= 0) {
      return;
    }
    out.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
        + "fill=\"%s\"/>%n", kind, x, y, width, BAR, fill));
  }

  private static void text(StringBuilder out, int x, int y, String content, String weight, int size) {
    out.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\"%s>%s</text>%n", x, y, size,
        weight == null ? "" : " font-weight=\"" + weight + "\"", escape(content)));
  }

  /** {@code text} in lines of at most {@code width} characters, broken at spaces. */
  static List<String> wrap(String text, int width) {
    List<String> lines = new java.util.ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      line.append(line.length() > 0 ? " " : "").append(word);
    }
    lines.add(line.toString());
    return lines;
  }

  private static double share(double value, double max) {
    return Double.isNaN(value) || max <= 0 ? 0 : Math.min(1, value / max);
  }

  private static String tooltip(OperationStats op) {
    StringBuilder t = new StringBuilder(op.name()).append(": ").append(op.ok()).append(" ok, ").append(op.failed())
        .append(" failed, ").append(Figure.format(op.throughput())).append(" req/s");
    for (double p : OperationStats.PERCENTILES) {
      t.append(", p").append(Report.formatRate(p)).append(' ').append(Figure.format(op.percentileMillis(p)))
          .append(" ms");
    }
    if (op.cpu() != null) {
      t.append(", Kith CPU ").append(Figure.format(op.cpu().millisPerRequest())).append(" ms/req")
          .append(op.cpu().alone() ? "" : " (shared by " + String.join(", ", op.cpu().operations()) + ")");
    }
    return t.toString();
  }

  /** Text and attribute values escaped for XML. */
  static String escape(String s) {
    StringBuilder out = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> {
          if (c >= 0x20 || c == '\n' || c == '\t') {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
