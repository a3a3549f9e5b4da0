package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.page.VisiblePages;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static io.kith.accounts.service.Inputs.arrayField;

/**
 * Finding people: by exact username, by address-book entries (emails and phones, as each user's find-by settings
 * allow), and by nickname prefix. Users in a block with the searcher are never found.
 */
final class PeopleSearch {

  static final int MAX_CONTACTS = 500;
  /** Most accounts one page of a nickname search reads past users in a block with the searcher. */
  static final int MAX_SEARCH_SCAN = 1_000;
  private static final long HOUR = 3_600_000;

  private final AccountsSettings settings;
  private final AccountStore store;
  private final Quotas quotas;
  private final Throttles throttles;
  private final Relationships relationships;

  /** Most ids one batch user lookup ({@link #users}) takes. */
  static final int MAX_LOOKUP = 100;

  PeopleSearch(AccountsSettings settings, AccountStore store, Quotas quotas, Throttles throttles,
               Relationships relationships) {
    this.settings = settings;
    this.store = store;
    this.quotas = quotas;
    this.throttles = throttles;
    this.relationships = relationships;
  }

  Future<JsonObject> findByUsername(long actor, String username) {
    if (username == null || username.isBlank() || username.length() > 30) {
      return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
    }
    return throttles.perMinute("profile", actor, settings.profileReadsPerMinute(), "too many profile reads")
        .compose(v -> store.byAny("username_lc", List.of(username.trim().toLowerCase(Locale.ROOT))))
        .compose(found -> found.isEmpty() ? Failures.<JsonObject>fail(AccountsErrors.USER_NOT_FOUND, "no such user")
            : viewOf(actor, found.get(0)));
  }

  Future<JsonObject> users(long actor, List<Long> userIds) {
    if (userIds == null || userIds.isEmpty() || userIds.size() > MAX_LOOKUP) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "ids must name 1 to " + MAX_LOOKUP + " users");
    }
    List<Long> ids = userIds.stream().filter(Objects::nonNull).distinct().toList();
    // one call counts as one profile read: a screen's lookup replaces the reads it would have made one by one
    return throttles.perMinute("profile", actor, settings.profileReadsPerMinute(), "too many profile reads")
        .compose(v -> Future.all(store.byIds(ids), relationships.blockedEitherWay(actor, ids)))
        .map(all -> {
          Map<Long, JsonObject> byId = new HashMap<>();
          all.<List<JsonObject>>resultAt(0).forEach(account -> byId.put(account.getLong("_id"), account));
          Set<Long> blocked = all.resultAt(1);
          JsonArray items = new JsonArray();
          for (Long id : ids) {
            // across a block either way a user is absent exactly as a missing one is (as by username and search)
            if (byId.containsKey(id) && !blocked.contains(id)) {
              items.add(Profiles.summary(byId.get(id)));
            }
          }
          return new JsonObject().put("items", items);
        });
  }

  /** The account found by username as the actor sees it: missing across a block. */
  private Future<JsonObject> viewOf(long actor, JsonObject account) {
    long id = account.getLong("_id");
    if (id == actor) {
      return Future.succeededFuture(Profiles.ownView(account));
    }
    return relationships.blockedEitherWay(actor, List.of(id)).compose(blocked -> blocked.isEmpty()
        ? relationships.friendsAmong(actor, List.of(id)).map(f -> Profiles.publicView(account, f.contains(id)))
        : Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user"));
  }

  /** The address-book entries of a lookup, each by its lookup key (lower-cased email, normalised phone). */
  private record Contacts(Map<String, String> emails, Map<String, String> phones) {
  }

  Future<JsonObject> findByContacts(long actor, JsonObject request) {
    return Failures.guard(() -> {
      JsonObject req = request == null ? new JsonObject() : request;
      JsonArray emails = arrayField(req, "emails");
      JsonArray phones = arrayField(req, "phones");
      if (emails.size() + phones.size() > MAX_CONTACTS) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, emails.size() > phones.size() ? "emails" : "phones",
            "at most " + MAX_CONTACTS + " emails and phones in all per call");
      }
      Contacts contacts = contacts(emails, phones);
      long entries = emails.size() + phones.size();
      return contactsBudget(actor, entries)
          .compose(v -> Future.all(store.byAny("email_lc", contacts.emails().keySet()),
              store.byAny("phone", contacts.phones().keySet())))
          .compose(found -> findable(actor, contacts, found));
    });
  }

  private static Contacts contacts(JsonArray emails, JsonArray phones) {
    Map<String, String> emailKeys = new LinkedHashMap<>();
    for (Object e : emails) {
      if (e instanceof String && ((String) e).contains("@") && ((String) e).length() <= 254) {
        emailKeys.putIfAbsent(((String) e).trim().toLowerCase(Locale.ROOT), (String) e);
      }
    }
    Map<String, String> phoneKeys = new LinkedHashMap<>();
    for (Object p : phones) {
      String normal = p instanceof String && ((String) p).length() <= 40 ? Profiles.normalisePhone((String) p) : null;
      if (normal != null) {
        phoneKeys.putIfAbsent(normal, (String) p);
      }
    }
    return new Contacts(emailKeys, phoneKeys);
  }

  /** Takes {@code entries} from the actor's hourly address-book budget: rate_limited when they do not fit. */
  private Future<Void> contactsBudget(long actor, long entries) {
    Future<Long> budget = entries == 0 ? Future.succeededFuture(0L) : quotas.take("rl:accounts:contacts:" + actor,
        HOUR, settings.contactsLookupEntriesPerHour(), entries);
    return budget.compose(retryAfter -> retryAfter > 0
        ? Future.failedFuture(RateLimiter.refusal("too many address-book entries looked up this hour (at most "
            + settings.contactsLookupEntriesPerHour() + "); retry later or send fewer", retryAfter))
        : Future.succeededFuture());
  }

  /** The accounts found by email and by phone whose settings let the actor find them that way. */
  private Future<JsonObject> findable(long actor, Contacts contacts, CompositeFuture found) {
    List<JsonObject> byEmail = found.resultAt(0);
    List<JsonObject> byPhone = found.resultAt(1);
    Set<Long> ids = new HashSet<>();
    byEmail.forEach(a -> ids.add(a.getLong("_id")));
    byPhone.forEach(a -> ids.add(a.getLong("_id")));
    return Future.all(relationships.friendsAmong(actor, ids), relationships.blockedEitherWay(actor, ids))
        .map(rel -> {
          Set<Long> friends = rel.resultAt(0);
          Set<Long> blocked = rel.resultAt(1);
          JsonArray items = new JsonArray();
          for (JsonObject a : byEmail) {
            long id = a.getLong("_id");
            if (!blocked.contains(id) && (id == actor || Profiles.allows(
                Profiles.settingsOf(a).getString("find_by_email"), friends.contains(id)))) {
              items.add(new JsonObject().put("email", contacts.emails().get(a.getString("email_lc")))
                  .put("user", Profiles.summary(a)));
            }
          }
          for (JsonObject a : byPhone) {
            long id = a.getLong("_id");
            if (!blocked.contains(id) && (id == actor || Profiles.allows(
                Profiles.settingsOf(a).getString("find_by_phone"), friends.contains(id)))) {
              items.add(new JsonObject().put("phone", contacts.phones().get(a.getString("phone")))
                  .put("user", Profiles.summary(a)));
            }
          }
          return new JsonObject().put("items", items);
        });
  }

  Future<JsonObject> searchByNickname(long actor, String prefix, int limit, String after) {
    return Failures.guard(() -> {
      String p = prefix == null ? "" : prefix.strip().toLowerCase(Locale.ROOT);
      if (p.isEmpty() || p.length() > 40) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "prefix", "prefix must be 1 to 40 characters");
      }
      int n = Math.max(1, Math.min(50, limit));
      NicknameAt from = NicknameAt.decode(after);
      // the page is filled past users in a block with the searcher and its cursor is the last user shown: the cursor
      // decodes to a nickname and an id, so one at a left-out user would name them
      VisiblePages.Rows<JsonObject, NicknameAt> rows = (at, count) ->
          store.nicknamePrefix(p, at == null ? null : at.nickname(), at == null ? null : at.id(), count);
      return throttles.perMinute("nickname", actor, settings.nicknameSearchesPerMinute(), "too many nickname searches")
          .compose(v -> VisiblePages.read(rows, batch -> shownAccounts(actor, batch), NicknameAt::of, NicknameAt::of,
              from, n, MAX_SEARCH_SCAN))
          .map(page -> {
            JsonArray items = new JsonArray();
            page.items().forEach(a -> items.add(Profiles.summary(a)));
            String next = page.next() == null ? null : page.next().encode();
            return new JsonObject().put("items", items).put("next", next);
          });
    });
  }

  /** A place in the nickname order: the lower-cased nickname, then the id. */
  private record NicknameAt(String nickname, long id) {
    static NicknameAt of(JsonObject account) {
      return new NicknameAt(account.getString("nickname_lc"), account.getLong("_id"));
    }

    /** The place a cursor of a previous page names (null for none); validation_failed on anything else. */
    static NicknameAt decode(String after) {
      if (after == null || after.isEmpty()) {
        return null;
      }
      String afterNick;
      Long afterId;
      try {
        JsonArray cursor = new JsonArray(new String(Base64.getUrlDecoder().decode(after), StandardCharsets.UTF_8));
        afterNick = cursor.getString(0);
        afterId = cursor.getLong(1);
        if (afterNick == null || afterId == null) {
          throw new IllegalArgumentException();
        }
      } catch (RuntimeException e) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "after", "after must be a cursor from a previous page");
      }
      return new NicknameAt(afterNick, afterId);
    }

    String encode() {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(
          new JsonArray().add(nickname).add(id).encode().getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The accounts of a batch that are in no block with the viewer and not limited, in the batch's order. */
  private Future<List<JsonObject>> shownAccounts(long viewer, List<JsonObject> batch) {
    List<Long> ids = batch.stream().map(a -> a.getLong("_id")).toList();
    return relationships.blockedEitherWay(viewer, ids)
        .map(blocked -> batch.stream().filter(a -> !blocked.contains(a.getLong("_id")) && !Suspension.active(a)
            && !Limits.active(a))
            .toList());
  }
}
