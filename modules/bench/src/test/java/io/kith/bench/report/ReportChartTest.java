package io.kith.bench.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report's chart and CPU figures, read back as a browser would: as XML, and as the report's own text. */
class ReportChartTest {

  private static final long TEN_SECONDS = 10_000_000_000L;

  private static OperationStats op(String name, int factor) {
    Histogram h = new Histogram(600_000_000L, 3);
    for (int i = 1; i <= 1000; i++) {
      h.recordValue((long) i * factor);
    }
    return new OperationStats(name, name + " request", 1000, 0, 0, 0, Map.of(), h, new Histogram(600_000_000L, 3),
        TEN_SECONDS);
  }

  private static RunInfo run() {
    return new RunInfo("notifications", "a test", "http://127.0.0.1:8080", true, false, 100, Duration.ofSeconds(1),
        Duration.ofSeconds(10), 4, Duration.ofSeconds(5), Instant.parse("2026-01-02T03:04:05Z"), Map.of());
  }

  private static Document parse(String svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  /** The {@code g class="operation"} elements, by their operation name, in document order. */
  private static List<Element> operations(Document doc) {
    NodeList groups = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      if ("operation".equals(g.getAttribute("class"))) {
        out.add(g);
      }
    }
    return out;
  }

  private static int bars(Element group, String kind) {
    NodeList rects = group.getElementsByTagNameNS("http://www.w3.org/2000/svg", "rect");
    int n = 0;
    for (int i = 0; i < rects.getLength(); i++) {
      if (((Element) rects.item(i)).getAttribute("class").equals(kind)) {
        n++;
      }
    }
    return n;
  }

  @Test
  @DisplayName("the chart is well-formed SVG with one row per operation: four percentile bars, throughput and CPU")
  void oneRowPerOperation() throws Exception {
    OperationStats.Cpu shared = new OperationStats.Cpu(2_000_000_000L, 2000, List.of("list <&> \"20\"", "whoami"));
    OperationStats.Cpu alone = new OperationStats.Cpu(500_000_000L, 1000, List.of("count"));
    Report report = new Report(run(), new ScenarioResult(List.of(op("list <&> \"20\"", 5).withCpu(shared),
        op("whoami", 1).withCpu(shared), op("count", 2).withCpu(alone)), List.of(), List.of()),
        "this JVM minus the generator");
    Document doc = parse(ReportChart.svg(report));

    assertEquals("svg", doc.getDocumentElement().getLocalName());
    List<Element> rows = operations(doc);
    assertEquals(List.of("list <&> \"20\"", "whoami", "count"),
        rows.stream().map(g -> g.getAttribute("data-operation")).toList());
    for (Element row : rows) {
      for (String p : List.of("p50", "p90", "p99", "p99.9")) {
        assertEquals(1, bars(row, p), row.getAttribute("data-operation") + " " + p);
      }
      assertEquals(1, bars(row, "throughput"));
      assertEquals(1, bars(row, "cpu"));
    }
    String count = rows.get(2).getTextContent();
    assertTrue(count.contains("Kith CPU 0.500 ms/req"), count);
    assertTrue(rows.get(1).getTextContent().contains("1.000 (mix)"), rows.get(1).getTextContent());
  }

  @Test
  @DisplayName("an operation without a CPU figure is drawn and marked not measured, and a run without operations still draws")
  void withoutCpu() throws Exception {
    Report report = new Report(run(), new ScenarioResult(List.of(op("burst", 3)), List.of(), List.of()));
    List<Element> rows = operations(parse(ReportChart.svg(report)));
    assertEquals(1, rows.size());
    assertEquals(0, bars(rows.get(0), "cpu"));
    assertTrue(rows.get(0).getTextContent().contains("not measured"));

    Report empty = new Report(run(), new ScenarioResult(List.of(), List.of(), List.of("heap only")));
    assertEquals(0, operations(parse(ReportChart.svg(empty))).size());
  }

  @Test
  @DisplayName("the report prints and writes each operation's CPU per answer, saying which phase's mix shares it")
  void cpuInTableAndJson() {
    OperationStats.Cpu shared = new OperationStats.Cpu(3_000_000L, 2000, List.of("ping", "whoami"));
    Report report = new Report(run(), new ScenarioResult(List.of(op("ping", 1).withCpu(shared),
        op("whoami", 2).withCpu(shared), op("burst", 1)), List.of(), List.of()), "this JVM minus the generator");
    String table = report.toTable();
    assertTrue(table.contains("cpu: Kith's CPU per correct answer; this JVM minus the generator"), table);
    assertTrue(table.matches("(?s).*ping\\s+0\\.002\\s+2000\\s+the phase's mix: ping, whoami.*"), table);
    assertTrue(table.matches("(?s).*burst\\s+-\\s+-\\s+not measured.*"), table);
    var json = report.toJson();
    assertEquals(true, json.getJsonObject("cpu").getBoolean("measured"));
    var ping = json.getJsonArray("operations").getJsonObject(0).getJsonObject("cpu");
    assertEquals(0.002, ping.getDouble("ms_per_request"), 1e-9, "3 ms over 2,000 answers, rounded to µs");
    assertEquals(2000L, ping.getLong("requests"));
    assertEquals(List.of("ping", "whoami"), ping.getJsonArray("shared_by").getList());
    assertEquals(null, json.getJsonArray("operations").getJsonObject(2).getValue("cpu"));
  }

  @Test
  @DisplayName("slices of one operation add their CPU, and a mix of one phase counts the phase's CPU once")
  void combinedCpu() {
    OperationStats.Cpu first = new OperationStats.Cpu(1_000_000L, 10, List.of("home"));
    OperationStats.Cpu second = new OperationStats.Cpu(3_000_000L, 30, List.of("home"));
    OperationStats slices = OperationStats.sequential("home", "home", List.of(op("home", 1).withCpu(first),
        op("home", 1).withCpu(second)));
    assertEquals(4_000_000L, slices.cpu().nanos());
    assertEquals(40L, slices.cpu().requests());
    assertTrue(slices.cpu().alone());

    OperationStats.Cpu phase = new OperationStats.Cpu(6_000_000L, 60, List.of("a", "b"));
    OperationStats mix = OperationStats.concurrent("mix", "mix", List.of(op("a", 1).withCpu(phase),
        op("b", 1).withCpu(phase)));
    assertEquals(6_000_000L, mix.cpu().nanos());
    assertEquals(60L, mix.cpu().requests());
    assertEquals(null, OperationStats.concurrent("x", "x", List.of(op("a", 1).withCpu(phase), op("c", 1))).cpu());
  }
}
