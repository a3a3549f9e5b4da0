package io.kith.feeds.service;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.ContentFilters;
import io.kith.platform.text.UserText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A validated post body (publish, repost, edit). Every field is bounded; a bad field fails with
 * {@code validation_failed} naming it.
 *
 * @param text        text, null when absent
 * @param media       media ids (publish only)
 * @param place       {@code {name, lat, lon}} or null
 * @param mentions    mentioned user ids
 * @param visibility  one of {@link Visibility#ALL}, null when absent (edit) or defaulted to public
 * @param audience    {@code {users, groups, tags}} (tags lower case), empty lists when absent; {@code groups} holds
 *                    the circle ids, under the name the stored document keeps (the API says {@code circles})
 * @param heldBy      the content filter that holds the text for review (publish only), or 0
 * @param clientId    the client's id of the post (publish, repost), which makes a retry answer the stored post; or
 *                    null
 */
record PostDraft(String text, List<Long> media, JsonObject place, List<Long> mentions, String visibility,
                 JsonObject audience, long heldBy, String clientId) {

  static final int MAX_TEXT = 5_000;
  static final int MAX_MEDIA = 9;
  static final int MAX_MENTIONS = 20;
  static final int MAX_AUDIENCE_USERS = 1_000;
  static final int MAX_AUDIENCE_GROUPS = 100;
  static final int MAX_AUDIENCE_TAGS = 100;
  static final int MAX_PLACE_NAME = 100;
  /** As a chat message's client id. */
  static final int MAX_CLIENT_ID = 64;
  /** The API's name of an audience's circle ids. */
  static final String CIRCLES = "circles";
  /**
   * The deprecated input name of {@link #CIRCLES} (it read like chat groups), accepted until it is removed, and the
   * name the stored post's {@code aud} keeps: renaming it there would mean migrating every post for no reader's gain.
   */
  static final String GROUPS = "groups";
  private static final Set<String> POST_FIELDS =
      Set.of("text", "media", "place", "mentions", "visibility", "audience", "client_id");
  private static final Set<String> EDIT_FIELDS = Set.of("text", "place", "visibility", "audience");

  /** Parses a body for publishing ({@code repost}: no media, text optional). */
  static PostDraft parse(JsonObject body, boolean repost) {
    JsonObject b = body == null ? new JsonObject() : body;
    unknownFields(b, POST_FIELDS);
    String text = text(b);
    // media keep their repeats: attaching refuses a repeated id with invalid_media (merging it hid a client's mistake)
    List<Long> media = ids(b, "media", MAX_MEDIA, false);
    if (repost && !media.isEmpty()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "media", "a repost carries no media of its own");
    }
    if (!repost && (text == null || text.isBlank()) && media.isEmpty()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "text", "a post needs text or media");
    }
    String visibility = visibility(b);
    JsonObject audience = audience(b);
    PostDraft draft = new PostDraft(text, media, place(b), ids(b, "mentions", MAX_MENTIONS, true),
        visibility == null ? Visibility.PUBLIC : visibility, audience, ContentFilters.screen("post", "text", text),
        clientId(b));
    draft.checkAudience();
    return draft;
  }

  /** Parses an edit: only text, place, visibility and audience; absent fields stay as they are. */
  static PostDraft parseEdit(JsonObject body) {
    JsonObject b = body == null ? new JsonObject() : body;
    unknownFields(b, EDIT_FIELDS);
    if (b.isEmpty()) {
      throw Failures.of(KithErrors.VALIDATION_FAILED, "nothing to change");
    }
    // an edit is not held (the post would vanish from its readers mid-life): a hold filter refuses it
    return new PostDraft(ContentFilters.check("post", "text", text(b)), List.of(), place(b), List.of(), visibility(b),
        b.containsKey("audience") ? audience(b) : null, 0, null);
  }

  /** The audience must be given for {@code only}, and is meaningless for other visibilities but {@code except}. */
  void checkAudience() {
    boolean empty = audience == null || (audience.getJsonArray("users").isEmpty()
        && audience.getJsonArray(GROUPS).isEmpty() && audience.getJsonArray("tags").isEmpty());
    if (Visibility.ONLY.equals(visibility) && empty) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "audience",
          "visibility \"only\" needs an audience (users, circles or tags)");
    }
    if (!empty && !Visibility.ONLY.equals(visibility) && !Visibility.EXCEPT.equals(visibility)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "audience",
          "an audience applies only to visibility \"only\" or \"except\"");
    }
  }

  private static void unknownFields(JsonObject b, Set<String> allowed) {
    for (String f : b.fieldNames()) {
      if (!allowed.contains(f)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, f, "unknown field " + f);
      }
    }
  }

  private static String text(JsonObject b) {
    Object v = b.getValue("text");
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "text", "text must be a string");
    }
    if (s.codePointCount(0, s.length()) > MAX_TEXT) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "text", "text is longer than " + MAX_TEXT + " characters");
    }
    return UserText.lines("text", s);
  }

  private static String clientId(JsonObject b) {
    Object v = b.getValue("client_id");
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || s.isBlank() || s.length() > MAX_CLIENT_ID) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "client_id",
          "client_id must be a string of 1 to " + MAX_CLIENT_ID + " characters");
    }
    return s;
  }

  private static String visibility(JsonObject b) {
    Object v = b.getValue("visibility");
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s) || !Visibility.ALL.contains(s)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "visibility",
          "visibility must be one of " + String.join(", ", Visibility.ALL));
    }
    return s;
  }

  private static JsonObject place(JsonObject b) {
    Object v = b.getValue("place");
    if (v == null) {
      return null;
    }
    if (!(v instanceof JsonObject p)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "place", "place must be an object {name, lat, lon}");
    }
    Object name = p.getValue("name");
    if (!(name instanceof String n) || n.isBlank() || n.length() > MAX_PLACE_NAME) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "place.name",
          "place.name must be 1 to " + MAX_PLACE_NAME + " characters");
    }
    JsonObject out = new JsonObject().put("name", UserText.line("place.name", n));
    Object lat = p.getValue("lat");
    Object lon = p.getValue("lon");
    if (lat != null || lon != null) {
      if (!(lat instanceof Number la) || !(lon instanceof Number lo)
          || Math.abs(la.doubleValue()) > 90 || Math.abs(lo.doubleValue()) > 180
          || Double.isNaN(la.doubleValue()) || Double.isNaN(lo.doubleValue())) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "place",
            "place.lat must be within -90..90 and place.lon within -180..180, both or neither");
      }
      out.put("lat", la.doubleValue()).put("lon", lo.doubleValue());
    }
    for (String f : p.fieldNames()) {
      if (!Set.of("name", "lat", "lon").contains(f)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "place." + f, "unknown field place." + f);
      }
    }
    return out;
  }

  /** An audience naming nobody. */
  static JsonObject emptyAudience() {
    return new JsonObject().put("users", new JsonArray()).put(GROUPS, new JsonArray()).put("tags", new JsonArray());
  }

  /** A stored audience as the API shows it to the author: {@code {users, circles, tags}}. */
  static JsonObject audienceView(JsonObject stored) {
    if (stored == null) {
      return null;
    }
    return new JsonObject().put("users", stored.getJsonArray("users", new JsonArray()))
        .put(CIRCLES, stored.getJsonArray(GROUPS, new JsonArray()))
        .put("tags", stored.getJsonArray("tags", new JsonArray()));
  }

  private static JsonObject audience(JsonObject b) {
    Object v = b.getValue("audience");
    if (v == null) {
      return emptyAudience();
    }
    if (!(v instanceof JsonObject a)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "audience",
          "audience must be an object {users, circles, tags}");
    }
    for (String f : a.fieldNames()) {
      if (!Set.of("users", CIRCLES, GROUPS, "tags").contains(f)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "audience." + f, "unknown field audience." + f);
      }
    }
    if (a.containsKey(CIRCLES) && a.containsKey(GROUPS)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "audience",
          "give audience.circles or the deprecated audience.groups, not both");
    }
    List<Long> users = ids(a, "users", MAX_AUDIENCE_USERS, true);
    List<Long> groups = ids(a, a.containsKey(GROUPS) ? GROUPS : CIRCLES, MAX_AUDIENCE_GROUPS, true);
    Object t = a.getValue("tags");
    Set<String> tags = new LinkedHashSet<>();
    if (t != null) {
      if (!(t instanceof JsonArray arr) || arr.size() > MAX_AUDIENCE_TAGS) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "audience.tags",
            "audience.tags must be a list of at most " + MAX_AUDIENCE_TAGS + " tag names");
      }
      for (Object tag : arr) {
        if (!(tag instanceof String s) || s.isBlank() || s.length() > 30) {
          throw Failures.field(KithErrors.VALIDATION_FAILED, "audience.tags", "a tag name is 1 to 30 characters");
        }
        tags.add(s.trim().toLowerCase(Locale.ROOT));
      }
    }
    return new JsonObject().put("users", new JsonArray(users)).put(GROUPS, new JsonArray(groups))
        .put("tags", new JsonArray(new ArrayList<>(tags)));
  }

  /** The positive ids of {@code field}, at most {@code max}; {@code merge}: a repeated id is kept once. */
  private static List<Long> ids(JsonObject b, String field, int max, boolean merge) {
    Object v = b.getValue(field);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof JsonArray arr)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a list of ids");
    }
    if (arr.size() > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, "at most " + max + " " + field);
    }
    Collection<Long> out = merge ? new LinkedHashSet<>() : new ArrayList<>();
    for (Object o : arr) {
      if (!(o instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() <= 0) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must hold positive integer ids");
      }
      out.add(n.longValue());
    }
    return List.copyOf(out);
  }

  /** A validation failure, for callers. */
  static ServiceException invalid(String field, String detail) {
    return Failures.field(KithErrors.VALIDATION_FAILED, field, detail);
  }
}
