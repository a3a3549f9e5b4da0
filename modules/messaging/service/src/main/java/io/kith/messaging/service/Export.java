package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.api.UserSummaries;
import io.kith.platform.events.Exports;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The messaging part of an account export ({@link Exports}, served at {@code kith.export.messaging}): the files
 * {@code conversations.json} (the user's conversations as their list shows them), {@code messages.json} (what they
 * sent anywhere and every message of the conversations they are in, as history shows them), {@code groups.json} (the
 * groups they are in, with their role) and {@code whiteboards.json} (the boards they own or are an ad-hoc member of),
 * in that order. Each file is read in pages by {@code _id} after the last one sent; the cursor is
 * {@code "<file index>:<last _id>"}.
 */
final class Export implements Exports.Source {

  private static final List<String> FILES =
      List.of("conversations.json", "messages.json", "groups.json", "whiteboards.json");

  private final AccountDataStore store;
  private final GroupStore groups;
  private final MessagingServiceImpl service;
  private final AccountsService accounts;
  private final int pageSize;

  /** An export source answering pages of at most {@code pageSize} records (at most {@link Exports#MAX_RECORDS}). */
  Export(AccountDataStore store, GroupStore groups, MessagingServiceImpl service, AccountsService accounts,
         int pageSize) {
    this.store = store;
    this.groups = groups;
    this.service = service;
    this.accounts = accounts;
    this.pageSize = Math.min(pageSize, Exports.MAX_RECORDS);
  }

  /** What one file's page found: its records, how many documents it read, and the last one's id. */
  private record Found(List<Exports.Record> records, int read, String last) {
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    if (cursor == null) {
      return page(user, 0, null);
    }
    int colon = cursor.indexOf(':');
    int file = colon > 0 ? Integer.parseInt(cursor.substring(0, colon)) : -1;
    if (file < 0 || file >= FILES.size()) {
      return Future.failedFuture(new IllegalArgumentException("not a messaging export cursor: " + cursor));
    }
    String after = cursor.substring(colon + 1);
    return page(user, file, after.isEmpty() ? null : after);
  }

  /** The page of file {@code file} after {@code after}; a file with nothing (more) gives way to the next one. */
  private Future<Exports.Page> page(long user, int file, String after) {
    if (file >= FILES.size()) {
      return Future.succeededFuture(new Exports.Page(List.of(), null));
    }
    return read(user, file, after).compose(found -> {
      if (found.read() == 0) {
        return page(user, file + 1, null);
      }
      String next = found.read() == pageSize ? file + ":" + found.last()
          : file + 1 < FILES.size() ? (file + 1) + ":" : null;
      return Future.succeededFuture(new Exports.Page(found.records(), next));
    });
  }

  private Future<Found> read(long user, int file, String after) {
    return switch (file) {
      case 0 -> conversations(user, after);
      case 1 -> messages(user, after == null ? null : Long.parseLong(after));
      case 2 -> groups(user, after == null ? null : Long.parseLong(after));
      default -> boards(user, after == null ? null : Long.parseLong(after));
    };
  }

  private Future<Found> conversations(long user, String after) {
    return store.memberDocs(user, after, pageSize).compose(docs -> service.conversationViews(user, docs)
        .map(views -> found(0, views, docs, docs.isEmpty() ? null : docs.get(docs.size() - 1).getString("_id"))));
  }

  private Future<Found> messages(long user, Long after) {
    return store.conversationsOf(user).compose(mine -> store.messages(user, mine, after, pageSize))
        .compose(docs -> UserSummaries.attach(accounts, user, Conversations.views(docs), "sender", "sender_summary")
            .map(views -> found(1, views, docs, lastId(docs))));
  }

  private Future<Found> groups(long user, Long after) {
    return store.groupDocs(user, after, pageSize).compose(docs -> groups.memberships(user,
        docs.stream().map(d -> d.getLong("_id")).toList()).map(members -> {
          Map<Long, JsonObject> byGroup = new HashMap<>();
          members.forEach(m -> byGroup.put(m.getLong("conversation"), m));
          List<JsonObject> views = new ArrayList<>();
          docs.forEach(d -> views.add(service.groupView(d, byGroup.get(d.getLong("_id")), user)));
          return found(2, views, docs, lastId(docs));
        }));
  }

  private Future<Found> boards(long user, Long after) {
    return store.boards(user, after, pageSize).map(docs -> found(3, docs.stream().map(WhiteboardServiceImpl::view)
        .toList(), docs, lastId(docs)));
  }

  private static Found found(int file, List<JsonObject> items, List<JsonObject> docs, String last) {
    List<Exports.Record> records = new ArrayList<>(items.size());
    items.forEach(item -> records.add(new Exports.Record(FILES.get(file), item)));
    return new Found(records, docs.size(), last);
  }

  private static String lastId(List<JsonObject> docs) {
    return docs.isEmpty() ? null : Long.toString(docs.get(docs.size() - 1).getLong("_id"));
  }
}
