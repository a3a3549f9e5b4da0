package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.ContentFilters;
import io.kith.platform.text.UserText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.LocalDate;
import java.time.MonthDay;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The profile model: which fields exist, which the owner may edit and how they are validated, and the three views
 * (own, public, summary). The stored account document keeps these fields at its top level next to
 * {@code username}, {@code email}, {@code password} and the lower-cased lookup keys.
 */
final class Profiles {

  static final Set<String> GENDERS = Set.of("male", "female", "other", "unspecified");
  static final Set<String> AUDIENCES = Set.of("everyone", "friends", "nobody");
  static final Set<String> PRESENCE_MODES = Set.of("online", "friends", "invisible");
  static final int MAX_INTERESTS = 20;
  static final int MAX_INTEREST_LENGTH = 30;
  static final LocalDate OLDEST_BIRTHDAY = LocalDate.of(1900, 1, 1);

  /** Editable string fields and their maximum lengths. */
  private static final Map<String, Integer> TEXT_FIELDS = Map.of(
      "nickname", 40, "signature", 200, "school", 100, "job", 100, "location", 100);
  private static final Set<String> OTHER_EDITABLE =
      Set.of("gender", "birthday", "photo_url", "photo_media", "phone", "email", "locale", "interests", "settings");
  /** Languages of the messages Kith sends (verification codes, resets, notices). */
  static final Set<String> LOCALES = Set.of("en", "zh-CN");
  /**
   * Where an identifier waits until its owner proves it with a code: only {@code email_lc} and {@code phone} (unique
   * indexes) hold verified identifiers, the ones that find people and that a verified claim owns.
   */
  static final String EMAIL_PENDING = "email_pending";
  static final String PHONE_PENDING = "phone_pending";
  /** The profile photo as an upload's id (POST /api/v1/media), beside or instead of {@code photo_url}. */
  static final String PHOTO_MEDIA = "photo_media";
  /** Fields the server owns: refused by PATCH with read_only_field. */
  static final Set<String> SERVER_OWNED = Set.of("id", "_id", "username", "email_verified", "phone_verified",
      "created", "role",
      "last_active", "zodiac", "following_count", "follower_count", "friend_count", "post_count", "counts",
      "password", "online");

  /** Settings and their defaults. */
  static final JsonObject DEFAULT_SETTINGS = new JsonObject()
      .put("find_by_email", "everyone")
      .put("find_by_phone", "everyone")
      .put("birthday_visibility", "friends")
      .put("phone_visibility", "nobody")
      .put("follow_approval", false)
      .put("nearby_visible", false)
      .put("presence", "online")
      // read by feeds (AccountsInternal.readerSettings): hide posts and comments the content filters match
      .put("hide_filtered", false);

  private static final Pattern USERNAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.]{2,29}");
  private static final Pattern EMAIL = Pattern.compile("[^@\\s]{1,64}@[^@\\s]+\\.[^@\\s]+");
  private static final Pattern PHONE = Pattern.compile("\\+?[0-9]{6,15}");

  private Profiles() {
  }

  /** The validated username or a failure naming {@code username}. */
  static String username(String raw) {
    if (raw == null || !USERNAME.matcher(raw).matches()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "username",
          "username must be 3 to 30 characters: a letter, then letters, digits, '_' or '.'");
    }
    return raw;
  }

  /** The lower-cased email, or a failure naming {@code field}. */
  static String email(String raw, String field) {
    String email = raw == null ? "" : raw.trim().toLowerCase(Locale.ROOT);
    if (email.length() > 254 || !EMAIL.matcher(email).matches()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a valid email address");
    }
    return email;
  }

  /**
   * The normalised phone: spaces, dashes, dots and parentheses removed, an optional leading {@code +} kept, 6 to 15
   * digits. Numbers are compared in this form, so the same number written with and without its country code are
   * different numbers: apps should send international form.
   */
  static String phone(String raw, String field) {
    String phone = normalisePhone(raw);
    if (phone == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field,
          field + " must be a phone number of 6 to 15 digits, optionally starting with +");
    }
    return phone;
  }

  /** The normalised phone or null when it is not a phone number. */
  static String normalisePhone(String raw) {
    if (raw == null) {
      return null;
    }
    String phone = raw.replaceAll("[\\s\\-.()]", "");
    if (phone.startsWith("00")) {
      phone = "+" + phone.substring(2);
    }
    return PHONE.matcher(phone).matches() ? phone : null;
  }

  /**
   * Validates a PATCH body.
   *
   * @return {@code {set: {...}, unset: [...], fields: [...]}} for the store; each changed setting is its own
   *     {@code settings.<key>} path (keys are allow-listed), never the whole settings object
   */
  static JsonObject validateChanges(JsonObject changes) {
    if (changes == null || changes.isEmpty()) {
      throw Failures.of(KithErrors.VALIDATION_FAILED, "the body must name at least one field to change");
    }
    checkEditable(changes);
    JsonObject set = new JsonObject();
    JsonArray unset = new JsonArray();
    List<String> fields = new ArrayList<>();
    for (Map.Entry<String, Object> e : changes) {
      String field = e.getKey();
      Object value = e.getValue();
      fields.add(field);
      if (value == null && !field.equals("settings")) {
        removal(field, unset);
        continue;
      }
      if (TEXT_FIELDS.containsKey(field)) {
        String text = text(field, value, TEXT_FIELDS.get(field));
        if (field.equals("nickname")) {
          ContentFilters.check("nickname", field, text);
          if (text.isEmpty()) {
            throw Failures.field(KithErrors.VALIDATION_FAILED, field, "nickname must not be empty");
          }
          set.put("nickname_lc", text.toLowerCase(Locale.ROOT));
        }
        if (text.isEmpty()) {
          unset.add(field);
        } else {
          set.put(field, text);
        }
        continue;
      }
      switch (field) {
        case "gender" -> set.put(field, oneOf(field, value, GENDERS));
        case "birthday" -> {
          LocalDate date = birthday(value);
          set.put("birthday", date.toString()).put("zodiac", zodiac(date));
        }
        case "photo_url" -> set.put(field, url(field, value));
        case PHOTO_MEDIA -> set.put(field, mediaId(field, value));
        // a new phone or email waits, unverified, until a code sent to it comes back (Verification)
        case "phone" -> set.put(PHONE_PENDING, phone(stringOf(field, value), field));
        case "email" -> set.put(EMAIL_PENDING, email(stringOf(field, value), field));
        case "locale" -> set.put(field, oneOf(field, value, LOCALES));
        case "interests" -> set.put(field, interests(value));
        case "settings" -> settings(value).forEach(s -> set.put("settings." + s.getKey(), s.getValue()));
        default -> throw new IllegalStateException(field);
      }
    }
    return new JsonObject().put("set", set).put("unset", unset).put("fields", new JsonArray(fields));
  }

  /** Refuses a body that names a field the server owns or no profile field, before any value is looked at. */
  private static void checkEditable(JsonObject changes) {
    for (String field : changes.fieldNames()) {
      if (SERVER_OWNED.contains(field)) {
        throw Failures.field(AccountsErrors.READ_ONLY_FIELD, field, field + " is set by the server and cannot be changed");
      }
      if (!TEXT_FIELDS.containsKey(field) && !OTHER_EDITABLE.contains(field)) {
        throw Failures.field(AccountsErrors.UNKNOWN_FIELD, field, field + " is not a profile field");
      }
    }
  }

  /** A field set to null is removed, with what is derived from it; the nickname cannot be. */
  private static void removal(String field, JsonArray unset) {
    if (field.equals("nickname")) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, "nickname cannot be removed");
    }
    unset.add(field);
    if (field.equals("email")) {
      unset.add("email_lc").add(EMAIL_PENDING);
    }
    if (field.equals("phone")) {
      unset.add(PHONE_PENDING);
    }
    if (field.equals("birthday")) {
      unset.add("zodiac");
    }
  }

  private static String stringOf(String field, Object value) {
    if (!(value instanceof String)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a string");
    }
    return (String) value;
  }

  private static String text(String field, Object value, int max) {
    String text = stringOf(field, value).strip();
    if (text.length() > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be at most " + max + " characters");
    }
    return UserText.line(field, text);
  }

  private static String oneOf(String field, Object value, Set<String> allowed) {
    String v = stringOf(field, value);
    if (!allowed.contains(v)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field,
          field + " must be one of " + String.join(", ", new java.util.TreeSet<>(allowed)));
    }
    return v;
  }

  private static LocalDate birthday(Object value) {
    LocalDate date;
    try {
      date = LocalDate.parse(stringOf("birthday", value));
    } catch (DateTimeParseException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "birthday", "birthday must be a date like 1990-04-21");
    }
    LocalDate today = LocalDate.now(ZoneOffset.UTC).plusDays(1);
    if (date.isAfter(today)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "birthday", "birthday must not be in the future");
    }
    if (date.isBefore(OLDEST_BIRTHDAY)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "birthday", "birthday must be on or after 1900-01-01");
    }
    return date;
  }

  private static long mediaId(String field, Object value) {
    if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() <= 0) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be the id of an image you uploaded");
    }
    return n.longValue();
  }

  private static String url(String field, Object value) {
    String raw = stringOf(field, value).trim();
    if (raw.length() > 500) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be at most 500 characters");
    }
    try {
      URI uri = new URI(raw);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || uri.getHost().isEmpty()) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be an http or https URL");
      }
      return uri.toString();
    } catch (URISyntaxException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be an http or https URL");
    }
  }

  private static JsonArray interests(Object value) {
    if (!(value instanceof JsonArray)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "interests", "interests must be an array of strings");
    }
    JsonArray raw = (JsonArray) value;
    if (raw.size() > MAX_INTERESTS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "interests", "at most " + MAX_INTERESTS + " interests");
    }
    Map<String, String> unique = new LinkedHashMap<>();
    for (Object item : raw) {
      if (!(item instanceof String) || ((String) item).isBlank()) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "interests", "each interest must be a non-empty string");
      }
      String tag = ((String) item).strip();
      if (tag.length() > MAX_INTEREST_LENGTH) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "interests",
            "each interest must be at most " + MAX_INTEREST_LENGTH + " characters");
      }
      UserText.line("interests", tag);
      unique.putIfAbsent(tag.toLowerCase(Locale.ROOT), tag);
    }
    return new JsonArray(new ArrayList<>(unique.values()));
  }

  /** The validated settings of a PATCH: only the keys given, each checked against the allow-list. */
  private static JsonObject settings(Object value) {
    if (!(value instanceof JsonObject)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "settings", "settings must be an object");
    }
    JsonObject valid = new JsonObject();
    for (Map.Entry<String, Object> e : (JsonObject) value) {
      String key = e.getKey();
      String path = "settings." + key;
      Object v = e.getValue();
      if (!DEFAULT_SETTINGS.containsKey(key)) {
        throw Failures.field(AccountsErrors.UNKNOWN_FIELD, path, path + " is not a setting");
      }
      Object def = DEFAULT_SETTINGS.getValue(key);
      if (def instanceof Boolean) {
        if (!(v instanceof Boolean)) {
          throw Failures.field(KithErrors.VALIDATION_FAILED, path, path + " must be true or false");
        }
        valid.put(key, v);
      } else {
        Set<String> allowed = key.equals("presence") ? PRESENCE_MODES : AUDIENCES;
        valid.put(key, oneOf(path, v, allowed));
      }
    }
    return valid;
  }

  /** The Western zodiac sign of a birthday. */
  static String zodiac(LocalDate date) {
    MonthDay d = MonthDay.from(date);
    String[] signs = {"capricorn", "aquarius", "pisces", "aries", "taurus", "gemini", "cancer", "leo", "virgo",
        "libra", "scorpio", "sagittarius", "capricorn"};
    int[][] starts = {{1, 20}, {2, 19}, {3, 21}, {4, 20}, {5, 21}, {6, 21}, {7, 23}, {8, 23}, {9, 23}, {10, 23},
        {11, 22}, {12, 22}};
    int index = 0;
    for (int i = 0; i < starts.length; i++) {
      if (!d.isBefore(MonthDay.of(starts[i][0], starts[i][1]))) {
        index = i + 1;
      }
    }
    return signs[index];
  }

  /** Settings with defaults filled in. */
  static JsonObject settingsOf(JsonObject account) {
    return DEFAULT_SETTINGS.copy().mergeIn(account.getJsonObject("settings", new JsonObject()));
  }

  private static final List<String> PROFILE_FIELDS = List.of("nickname", "gender", "signature", "photo_url", PHOTO_MEDIA,
      "school", "job", "interests", "location");

  /** Everything the owner sees. */
  static JsonObject ownView(JsonObject account) {
    JsonObject view = new JsonObject().put("id", account.getLong("_id")).put("username", account.getString("username"));
    copy(account, view, PROFILE_FIELDS);
    copy(account, view, List.of("birthday", "zodiac", "phone", "email", "locale", "created", "last_active"));
    // the owner sees an identifier waiting for its code in place of the verified one it would replace
    if (account.getString(EMAIL_PENDING) != null) {
      view.put("email", account.getString(EMAIL_PENDING));
    }
    if (account.getString(PHONE_PENDING) != null) {
      view.put("phone", account.getString(PHONE_PENDING));
    }
    view.put("email_verified", view.getString("email") != null && account.getString(EMAIL_PENDING) == null);
    view.put("phone_verified", view.getString("phone") != null && account.getString(PHONE_PENDING) == null);
    view.put("role", account.getString("role", "user"));
    view.put("settings", settingsOf(account));
    return view;
  }

  /**
   * What a viewer who is not the owner sees.
   *
   * @param friend whether the viewer is the owner's friend (for "friends" audiences)
   */
  static JsonObject publicView(JsonObject account, boolean friend) {
    JsonObject settings = settingsOf(account);
    JsonObject view = new JsonObject().put("id", account.getLong("_id")).put("username", account.getString("username"));
    copy(account, view, PROFILE_FIELDS);
    view.put("created", account.getLong("created"));
    if (allows(settings.getString("birthday_visibility"), friend)) {
      copy(account, view, List.of("birthday", "zodiac"));
    }
    if (allows(settings.getString("phone_visibility"), friend)) {
      copy(account, view, List.of("phone"));
    }
    if (allows(presenceAudience(settings.getString("presence")), friend)) {
      copy(account, view, List.of("last_active"));
    }
    view.put("follow_approval", settings.getBoolean("follow_approval"));
    return view;
  }

  /** Who sees presence for a mode. */
  static String presenceAudience(String mode) {
    return switch (mode == null ? "online" : mode) {
      case "invisible" -> "nobody";
      case "friends" -> "friends";
      default -> "everyone";
    };
  }

  /** Whether an audience setting lets a viewer in. */
  static boolean allows(String audience, boolean friend) {
    return "everyone".equals(audience) || ("friends".equals(audience) && friend);
  }

  /** The summary used in lists. */
  static JsonObject summary(JsonObject account) {
    JsonObject view = new JsonObject().put("id", account.getLong("_id")).put("username", account.getString("username"));
    copy(account, view, List.of("nickname", "photo_url", PHOTO_MEDIA));
    return view;
  }

  private static void copy(JsonObject from, JsonObject to, List<String> fields) {
    for (String f : fields) {
      Object v = from.getValue(f);
      if (v != null) {
        to.put(f, v);
      }
    }
  }

  /** Lower-cased set of an account's interests. */
  static Set<String> interestSet(JsonObject account) {
    Set<String> out = new LinkedHashSet<>();
    JsonArray interests = account.getJsonArray("interests");
    if (interests != null) {
      interests.forEach(i -> out.add(String.valueOf(i).toLowerCase(Locale.ROOT)));
    }
    return out;
  }
}
