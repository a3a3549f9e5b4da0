package io.kith.bench.scenario;

import io.kith.bench.scenario.accounts.AccountsLoginScenario;
import io.kith.bench.scenario.accounts.AccountsProfileScenario;
import io.kith.bench.scenario.activities.ActivitiesJoinScenario;
import io.kith.bench.scenario.activities.ActivitiesNearbyScenario;
import io.kith.bench.scenario.cluster.ScaleOutScenario;
import io.kith.bench.scenario.feeds.FeedsFanoutScenario;
import io.kith.bench.scenario.feeds.FeedsHomeScenario;
import io.kith.bench.scenario.feeds.FeedsMomentsScenario;
import io.kith.bench.scenario.gateway.AuthOverheadScenario;
import io.kith.bench.scenario.gateway.BridgeRoundtripScenario;
import io.kith.bench.scenario.messaging.BridgeIdleHeapScenario;
import io.kith.bench.scenario.messaging.MessagingDirectScenario;
import io.kith.bench.scenario.notifications.NotificationsScenario;
import io.kith.bench.scenario.push.AnnouncementPushScenario;
import io.kith.bench.scenario.relations.RelationsBatchScenario;
import io.kith.bench.scenario.relations.RelationsFollowersScenario;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The scenarios the command line knows, by name. */
public final class Scenarios {

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]*");
  /** Options of the command itself, which no scenario may declare. */
  private static final Set<String> RESERVED_OPTIONS = Set.of("rate", "duration", "warmup", "connections", "timeout",
      "max-in-flight", "target", "token", "tcp-bridge-port", "json", "no-progress", "help");

  private final List<Scenario> all;

  /**
   * A registry of {@code scenarios}, listed in this order.
   *
   * @throws IllegalArgumentException when a name is malformed, reserved or used twice
   */
  public Scenarios(List<Scenario> scenarios) {
    Set<String> seen = new HashSet<>();
    for (Scenario s : scenarios) {
      if (!NAME.matcher(s.name()).matches()) {
        throw new IllegalArgumentException("scenario name '" + s.name() + "' must be lower case, digits and dashes");
      }
      if (s.name().equals("list") || s.name().equals("help")) {
        throw new IllegalArgumentException("scenario name '" + s.name() + "' is a command");
      }
      if (!seen.add(s.name())) {
        throw new IllegalArgumentException("two scenarios are named '" + s.name() + "'");
      }
      Set<String> options = new HashSet<>();
      for (ScenarioOption option : s.options()) {
        if (RESERVED_OPTIONS.contains(option.name()) || !options.add(option.name())) {
          throw new IllegalArgumentException("scenario " + s.name() + " declares option --" + option.name()
              + " twice or over a general option");
        }
      }
    }
    this.all = List.copyOf(scenarios);
  }

  /** Every scenario shipped with the bench. Add new ones here. */
  public static Scenarios builtIn() {
    return new Scenarios(List.of(
        new AuthOverheadScenario(),
        new BridgeRoundtripScenario(),
        new AccountsProfileScenario(),
        new AccountsLoginScenario(),
        new RelationsBatchScenario(),
        new RelationsFollowersScenario(),
        new FeedsFanoutScenario(),
        new FeedsHomeScenario(),
        new FeedsMomentsScenario(),
        new NotificationsScenario(),
        new ActivitiesJoinScenario(),
        new ActivitiesNearbyScenario(),

        new MessagingDirectScenario(),
        new BridgeIdleHeapScenario(),
        new AnnouncementPushScenario(),
        new ScaleOutScenario()));
  }

  /** All scenarios in listing order. */
  public List<Scenario> all() {
    return all;
  }

  /** The scenario called {@code name}. */
  public Optional<Scenario> find(String name) {
    return all.stream().filter(s -> s.name().equals(name)).findFirst();
  }

  /** Whether some scenario declares the option {@code name} (without dashes). */
  public boolean declaresOption(String name) {
    return all.stream().anyMatch(s -> s.options().stream().anyMatch(o -> o.name().equals(name)));
  }

  /** The scenarios declaring the option {@code name} (without dashes), comma-separated, for messages. */
  public String declaring(String name) {
    return all.stream().filter(s -> s.options().stream().anyMatch(o -> o.name().equals(name)))
        .map(Scenario::name).collect(Collectors.joining(", "));
  }

  /** The names, comma-separated, for messages. */
  public String names() {
    return all.stream().map(Scenario::name).collect(Collectors.joining(", "));
  }
}
