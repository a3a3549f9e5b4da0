package io.kith.platform.text;

import io.kith.platform.error.ErrorCode;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The operators' content filters (issue 22), applied by the domain services where they validate user text, so HTTP
 * and the bridge refuse the same words. The lists live in MongoDB collection {@value #COLLECTION} (written by the
 * moderation module); every node keeps one compiled copy per JVM, loaded at start, refreshed every
 * {@value #REFRESH_MS} ms and at once when {@link #CHANGED_ADDRESS} is published (moderation publishes it on every
 * change), so a change reaches every node within seconds even when a publish is lost.
 *
 * <p>Matching is on a normal form of both sides ({@link #normalize}): NFKC (full-width and compatibility letters
 * become plain ones), format characters removed (zero-width spaces and joiners cannot split a word) and case folded.
 * A pattern runs over at most {@value #MAX_INPUT} characters through a character sequence with a step budget, so a
 * pattern with catastrophic backtracking stops (as no match, logged) instead of holding an event loop.
 */
public final class ContentFilters {

  /** The MongoDB collection of filters: {@code {_id, kind, value, action, contexts, created_by, created_at}}. */
  public static final String COLLECTION = "content_filters";
  /** Published (any body) by whoever changes the collection, so every node reloads at once. */
  public static final String CHANGED_ADDRESS = "kith.content-filters.changed";
  /** The refusal of text that a filter with action {@code refuse} matches, naming the field. */
  public static final ErrorCode CONTENT_REFUSED = ErrorCode.of(422, "content_refused", "Content refused");

  /** Where text is checked: the {@code contexts} a filter applies to. */
  public static final List<String> CONTEXTS =
      List.of("post", "comment", "message", "nickname", "group_name", "activity");
  /** Filter kinds: a whole word (or phrase) or a Java regular expression. */
  public static final List<String> KINDS = List.of("word", "pattern");
  /**
   * What a match does: {@code refuse} the text; {@code hold} it for review (stored, shown only to its author and
   * moderators until released: posts and comments, see {@link #screen}; elsewhere a hold refuses, as nothing there
   * waits for review); {@code hide} nothing at the write, the text is hidden from readers who asked to hide filtered
   * content ({@link #matchesAny}).
   */
  public static final List<String> ACTIONS = List.of("refuse", "hold", "hide");
  /** The longest word or pattern an operator may set. */
  public static final int MAX_VALUE = 200;
  /** Characters of (normalised) text a pattern runs over. */
  public static final int MAX_INPUT = 20_000;

  static final long REFRESH_MS = 5_000;
  // character reads one pattern may make over one text: ample for a linear scan of MAX_INPUT, far below a runaway
  static final int STEP_BUDGET = 2_000_000;
  private static final Logger LOG = LoggerFactory.getLogger(ContentFilters.class);

  // one copy per JVM: the validation points are static, and every node of one JVM reads the same database
  private static volatile List<Filter> active = List.of();

  private ContentFilters() {
  }

  /** One compiled filter. */
  record Filter(long id, String action, Set<String> contexts, Pattern pattern) {
  }

  /**
   * Loads the filters now and keeps them fresh on this Vert.x instance (a timer and a consumer of
   * {@link #CHANGED_ADDRESS}); fails only when the first load fails.
   */
  public static Future<Void> watch(Vertx vertx, MongoClient mongo) {
    vertx.setPeriodic(REFRESH_MS, REFRESH_MS, t -> load(mongo));
    vertx.eventBus().consumer(CHANGED_ADDRESS, m -> load(mongo));
    return load(mongo);
  }

  private static Future<Void> load(MongoClient mongo) {
    return mongo.find(COLLECTION, new JsonObject()).map(docs -> {
      List<Filter> loaded = new ArrayList<>();
      for (JsonObject doc : docs) {
        try {
          loaded.add(compile(doc));
        } catch (RuntimeException e) {
          LOG.warn("content filter {} skipped: {}", doc.getValue("_id"), e.getMessage());
        }
      }
      active = List.copyOf(loaded);
      return (Void) null;
    }).onFailure(e -> LOG.warn("content filters not refreshed: {}", e.getMessage()));
  }

  /**
   * Checks a filter as an operator sent it ({@code {kind, value, action, contexts}}) and returns it in its stored
   * form; refused with {@code validation_failed} naming the field (a regular expression that does not compile
   * included).
   */
  public static JsonObject validate(JsonObject body) {
    String kind = body.getValue("kind") instanceof String k ? k : null;
    if (!KINDS.contains(kind)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "kind", "kind must be one of " + KINDS);
    }
    String value = body.getValue("value") instanceof String v ? v : null;
    if (value == null || value.isBlank() || value.length() > MAX_VALUE) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "value",
          "value must be 1 to " + MAX_VALUE + " characters");
    }
    String action = body.getValue("action") instanceof String a ? a : "refuse";
    if (!ACTIONS.contains(action)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "action", "action must be one of " + ACTIONS);
    }
    JsonArray contexts = body.getValue("contexts") instanceof JsonArray c ? c : new JsonArray(CONTEXTS);
    if (contexts.isEmpty() || !contexts.stream().allMatch(CONTEXTS::contains)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "contexts",
          "contexts must be a non-empty list of " + CONTEXTS);
    }
    // the category of the report a hold files: moderation, which owns the categories, checks it before
    String category = body.getValue("category") instanceof String c ? c : "other";
    JsonObject out = new JsonObject().put("kind", kind).put("value", UserText.line("value", value))
        .put("action", action).put("contexts", new JsonArray(contexts.stream().distinct().toList()))
        .put("category", category);
    try {
      compile(out.copy().put("_id", 0L));
    } catch (PatternSyntaxException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "value",
          "value is not a valid regular expression: " + e.getDescription());
    }
    return out;
  }

  static Filter compile(JsonObject doc) {
    String value = normalize(doc.getString("value"));
    String regex = "pattern".equals(doc.getString("kind")) ? value
        // a word matches whole: not inside a longer word (letters and digits around it)
        : "(?<![\\p{L}\\p{N}])" + Pattern.quote(value) + "(?![\\p{L}\\p{N}])";
    Set<String> contexts = Set.copyOf(doc.getJsonArray("contexts", new JsonArray()).stream()
        .map(String::valueOf).toList());
    return new Filter(doc.getLong("_id", 0L), doc.getString("action", "refuse"), contexts,
        Pattern.compile(regex, Pattern.UNICODE_CASE | Pattern.CASE_INSENSITIVE));
  }

  /**
   * The form text is matched in: NFKC, format characters (zero-width, joiners, direction marks) removed, case
   * folded (upper then lower case, so that letters whose lower case has no single upper form fold alike).
   */
  public static String normalize(String text) {
    String nfkc = Normalizer.normalize(text, Normalizer.Form.NFKC);
    StringBuilder out = new StringBuilder(nfkc.length());
    nfkc.codePoints().filter(c -> Character.getType(c) != Character.FORMAT).forEach(out::appendCodePoint);
    return Normalizer.normalize(out.toString().toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT),
        Normalizer.Form.NFKC);
  }

  /**
   * Refuses {@code text} with {@code content_refused} naming {@code field} when a {@code refuse} or {@code hold}
   * filter of {@code context} matches it (a hold refuses where nothing waits for review); call it where the domain
   * validates the text.
   *
   * @return {@code text} unchanged (null stays null)
   */
  public static String check(String context, String field, String text) {
    if (screen(context, field, text) != 0) {
      throw refused(field);
    }
    return text;
  }

  /**
   * Refuses {@code text} with {@code content_refused} naming {@code field} when a {@code refuse} filter of
   * {@code context} matches it; otherwise answers the id of a {@code hold} filter that matches (the text is to be
   * stored held for review), or 0.
   */
  public static long screen(String context, String field, String text) {
    List<Filter> filters = active;
    String normal = normalForm(text, filters);
    long hold = 0;
    if (normal == null) {
      return hold;
    }
    for (Filter filter : filters) {
      if (filter.contexts().contains(context) && !"hide".equals(filter.action()) && matches(filter, normal)) {
        if ("refuse".equals(filter.action())) {
          throw refused(field);
        }
        hold = hold == 0 ? filter.id() : hold;
      }
    }
    return hold;
  }

  /**
   * Whether any filter of {@code context} (whatever its action) matches {@code text}: what a reader who asked to hide
   * filtered content does not see (text stored before a refuse filter came, and text a {@code hide} filter matches).
   */
  public static boolean matchesAny(String context, String text) {
    List<Filter> filters = active;
    String normal = normalForm(text, filters);
    if (normal == null) {
      return false;
    }
    for (Filter filter : filters) {
      if (filter.contexts().contains(context) && matches(filter, normal)) {
        return true;
      }
    }
    return false;
  }

  // the matched form of a text, or null when there is nothing to match (no text, or no filters)
  private static String normalForm(String text, List<Filter> filters) {
    if (text == null || text.isEmpty() || filters.isEmpty()) {
      return null;
    }
    String normal = normalize(text);
    return normal.length() > MAX_INPUT ? normal.substring(0, MAX_INPUT) : normal;
  }

  private static RuntimeException refused(String field) {
    return Failures.field(CONTENT_REFUSED, field, field + " contains words this service does not accept");
  }

  private static boolean matches(Filter filter, String normal) {
    try {
      return filter.pattern().matcher(new BudgetedText(normal, new int[] {STEP_BUDGET})).find();
    } catch (BudgetedText.Exhausted e) {
      LOG.warn("content filter {} gave up on a text of {} characters (its pattern backtracks too much)",
          filter.id(), normal.length());
      return false;
    }
  }

  /** A character sequence that fails once its reads pass a shared budget, so a regex cannot run away. */
  private record BudgetedText(String text, int[] budget) implements CharSequence {

    static final class Exhausted extends RuntimeException {
      Exhausted() {
        super("step budget exhausted", null, false, false);
      }
    }

    @Override
    public char charAt(int index) {
      if (--budget[0] < 0) {
        throw new Exhausted();
      }
      return text.charAt(index);
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return new BudgetedText(text.substring(start, end), budget);
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
