package io.kith.bench.scenario;

/**
 * A scenario whose name, one-line description and users are given once, at construction, so that each scenario class
 * holds only what is its own: options, configuration and the measurement.
 */
public abstract class DescribedScenario implements Scenario {

  /** Whose requests a scenario sends. */
  protected enum Users {
    /** The user of the bench's token: {@code --token} against a {@code --target}, minted in-process otherwise. */
    TOKEN,
    /** Users it registers, or sessions it opens, itself: it needs no token. */
    OWN
  }

  private final String name;
  private final String description;
  private final Users users;

  /**
   * @param name        the command-line name: lower case, digits and dashes
   * @param description one line on what is measured against what
   * @param users       whose requests it sends
   */
  protected DescribedScenario(String name, String description, Users users) {
    this.name = name;
    this.description = description;
    this.users = users;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public final boolean needsToken() {
    return users == Users.TOKEN;
  }
}
