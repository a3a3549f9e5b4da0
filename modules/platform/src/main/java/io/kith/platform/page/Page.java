package io.kith.platform.page;

import io.vertx.codegen.annotations.DataObject;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One page of a list: the one result type every list method of every service returns.
 *
 * <p>A page is its items, under the member name the list has always used ({@code items}, {@code posts},
 * {@code users}...), and the members that come with them, in the order the list puts them: the cursor to the next
 * page under the list's name for it ({@code next_max_id}, {@code newest_id}, {@code next_cursor}, {@code next},
 * {@code total}...), and any extra members of that list. {@link #toJson()} is that body as the service built it.
 *
 * <p>Clients see every list in one shape, {@link #toApiJson()}: the items under {@code items} and the cursor to the
 * next page under {@link #NEXT_CURSOR}, always an opaque string or null, whatever the list's own cursor member is
 * (the services keep theirs: an id, an offset or a string).
 *
 * <p>In {@link #toJson()} the items come first; the {@link #Page(JsonObject) JsonObject constructor} (how a page
 * crosses the event bus) takes the first member as the items, which JSON encoding and decoding keep in place.
 */
@DataObject
public class Page {

  /** The member of {@link #toApiJson()} that holds the cursor to the next page: a string, or null on the last page. */
  public static final String NEXT_CURSOR = "next_cursor";

  /**
   * The members by which the services' lists give their cursor to the next page, whatever its type; one page has at
   * most one of them.
   */
  static final List<String> CURSOR_MEMBERS = List.of(NEXT_CURSOR, "next", "next_max_id", "next_offset");

  private final String itemsKey;
  private final JsonArray items;
  private final JsonObject members;

  private Page(String itemsKey, JsonArray items, JsonObject members) {
    this.itemsKey = Objects.requireNonNull(itemsKey, "itemsKey");
    this.items = Objects.requireNonNull(items, "items");
    this.members = members;
  }

  /**
   * A page read from its {@link #toJson()} form: the first member is the items (an array), the others are the
   * page's cursor and extra members.
   *
   * @throws IllegalArgumentException if the first member is not an array
   */
  public Page(JsonObject json) {
    this(firstKey(json), json.getJsonArray(firstKey(json)), rest(json));
  }

  /** A page of {@code items} under {@code itemsKey}, with no other member yet. */
  public static Page of(String itemsKey, JsonArray items) {
    return new Page(itemsKey, items, new JsonObject());
  }

  /**
   * The page a list built as JSON: {@code body}'s member {@code itemsKey} is the items, its other members (in their
   * order) the cursor and extra members. {@code body} is not copied.
   *
   * @throws IllegalArgumentException if {@code body} has no array under {@code itemsKey}
   */
  public static Page of(String itemsKey, JsonObject body) {
    if (!(body.getValue(itemsKey) instanceof JsonArray items)) {
      throw new IllegalArgumentException("a page has an array under " + itemsKey);
    }
    JsonObject members = new JsonObject();
    for (Map.Entry<String, Object> member : body) {
      if (!member.getKey().equals(itemsKey)) {
        members.put(member.getKey(), member.getValue());
      }
    }
    return new Page(itemsKey, items, members);
  }

  /** Adds (or replaces) a cursor or extra member; a null value is kept and sent as JSON null. */
  public Page with(String name, Object value) {
    if (name.equals(itemsKey)) {
      throw new IllegalArgumentException(name + " holds the items");
    }
    members.put(name, value);
    return this;
  }

  /** The member name of the items. */
  public String itemsKey() {
    return itemsKey;
  }

  /** The items, in the list's order. */
  public JsonArray items() {
    return items;
  }

  /** The page's members besides the items: its cursor and extra members. */
  public JsonObject members() {
    return members;
  }

  /** The {@code next_max_id} member (the id-paged lists' cursor to older items), or null. */
  public Long nextMaxId() {
    return members.getLong("next_max_id");
  }

  /** The {@code newest_id} member (the id-paged lists' cursor to newer items), or null. */
  public Long newestId() {
    return members.getLong("newest_id");
  }

  /** The {@code next_cursor} member (the cursor-paged lists' cursor to the next page), or null. */
  public String nextCursor() {
    return members.getString("next_cursor");
  }

  /** The {@code total} member, or null when the list does not count. */
  public Long total() {
    return members.getLong("total");
  }

  /** The page as the list's HTTP body: the items first, then the other members in their order. */
  public JsonObject toJson() {
    JsonObject json = new JsonObject().put(itemsKey, items);
    members.forEach(member -> json.put(member.getKey(), member.getValue()));
    return json;
  }

  /**
   * The page as every list's HTTP body: {@code items}, then {@link #NEXT_CURSOR} (the list's cursor member as a
   * string, or null), then the list's other members in their order. A list that pages by position rather than by
   * cursor (it has no cursor member) keeps its members as they are and gets no {@link #NEXT_CURSOR}.
   */
  public JsonObject toApiJson() {
    JsonObject json = new JsonObject().put("items", items);
    String cursorMember = CURSOR_MEMBERS.stream().filter(members::containsKey).findFirst().orElse(null);
    if (cursorMember != null) {
      Object next = members.getValue(cursorMember);
      json.put(NEXT_CURSOR, next == null ? null : String.valueOf(next));
    }
    members.forEach(member -> {
      if (!member.getKey().equals(cursorMember)) {
        json.put(member.getKey(), member.getValue());
      }
    });
    return json;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Page p && toJson().equals(p.toJson());
  }

  @Override
  public int hashCode() {
    return toJson().hashCode();
  }

  @Override
  public String toString() {
    return "Page" + toJson().encode();
  }

  private static String firstKey(JsonObject json) {
    if (json.isEmpty() || !(json.getValue(json.fieldNames().iterator().next()) instanceof JsonArray)) {
      throw new IllegalArgumentException("a page's first member is its items, an array");
    }
    return json.fieldNames().iterator().next();
  }

  private static JsonObject rest(JsonObject json) {
    JsonObject rest = new JsonObject();
    String first = firstKey(json);
    json.forEach(member -> {
      if (!member.getKey().equals(first)) {
        rest.put(member.getKey(), member.getValue());
      }
    });
    return rest;
  }
}
