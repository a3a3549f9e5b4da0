package io.kith.platform.page;

import io.vertx.codegen.annotations.DataObject;
import io.vertx.core.json.JsonObject;

import java.util.Objects;

/**
 * Which page of a list a caller asks for: the one request type every list method of every service takes, beside
 * the list's own filters.
 *
 * <p>It carries the three ways Kith lists page: by id ({@code max_id}: older than, {@code since_id}: newer than),
 * by an opaque {@code cursor} a previous page returned, and a {@code limit}. A list reads the members it pages by
 * and ignores the others. A member not given is "none": ids are 0, the cursor and the limit null (the list then
 * uses its default limit). Bounds are checked by the service that owns the list, with its own error codes, as
 * before: this type only carries the values.
 */
@DataObject
public class PageRequest {

  /** The limit of a list whose request gives none (the HTTP operations' default as well). */
  public static final int DEFAULT_LIMIT = 20;

  private final Integer limit;
  private final long maxId;
  private final long sinceId;
  private final String cursor;

  /**
   * A request.
   *
   * @param limit   most items, or null for the list's default
   * @param maxId   items older than this id, 0 for none
   * @param sinceId items newer than this id, 0 for none
   * @param cursor  the cursor a previous page returned, or null for the first page
   */
  public PageRequest(Integer limit, long maxId, long sinceId, String cursor) {
    this.limit = limit;
    this.maxId = maxId;
    this.sinceId = sinceId;
    this.cursor = cursor;
  }

  /** A request read from its {@link #toJson()} form (members {@code limit, max_id, since_id, cursor}). */
  public PageRequest(JsonObject json) {
    this(json.getInteger("limit"), json.getLong("max_id", 0L), json.getLong("since_id", 0L),
        json.getString("cursor"));
  }

  /** The first page of a list paged by cursor. */
  public static PageRequest first(int limit) {
    return new PageRequest(limit, 0, 0, null);
  }

  /** A page of a list paged by cursor: up to {@code limit} items after {@code cursor} (null: the first page). */
  public static PageRequest after(String cursor, int limit) {
    return new PageRequest(limit, 0, 0, cursor);
  }

  /**
   * A page of a list paged by id: up to {@code limit} items older than {@code maxId} and newer than {@code sinceId}
   * (0: no bound).
   */
  public static PageRequest ids(long maxId, long sinceId, int limit) {
    return new PageRequest(limit, maxId, sinceId, null);
  }

  /** Most items, or null for the list's default. */
  public Integer limit() {
    return limit;
  }

  /** Most items, or {@code fallback} when the request leaves it to the list. */
  public int limitOr(int fallback) {
    return limit == null ? fallback : limit;
  }

  /** Most items, or {@link #DEFAULT_LIMIT} when the request leaves it to the list. */
  public int limitOrDefault() {
    return limitOr(DEFAULT_LIMIT);
  }

  /** Items older than this id; 0 for none. */
  public long maxId() {
    return maxId;
  }

  /** Items newer than this id; 0 for none. */
  public long sinceId() {
    return sinceId;
  }

  /** The cursor of a previous page, or null for the first page. */
  public String cursor() {
    return cursor;
  }

  /** The request as JSON, members that are "none" left out. */
  public JsonObject toJson() {
    JsonObject json = new JsonObject();
    if (limit != null) {
      json.put("limit", limit);
    }
    if (maxId != 0) {
      json.put("max_id", maxId);
    }
    if (sinceId != 0) {
      json.put("since_id", sinceId);
    }
    if (cursor != null) {
      json.put("cursor", cursor);
    }
    return json;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PageRequest r && Objects.equals(limit, r.limit) && maxId == r.maxId && sinceId == r.sinceId
        && Objects.equals(cursor, r.cursor);
  }

  @Override
  public int hashCode() {
    return Objects.hash(limit, maxId, sinceId, cursor);
  }

  @Override
  public String toString() {
    return "PageRequest" + toJson().encode();
  }
}
