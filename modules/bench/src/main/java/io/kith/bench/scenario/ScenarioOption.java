package io.kith.bench.scenario;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A numeric command-line option that belongs to one scenario, such as {@code --login-rate 10}. The command line
 * accepts it only with that scenario, checks its range before the run, and hands the value (or the default) to the
 * scenario through {@link ScenarioContext#option(String)}.
 *
 * @param name         the option without its leading dashes: lower case, digits and dashes
 * @param description  what it sets, for the usage text
 * @param defaultValue the value when the option is not given
 * @param min          smallest accepted value
 * @param max          largest accepted value
 * @param wholeNumber  whether only whole numbers are accepted
 */
public record ScenarioOption(String name, String description, double defaultValue, double min, double max,
                             boolean wholeNumber) {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");

  /** Checks the fields. */
  public ScenarioOption {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("option name '" + name + "' must be lower case, digits and dashes");
    }
    if (!(min <= defaultValue && defaultValue <= max)) {
      throw new IllegalArgumentException("the default of --" + name + " is outside its range");
    }
  }

  /** A whole-number option. */
  public static ScenarioOption count(String name, String description, int defaultValue, int min, int max) {
    return new ScenarioOption(name, description, defaultValue, min, max, true);
  }

  /** An option taking any number in a range, such as a rate. */
  public static ScenarioOption number(String name, String description, double defaultValue, double min,
                                      double max) {
    return new ScenarioOption(name, description, defaultValue, min, max, false);
  }

  /**
   * Reads a value given on the command line.
   *
   * @throws IllegalArgumentException with a message naming the option and its range
   */
  public double parse(String value) {
    double parsed;
    try {
      parsed = Double.parseDouble(value.strip());
    } catch (NumberFormatException e) {
      parsed = Double.NaN;
    }
    if (!(parsed >= min && parsed <= max) || (wholeNumber && parsed != Math.rint(parsed))) {
      throw new IllegalArgumentException("--" + name + " must be " + (wholeNumber ? "a whole number" : "a number")
          + " from " + format(min) + " to " + format(max) + ", got '" + value + "'");
    }
    return parsed;
  }

  /** A value the way the usage text and reports print it: no decimals for whole numbers. */
  public static String format(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
        : String.format(Locale.ROOT, "%s", value);
  }
}
