package io.kith.moderation.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.moderation.api.Moderation;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.serviceproxy.ServiceException;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What operators see at a glance: one user's moderation record (role, sanctions, reports against and by them) and the
 * desk's summary (open reports by category, open appeals, actions per day). Moderators and admins only.
 */
final class Overview {

  /** Days the summary counts actions over. */
  static final int DAYS = 14;
  /** The most audit entries the summary reads (a busier fortnight is reported as capped). */
  static final int MAX_ENTRIES = 20_000;
  private static final int SANCTIONS_SHOWN = 20;

  private final MongoClient mongo;
  private final Roles roles;
  private final AccountsService accounts;
  private final AccountsInternal accountsInternal;

  Overview(MongoClient mongo, Roles roles, AccountsService accounts, AccountsInternal accountsInternal) {
    this.mongo = mongo;
    this.roles = roles;
    this.accounts = accounts;
    this.accountsInternal = accountsInternal;
  }

  /**
   * {@code userId}'s record: {@code {user_id, role, state, state_until, profile, sanctions, reports_against,
   * open_reports_against, reports_filed}}; {@code profile} is the account as the operator may see it, null when hidden
   * (a suspended account is hidden from everyone) or gone; {@code state} says which ({@code active}, {@code limited},
   * {@code suspended}, {@code pending_deletion}, or {@code gone} for an erased or unknown account).
   */
  Future<JsonObject> user(long actor, long userId) {
    return roles.require(actor, Moderation.MODERATOR).compose(r -> {
      Future<String> role = roles.of(userId);
      Future<JsonObject> profile = accounts.profile(actor, userId).otherwise(e -> null);
      // only a missing account is gone: an accounts service that cannot answer fails the record instead
      Future<JsonObject> state = accountsInternal.accountState(userId).recover(e -> e instanceof ServiceException se
          && se.failureCode() == 404 ? Future.succeededFuture(new JsonObject().put("state", "gone").putNull("until"))
          : Future.failedFuture(e));
      Future<List<JsonObject>> sanctions = mongo.findWithOptions(SanctionStore.COLLECTION,
          new JsonObject().put("user", userId), new FindOptions().setSort(new JsonObject().put("_id", -1))
              .setLimit(SANCTIONS_SHOWN));
      Future<Long> against = mongo.count(ReportStore.COLLECTION, new JsonObject().put("target_owner", userId));
      Future<Long> openAgainst = mongo.count(ReportStore.COLLECTION, new JsonObject().put("target_owner", userId)
          .put("state", Moderation.OPEN));
      Future<Long> filed = mongo.count(ReportStore.COLLECTION, new JsonObject().put("reporter", userId));
      return Future.all(List.of(role, profile, state, sanctions, against, openAgainst, filed)).map(all -> {
        JsonArray shown = new JsonArray();
        sanctions.result().forEach(s -> shown.add(SanctionStore.view(s)));
        return new JsonObject().put("user_id", userId).put("role", role.result())
            .put("state", state.result().getString("state")).put("state_until", state.result().getValue("until"))
            .put("profile", profile.result())
            .put("sanctions", shown).put("reports_against", against.result())
            .put("open_reports_against", openAgainst.result()).put("reports_filed", filed.result());
      });
    });
  }

  /**
   * The user named {@code username}'s record, or {@code user_not_found}. The account is looked up as operators need
   * it, not as the caller would see it as a user: suspended, limited and pending-deletion accounts are the ones an
   * operator looks for, and a user's lookup hides the first and last.
   */
  Future<JsonObject> byUsername(long actor, String username) {
    return roles.require(actor, Moderation.MODERATOR)
        .compose(r -> accountsInternal.idOfUsername(username))
        .compose(id -> user(actor, id));
  }

  /**
   * The desk's summary: {@code {open_reports, open_reports_by_category, open_appeals, actions: [{day, count}]}} with
   * one entry per UTC day of the last {@value #DAYS} days, oldest first, and {@code actions_capped} when more audit
   * entries than {@value #MAX_ENTRIES} were written in them.
   */
  Future<JsonObject> summary(long actor) {
    return roles.require(actor, Moderation.MODERATOR).compose(r -> {
      Instant today = Instant.now().truncatedTo(ChronoUnit.DAYS);
      long since = today.minus(DAYS - 1L, ChronoUnit.DAYS).toEpochMilli();
      Future<Long> open = mongo.count(ReportStore.COLLECTION, new JsonObject().put("state", Moderation.OPEN));
      Future<Long> appeals = mongo.count(AppealStore.COLLECTION, new JsonObject().put("state", "open"));
      Future<List<JsonObject>> byCategory = aggregate(new JsonArray()
          .add(new JsonObject().put("$match", new JsonObject().put("state", Moderation.OPEN)))
          .add(new JsonObject().put("$group", new JsonObject().put("_id", "$category")
              .put("n", new JsonObject().put("$sum", 1)))));
      Future<List<JsonObject>> entries = mongo.findWithOptions(AuditLog.COLLECTION,
          new JsonObject().put("at", new JsonObject().put("$gte", since)),
          new FindOptions().setFields(new JsonObject().put("at", 1)).setLimit(MAX_ENTRIES + 1));
      return Future.all(open, appeals, byCategory, entries).map(all -> {
        JsonObject categories = new JsonObject();
        for (String c : Moderation.CATEGORIES) {
          categories.put(c, 0L);
        }
        byCategory.result().forEach(g -> categories.put(g.getString("_id"), g.getLong("n")));
        Map<String, Long> days = new TreeMap<>();
        for (int d = 0; d < DAYS; d++) {
          days.put(day(today.minus(d, ChronoUnit.DAYS).toEpochMilli()), 0L);
        }
        List<JsonObject> read = entries.result();
        for (JsonObject e : read.subList(0, Math.min(read.size(), MAX_ENTRIES))) {
          days.computeIfPresent(day(e.getLong("at")), (k, n) -> n + 1);
        }
        JsonArray actions = new JsonArray();
        days.forEach((day, n) -> actions.add(new JsonObject().put("day", day).put("count", n)));
        return new JsonObject().put("open_reports", open.result()).put("open_reports_by_category", categories)
            .put("open_appeals", appeals.result()).put("actions", actions)
            .put("actions_capped", read.size() > MAX_ENTRIES);
      });
    });
  }

  private static String day(long at) {
    return Instant.ofEpochMilli(at).atZone(ZoneOffset.UTC).toLocalDate().toString();
  }

  private Future<List<JsonObject>> aggregate(JsonArray pipeline) {
    List<JsonObject> out = new ArrayList<>();
    Promise<List<JsonObject>> done = Promise.promise();
    mongo.aggregate(ReportStore.COLLECTION, pipeline).handler(out::add).exceptionHandler(done::tryFail)
        .endHandler(v -> done.tryComplete(out));
    return done.future();
  }
}
