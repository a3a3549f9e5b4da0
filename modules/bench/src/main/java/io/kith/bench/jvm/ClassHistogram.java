package io.kith.bench.jvm;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Live objects of this JVM by class ({@code jcmd <pid> GC.class_histogram}, which collects first), and what grew
 * between two histograms: where the heap of a number of connections goes.
 *
 * @param classes instances and bytes by class name
 */
public record ClassHistogram(Map<String, Counts> classes) {

  /** Live instances of a class and their shallow size in bytes. */
  public record Counts(long instances, long bytes) {
  }

  /**
   * What one class grew by, per connection.
   *
   * @param className           the class
   * @param instancesPerConnection instances added per connection
   * @param bytesPerConnection  bytes added per connection
   */
  public record Growth(String className, double instancesPerConnection, double bytesPerConnection) {
  }

  // "   1:        123456       7890123  [B (java.base@17.0.15)"
  private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)(?:\\s.*)?$");

  /** Copies the map. */
  public ClassHistogram {
    classes = Map.copyOf(classes);
  }

  /**
   * This JVM's histogram as the text {@code jcmd <pid> GC.class_histogram} prints, through the DiagnosticCommand
   * MBean (a full collection runs first); blocks. Keep it out of the heap (in a file) while taking the next one, or
   * it counts in it.
   */
  public static String takeText() {
    try {
      return String.valueOf(ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
          new Object[] {new String[0]}, new String[] {String[].class.getName()}));
    } catch (Exception e) {
      throw new IllegalStateException("cannot take a class histogram: " + e.getMessage(), e);
    }
  }

  /** Reads the text of {@code GC.class_histogram}; lines that are not class rows (header, total) are skipped. */
  public static ClassHistogram parse(String text) {
    Map<String, Counts> classes = new HashMap<>();
    for (String line : text.split("\n")) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        // the same name may appear once per class loader: add them up
        classes.merge(m.group(3), new Counts(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))),
            (a, b) -> new Counts(a.instances() + b.instances(), a.bytes() + b.bytes()));
      }
    }
    return new ClassHistogram(classes);
  }

  /**
   * The {@code top} classes that grew most in bytes from {@code this} to {@code later}, per connection; classes that
   * did not grow are left out.
   */
  public List<Growth> growth(ClassHistogram later, int connections, int top) {
    Set<String> names = new HashSet<>(classes.keySet());
    names.addAll(later.classes().keySet());
    Counts none = new Counts(0, 0);
    List<Growth> grown = new ArrayList<>();
    for (String name : names) {
      Counts a = classes.getOrDefault(name, none);
      Counts b = later.classes().getOrDefault(name, none);
      long bytes = b.bytes() - a.bytes();
      if (bytes > 0) {
        grown.add(new Growth(name, (double) (b.instances() - a.instances()) / connections,
            (double) bytes / connections));
      }
    }
    grown.sort(Comparator.comparingDouble(Growth::bytesPerConnection).reversed()
        .thenComparing(Growth::className));
    return grown.subList(0, Math.min(top, grown.size()));
  }

  /** A class name as Java source spells it: {@code [B} is {@code byte[]}, {@code [Ljava.lang.Object;} is
   * {@code java.lang.Object[]}. */
  public static String readable(String name) {
    int dims = 0;
    while (dims < name.length() && name.charAt(dims) == '[') {
      dims++;
    }
    if (dims == 0) {
      return name;
    }
    String element = name.substring(dims);
    String base = switch (element) {
      case "B" -> "byte";
      case "C" -> "char";
      case "S" -> "short";
      case "I" -> "int";
      case "J" -> "long";
      case "F" -> "float";
      case "D" -> "double";
      case "Z" -> "boolean";
      default -> element.startsWith("L") && element.endsWith(";") ? element.substring(1, element.length() - 1)
          : element;
    };
    return base + "[]".repeat(dims);
  }
}
