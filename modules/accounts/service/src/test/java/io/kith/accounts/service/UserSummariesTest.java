package io.kith.accounts.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.api.UserSummaries;
import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.testkit.Await;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The accounts-API helper every domain uses to put user summaries on a list, called through the service proxy. */
@DisplayName("User summaries attached to a list (UserSummaries)")
class UserSummariesTest extends AccountsTestBase {

  /** Ids no account has: far above any id the generator gives in a test run. */
  private static List<Long> unknownIds(int count) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add((1L << 52) + i);
    }
    return ids;
  }

  @Test
  @DisplayName("more ids than one summaries call takes are asked in batches: known users are found wherever they stand")
  void batchesPastTheServiceLimit() throws Exception {
    long viewer = newUser();
    long first = newUser();
    long last = newUser();
    List<Long> ids = new ArrayList<>();
    ids.add(first);
    ids.addAll(unknownIds(UserSummaries.BATCH + 200));
    ids.add(last);
    ids.add(first); // asked twice: answered once

    // the service alone refuses the list: the helper is what makes it answerable
    failsWithField("validation_failed", "ids", accounts.summaries(viewer, ids));
    JsonObject found = await(UserSummaries.lookup(accounts, viewer, ids));

    assertEquals(2, found.size(), found.fieldNames().toString());
    assertEquals(first, found.getJsonObject(Long.toString(first)).getLong("id"));
    assertEquals(last, found.getJsonObject(Long.toString(last)).getLong("id"));
    assertFalse(found.getJsonObject(Long.toString(last)).getString("username").isEmpty());
  }

  @Test
  @DisplayName("attach puts each item's user summary under the key, {id} alone for an unknown user, and leaves an "
      + "item without the id as it was")
  void attachToItems() throws Exception {
    long viewer = newUser();
    long author = newUser();
    long gone = unknownIds(1).get(0);
    JsonObject byAuthor = new JsonObject().put("id", 1).put("author", author);
    JsonObject byGone = new JsonObject().put("id", 2).put("author", gone);
    JsonObject noAuthor = new JsonObject().put("id", 3);
    List<JsonObject> items = Arrays.asList(byAuthor, byGone, noAuthor, null);

    List<JsonObject> out = await(UserSummaries.attach(accounts, viewer, items, "author", "author_summary"));

    assertSame(items, out, "the items are filled in place");
    JsonObject summary = byAuthor.getJsonObject("author_summary");
    assertEquals(author, summary.getLong("id"));
    assertEquals(await(accounts.summaries(viewer, List.of(author))).getJsonObject(Long.toString(author)), summary,
        "the summary accounts gives this viewer");
    assertEquals(new JsonObject().put("id", gone), byGone.getJsonObject("author_summary"));
    assertEquals(new JsonObject().put("id", 3), noAuthor);
  }

  @Test
  @DisplayName("a list that names nobody asks accounts nothing: it is answered even when no node serves accounts")
  void noIdsNoCall() throws Exception {
    AccountsService nobody = ServiceProxies.proxy(vertx, AccountsService.class,
        "kith.accounts.nowhere." + newUsername());
    List<Long> none = new ArrayList<>();
    none.add(null);

    assertEquals(new JsonObject(), await(UserSummaries.lookup(nobody, 1, none)));
    JsonObject item = new JsonObject().put("id", 1);
    await(UserSummaries.attach(nobody, 1, List.of(item), "author", "author_summary"));
    assertEquals(new JsonObject().put("id", 1), item);
    // the same proxy does fail when it has to call: the answers above were made without asking
    Await.failure(nobody.summaries(1, List.of(2L)));
  }
}
