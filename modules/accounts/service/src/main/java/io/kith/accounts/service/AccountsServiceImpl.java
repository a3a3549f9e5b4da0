package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsService;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.text.UserText;
import io.kith.platform.page.VisiblePages;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The accounts service: every rule of the domain, decided from the acting user's id. */
final class AccountsServiceImpl implements AccountsService {

  private static final Logger LOG = LoggerFactory.getLogger(AccountsServiceImpl.class);
  static final int MAX_CONTACTS = 500;
  static final int MAX_IDS = 1000;
  static final int MAX_NEARBY_OFFSET = 1000;
  /** How far a nearby search may start from the searcher's own reported position. */
  static final double MAX_SEARCH_ORIGIN_KM = 2.0;
  /** Users whose offline-to-online work of a heartbeat is done together (see {@link #connectionsAlive}). */
  static final int TRANSITION_BATCH = 250;
  private static final long MINUTE = 60_000;
  private static final long HOUR = 3_600_000;

  private final Platform platform;
  private final AccountsSettings settings;
  private final AccountStore store;
  private final ProfileCache cache;
  private final Passwords passwords;
  private final PresenceStore presence;
  private final NearbyStore nearby;
  private final RateLimiter limiter;
  private final Quotas quotas;
  private final Relationships relationships;

  AccountsServiceImpl(Platform platform, AccountsSettings settings, AccountStore store, ProfileCache cache,
                      Passwords passwords, PresenceStore presence, NearbyStore nearby, Relationships relationships) {
    this.platform = platform;
    this.settings = settings;
    this.store = store;
    this.cache = cache;
    this.passwords = passwords;
    this.presence = presence;
    this.nearby = nearby;
    this.limiter = new RateLimiter(platform.redis());
    this.quotas = new Quotas(platform.redis());
    this.relationships = relationships;
  }


  // ---------------------------------------------------------------- registration and login

  @Override
  public Future<JsonObject> register(JsonObject request, String clientAddress) {
    return Failures.guard(() -> {
      JsonObject req = request == null ? new JsonObject() : request;
      String username = Profiles.username(stringField(req, "username"));
      String password = stringField(req, "password");
      String violation = passwords.policyViolation(password, username);
      if (violation != null) {
        return Failures.failField(AccountsErrors.WEAK_PASSWORD, "password", violation);
      }
      String email = req.getValue("email") == null ? null : Profiles.email(stringField(req, "email"), "email");
      String phone = req.getValue("phone") == null ? null : Profiles.phone(stringField(req, "phone"), "phone");
      String device = optionalText(req, "device", 100);
      long now = System.currentTimeMillis();
      JsonObject account = new JsonObject()
          .put("username", username)
          .put("username_lc", username.toLowerCase(Locale.ROOT))
          .put("nickname", username)
          .put("nickname_lc", username.toLowerCase(Locale.ROOT))
          .put("created", now)
          .put("last_active", now)
          .put("role", "user")
          .put("settings", Profiles.DEFAULT_SETTINGS.copy());
      if (email != null) {
        account.put("email", email).put("email_lc", email);
      }
      if (phone != null) {
        account.put("phone", phone);
      }
      return limiter.hit("rl:accounts:register:" + address(clientAddress), settings.registerWindowSeconds() * 1000L)
          .compose(window -> window.count() > settings.registerMaxPerAddress()
              ? Future.failedFuture(Failures.withExtra(AccountsErrors.REGISTRATION_THROTTLED,
                  "too many registrations from this address; retry later",
                  new JsonObject().put("retry_after", window.retryAfterSeconds())))
              : store.findConflict(account, null))
          .compose(conflict -> conflict != null ? Future.failedFuture(conflict) : passwords.hash(password))
          .compose(hash -> {
            long id = platform.ids().next();
            account.put("_id", id).put("password", hash);
            return store.insert(account).map(v -> id);
          })
          .compose(id -> {
            account.remove("password");
            emit(AccountsEvents.USER_REGISTERED, new JsonObject().put("user_id", id).put("username", username));
            return platform.sessions().open(id, device)
                .map(tokens -> new JsonObject().put("user", Profiles.ownView(account)).put("tokens", tokens.toJson()));
          });
    });
  }

  @Override
  public Future<JsonObject> login(JsonObject request, String clientAddress) {
    return Failures.guard(() -> {
      JsonObject req = request == null ? new JsonObject() : request;
      String login = stringField(req, "login").trim();
      String password = stringField(req, "password");
      String device = optionalText(req, "device", 100);
      if (login.isEmpty() || login.length() > 254 || password.length() > Passwords.MAX_LENGTH) {
        return Failures.fail(AccountsErrors.INVALID_CREDENTIALS, "wrong login or password");
      }
      String[] key = loginKey(login);
      String addressKey = "rl:accounts:login-fail:addr:" + address(clientAddress);
      long windowMillis = settings.loginWindowSeconds() * 1000L;
      return store.forLogin(key[0], key[1]).compose(account -> {
        Long id = account == null ? null : account.getLong("_id");
        String accountKey = "rl:accounts:login-fail:acct:" + (id != null ? id : key[0] + ":" + key[1]);
        // the attempt is counted before the password is checked, so parallel guesses cannot all pass the check;
        // the address first, so that a throttled address cannot drive accounts' counters up
        String throttled = "too many failed logins; retry later";
        return countAttempt(addressKey, settings.loginMaxFailuresPerAddress(), windowMillis, throttled)
            .compose(v -> countAttempt(accountKey, settings.loginMaxFailuresPerAccount(), windowMillis, throttled))
            .compose(v -> passwords.verify(password, account == null ? null : account.getString("password"))
                // not checked (busy, a failure): the attempt does not count
                .recover(e -> quotas.giveBack(addressKey).compose(x -> quotas.giveBack(accountKey))
                    .transform(x -> Future.failedFuture(e))))
            .compose(ok -> {
              if (!ok) {
                return Failures.fail(AccountsErrors.INVALID_CREDENTIALS, "wrong login or password");
              }
              long userId = id;
              upgradeHash(userId, password, account.getString("password"));
              // a success clears the account's failures and does not count against the address
              return limiter.reset(accountKey)
                  .compose(v -> quotas.giveBack(addressKey))
                  .compose(v -> touched(userId))
                  .compose(v -> platform.sessions().open(userId, device))
                  .map(tokens -> tokens.toJson());
            });
      });
    });
  }

  /**
   * After a successful login, replaces a hash made at another Argon2id cost with one at the current cost, in the
   * background (the login does not wait), unless the password changed meanwhile. Hashes thus follow the configured
   * cost, and verifying an existing account costs what checking the dummy hash of an unknown one costs.
   */
  private void upgradeHash(long userId, String password, String stored) {
    if (!passwords.outdated(stored)) {
      return;
    }
    passwords.hash(password).compose(fresh -> store.rehash(userId, stored, fresh))
        .onFailure(e -> LOG.warn("Could not rehash the password of {} at the current cost: {}", userId, e.toString()));
  }

  /**
   * Counts one password attempt in {@code key}'s window, refusing it with 429 {@code login_throttled} when the count
   * passes {@code max}. Attempts are counted before verification and stay counted when the password is wrong.
   */
  private Future<Void> countAttempt(String key, int max, long windowMillis, String detail) {
    return limiter.hit(key, windowMillis).compose(window -> window.count() > max
        ? Future.failedFuture(Failures.withExtra(AccountsErrors.LOGIN_THROTTLED, detail,
            new JsonObject().put("retry_after", window.retryAfterSeconds())))
        : Future.succeededFuture());
  }

  /** Moves the user's last_active to now and puts the written account in the cache; returns it (null if none). */
  private Future<JsonObject> touched(long userId) {
    return store.touchLastActive(userId, System.currentTimeMillis())
        .compose(doc -> doc == null ? Future.succeededFuture() : cache.put(doc).map(doc));
  }

  /** Which stored key a login identifier is looked up by: email, phone or username. */
  static String[] loginKey(String login) {
    if (login.contains("@")) {
      return new String[] {"email_lc", login.toLowerCase(Locale.ROOT)};
    }
    char first = login.charAt(0);
    String phone = Profiles.normalisePhone(login);
    if (phone != null && (first == '+' || Character.isDigit(first))) {
      return new String[] {"phone", phone};
    }
    return new String[] {"username_lc", login.toLowerCase(Locale.ROOT)};
  }

  @Override
  public Future<Void> changePassword(long actor, String currentPassword, String newPassword) {
    String accountKey = "rl:accounts:login-fail:acct:" + actor;
    return store.byId(actor).compose(account -> {
      if (account == null) {
        return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
      }
      String violation = passwords.policyViolation(newPassword, account.getString("username"));
      if (violation != null) {
        return Failures.failField(AccountsErrors.WEAK_PASSWORD, "new_password", violation);
      }
      if (currentPassword == null || currentPassword.length() > Passwords.MAX_LENGTH) {
        return Failures.failField(AccountsErrors.INVALID_CREDENTIALS, "current_password", "the current password is wrong");
      }
      return countAttempt(accountKey, settings.loginMaxFailuresPerAccount(), settings.loginWindowSeconds() * 1000L,
              "too many wrong passwords; retry later")
          .compose(v -> store.passwordOf(actor).compose(hash -> passwords.verify(currentPassword, hash))
              .recover(e -> quotas.giveBack(accountKey).transform(x -> Future.failedFuture(e))))
          .compose(ok -> {
            if (!ok) {
              return Failures.failField(AccountsErrors.INVALID_CREDENTIALS, "current_password",
                  "the current password is wrong");
            }
            return limiter.reset(accountKey)
                .compose(v -> passwords.hash(newPassword))
                .compose(hash -> store.setPassword(actor, hash))
                .compose(v -> platform.sessions().revokeAll(actor));
          });
    });
  }

  // ---------------------------------------------------------------- profiles

  @Override
  public Future<JsonObject> profile(long actor, long userId) {
    // reading one's own profile is not counted; the count runs beside the read, not before it
    Future<Void> allowed = actor == userId ? Future.succeededFuture()
        : perMinute("profile", actor, settings.profileReadsPerMinute(), "too many profile reads");
    return Future.all(allowed, cache.get(userId)).map(both -> both.<JsonObject>resultAt(1)).compose(account -> {
      if (account == null) {
        return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
      }
      if (actor == userId) {
        return relationships.counts(userId).map(counts -> Profiles.ownView(account).mergeIn(counts));
      }
      // one question to relations for both the block and the friendship, beside the counts
      return Future.all(relationships.between(actor, userId), relationships.counts(userId)).compose(r -> {
        JsonObject between = r.resultAt(0);
        if (between.getBoolean("blocked", false)) {
          // across a block either way the account answers exactly as a missing one does (as by username, search and
          // lookups): any partial view would be one no ordinary account shows, and so would tell of the block
          return Failures.<JsonObject>fail(AccountsErrors.USER_NOT_FOUND, "no such user");
        }
        return Future.succeededFuture(
            Profiles.publicView(account, between.getBoolean("friend", false)).mergeIn(r.<JsonObject>resultAt(1)));
      });
    });
  }

  @Override
  public Future<JsonObject> updateProfile(long actor, JsonObject changes) {
    return store.byId(actor).compose(current -> Failures.guard(() -> {
      if (current == null) {
        return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
      }
      JsonObject change = Profiles.validateChanges(changes);
      String modeBefore = Profiles.settingsOf(current).getString("presence");
      boolean modeSet = change.getJsonObject("set").containsKey("settings.presence");
      Future<Void> admitted = perMinute("profile-update", actor, settings.profileUpdatesPerMinute(),
          "too many profile updates");
      return admitted.compose(v -> store.update(actor, change.getJsonObject("set"), change.getJsonArray("unset")))
          .compose(updated -> {
        if (updated == null) {
          return Failures.<JsonObject>fail(AccountsErrors.USER_NOT_FOUND, "no such user");
        }
        JsonObject now = Profiles.settingsOf(updated);
        List<Future<?>> after = new ArrayList<>();
        after.add(cache.put(updated));
        if (!now.getBoolean("nearby_visible") || "invisible".equals(now.getString("presence"))) {
          after.add(nearby.remove(actor));
        }
        emit(AccountsEvents.PROFILE_UPDATED,
            new JsonObject().put("user_id", actor).put("fields", change.getJsonArray("fields")));
        if (modeSet && !now.getString("presence").equals(modeBefore)) {
          after.add(presenceChanged(actor, now.getString("presence")));
        }
        return Future.join(after).transform(x -> Future.succeededFuture(Profiles.ownView(updated)));
      });
    }));
  }

  // ---------------------------------------------------------------- finding people

  @Override
  public Future<JsonObject> findByUsername(long actor, String username) {
    if (username == null || username.isBlank() || username.length() > 30) {
      return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
    }
    return perMinute("profile", actor, settings.profileReadsPerMinute(), "too many profile reads")
        .compose(v -> store.byAny("username_lc", List.of(username.trim().toLowerCase(Locale.ROOT)))).compose(found -> {
      if (found.isEmpty()) {
        return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
      }
      JsonObject account = found.get(0);
      long id = account.getLong("_id");
      if (id == actor) {
        return Future.succeededFuture(Profiles.ownView(account));
      }
      return relationships.blockedEitherWay(actor, List.of(id)).compose(blocked -> blocked.isEmpty()
          ? relationships.friendsAmong(actor, List.of(id)).map(f -> Profiles.publicView(account, f.contains(id)))
          : Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user"));
    });
  }

  @Override
  public Future<JsonObject> findByContacts(long actor, JsonObject request) {
    return Failures.guard(() -> {
      JsonObject req = request == null ? new JsonObject() : request;
      JsonArray emails = arrayField(req, "emails");
      JsonArray phones = arrayField(req, "phones");
      if (emails.size() + phones.size() > MAX_CONTACTS) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, emails.size() > phones.size() ? "emails" : "phones",
            "at most " + MAX_CONTACTS + " emails and phones in all per call");
      }
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
      long entries = emails.size() + phones.size();
      Future<Long> budget = entries == 0 ? Future.succeededFuture(0L) : quotas.take("rl:accounts:contacts:" + actor,
          HOUR, settings.contactsLookupEntriesPerHour(), entries);
      return budget.compose(retryAfter -> retryAfter > 0
              ? Future.failedFuture(rateLimited("too many address-book entries looked up this hour (at most "
                  + settings.contactsLookupEntriesPerHour() + "); retry later or send fewer", retryAfter))
              : Future.all(store.byAny("email_lc", emailKeys.keySet()), store.byAny("phone", phoneKeys.keySet())))
          .compose(found -> {
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
                      items.add(new JsonObject().put("email", emailKeys.get(a.getString("email_lc")))
                          .put("user", Profiles.summary(a)));
                    }
                  }
                  for (JsonObject a : byPhone) {
                    long id = a.getLong("_id");
                    if (!blocked.contains(id) && (id == actor || Profiles.allows(
                        Profiles.settingsOf(a).getString("find_by_phone"), friends.contains(id)))) {
                      items.add(new JsonObject().put("phone", phoneKeys.get(a.getString("phone")))
                          .put("user", Profiles.summary(a)));
                    }
                  }
                  return new JsonObject().put("items", items);
                });
          });
    });
  }

  @Override
  public Future<JsonObject> searchByNickname(long actor, String prefix, int limit, String after) {
    return Failures.guard(() -> {
      String p = prefix == null ? "" : prefix.strip().toLowerCase(Locale.ROOT);
      if (p.isEmpty() || p.length() > 40) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "prefix", "prefix must be 1 to 40 characters");
      }
      int n = Math.max(1, Math.min(50, limit));
      String afterNick = null;
      Long afterId = null;
      if (after != null && !after.isEmpty()) {
        try {
          JsonArray cursor = new JsonArray(new String(Base64.getUrlDecoder().decode(after), StandardCharsets.UTF_8));
          afterNick = cursor.getString(0);
          afterId = cursor.getLong(1);
          if (afterNick == null || afterId == null) {
            throw new IllegalArgumentException();
          }
        } catch (RuntimeException e) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "after", "after must be a cursor from a previous page");
        }
      }
      NicknameAt from = afterNick == null ? null : new NicknameAt(afterNick, afterId);
      // the page is filled past users in a block with the searcher and its cursor is the last user shown: the cursor
      // decodes to a nickname and an id, so one at a left-out user would name them
      VisiblePages.Rows<JsonObject, NicknameAt> rows = (at, count) ->
          store.nicknamePrefix(p, at == null ? null : at.nickname(), at == null ? null : at.id(), count);
      return perMinute("nickname", actor, settings.nicknameSearchesPerMinute(), "too many nickname searches")
          .compose(v -> VisiblePages.read(rows, batch -> shownAccounts(actor, batch), NicknameAt::of, NicknameAt::of,
              from, n, MAX_SEARCH_SCAN))
          .map(page -> {
            JsonArray items = new JsonArray();
            page.items().forEach(a -> items.add(Profiles.summary(a)));
            String next = page.next() == null ? null : Base64.getUrlEncoder().withoutPadding().encodeToString(
                new JsonArray().add(page.next().nickname()).add(page.next().id()).encode()
                    .getBytes(StandardCharsets.UTF_8));
            return new JsonObject().put("items", items).put("next", next);
          });
    });
  }

  /** Most accounts one page of a nickname search reads past users in a block with the searcher. */
  static final int MAX_SEARCH_SCAN = 1_000;

  /** A place in the nickname order: the lower-cased nickname, then the id. */
  private record NicknameAt(String nickname, long id) {
    static NicknameAt of(JsonObject account) {
      return new NicknameAt(account.getString("nickname_lc"), account.getLong("_id"));
    }
  }

  /** The accounts of a batch that are in no block with the viewer, in the batch's order. */
  private Future<List<JsonObject>> shownAccounts(long viewer, List<JsonObject> batch) {
    List<Long> ids = batch.stream().map(a -> a.getLong("_id")).toList();
    return relationships.blockedEitherWay(viewer, ids)
        .map(blocked -> batch.stream().filter(a -> !blocked.contains(a.getLong("_id"))).toList());
  }

  @Override
  public Future<JsonObject> summaries(long viewer, List<Long> userIds) {
    if (userIds == null || userIds.size() > MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + MAX_IDS + " ids");
    }
    return cache.getAll(userIds).map(found -> {
      JsonObject out = new JsonObject();
      found.forEach((id, account) -> out.put(Long.toString(id), Profiles.summary(account)));
      return out;
    });
  }

  @Override
  public Future<JsonObject> followSettings(List<Long> userIds) {
    if (userIds == null || userIds.size() > MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + MAX_IDS + " ids");
    }
    return cache.getAll(userIds).map(found -> {
      JsonObject out = new JsonObject();
      found.forEach((id, account) -> out.put(Long.toString(id),
          new JsonObject().put("follow_approval", Profiles.settingsOf(account).getBoolean("follow_approval"))));
      return out;
    });
  }

  // ---------------------------------------------------------------- presence

  @Override
  public Future<JsonObject> setPresenceMode(long actor, String mode) {
    if (mode == null || !Profiles.PRESENCE_MODES.contains(mode)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "mode", "mode must be one of friends, invisible, online");
    }
    return updateProfile(actor, new JsonObject().put("settings", new JsonObject().put("presence", mode)))
        .compose(own -> presence.online(List.of(actor)).map(online -> new JsonObject()
            .put("mode", mode).put("online", online.get(actor))));
  }

  @Override
  public Future<JsonObject> presence(long viewer, List<Long> userIds) {
    if (userIds == null || userIds.size() > MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + MAX_IDS + " ids");
    }
    List<Long> ids = List.copyOf(new java.util.LinkedHashSet<>(userIds));
    return perMinute("presence", viewer, settings.presenceQueriesPerMinute(), "too many presence queries")
        .compose(v -> Future.all(cache.getAll(ids), presence.online(ids), relationships.friendsAmong(viewer, ids),
        relationships.blockedEitherWay(viewer, ids))).map(all -> {
          Map<Long, JsonObject> accounts = all.resultAt(0);
          Map<Long, Boolean> online = all.resultAt(1);
          Set<Long> friends = all.resultAt(2);
          Set<Long> blocked = all.resultAt(3);
          JsonObject out = new JsonObject();
          for (Long id : ids) {
            JsonObject account = accounts.get(id);
            if (account == null) {
              continue;
            }
            String mode = Profiles.settingsOf(account).getString("presence");
            boolean visible = id == viewer
                || (!blocked.contains(id) && Profiles.allows(Profiles.presenceAudience(mode), friends.contains(id)));
            JsonObject state = new JsonObject().put("online", visible && Boolean.TRUE.equals(online.get(id)));
            state.put("last_active", visible ? account.getLong("last_active") : null);
            out.put(Long.toString(id), state);
          }
          return out;
        });
  }

  @Override
  public Future<JsonObject> onlineAmong(List<Long> userIds) {
    if (userIds == null || userIds.size() > MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + MAX_IDS + " ids");
    }
    List<Long> ids = userIds.stream().filter(java.util.Objects::nonNull).distinct().toList();
    return presence.online(ids).map(online -> {
      JsonObject out = new JsonObject();
      ids.forEach(id -> out.put(Long.toString(id), Boolean.TRUE.equals(online.get(id))));
      return out;
    });
  }

  @Override
  public Future<Void> connectionChanged(long userId, String connectionId, boolean open) {
    if (connectionId == null || connectionId.isEmpty() || connectionId.length() > 100) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "connection_id", "connection id must be 1 to 100 characters");
    }
    Future<Boolean> changed = open ? presence.connect(userId, connectionId) : presence.disconnect(userId, connectionId);
    return changed.compose(transition -> transition ? transitioned(userId) : Future.succeededFuture());
  }

  /** After a user came online or went offline: last_active, the cache, the push and the event. */
  private Future<Void> transitioned(long userId) {
    return touched(userId).compose(account -> account == null ? Future.succeededFuture()
        : presenceChanged(userId, Profiles.settingsOf(account).getString("presence")));
  }

  @Override
  public Future<Void> connectionsAlive(JsonObject connections) {
    if (connections == null) {
      return Future.succeededFuture();
    }
    // users whose connections Redis had lost come back online: they get the same push and event as on connect
    return presence.alive(connections).compose(cameOnline -> cameOnline(cameOnline, 0, null));
  }

  /**
   * The offline-to-online work of a heartbeat ({@link #transitioned} for each user) for {@code users} from
   * {@code from} on, {@value #TRANSITION_BATCH} users at a time and one batch after the other: after Redis lost its
   * presence keys every user of a heartbeat comes back online at once. Every batch is tried; the first failure is
   * reported at the end.
   */
  private Future<Void> cameOnline(List<Long> users, int from, Throwable failed) {
    if (from >= users.size()) {
      return failed == null ? Future.succeededFuture() : Future.failedFuture(failed);
    }
    List<Long> batch = users.subList(from, Math.min(users.size(), from + TRANSITION_BATCH));
    return transitioned(batch).transform(ar -> cameOnline(users, from + TRANSITION_BATCH,
        failed != null ? failed : ar.cause()));
  }

  /**
   * {@link #transitioned(long)} for many users in a few round trips: their last_active moves to now, the written
   * accounts go to the cache, and each gets the push and {@code PresenceChanged} of a connect.
   */
  private Future<Void> transitioned(List<Long> users) {
    return store.touchLastActive(users, System.currentTimeMillis())
        .compose(accounts -> cache.putAll(accounts).map(accounts))
        .compose(accounts -> {
          List<Long> known = accounts.stream().map(account -> account.getLong("_id")).toList();
          return presence.online(known).compose(online -> {
            List<JsonObject> changes = new ArrayList<>(accounts.size());
            for (JsonObject account : accounts) {
              long userId = account.getLong("_id");
              String mode = Profiles.settingsOf(account).getString("presence");
              boolean isOnline = Boolean.TRUE.equals(online.get(userId));
              platform.vertx().eventBus().publish(Addresses.user(userId), new JsonObject()
                  .put("type", "presence").put("user_id", userId).put("online", isOnline).put("mode", mode));
              changes.add(new JsonObject().put("user_id", userId).put("online", isOnline).put("mode", mode));
            }
            return platform.events().appendAll(AccountsEvents.DOMAIN, AccountsEvents.PRESENCE_CHANGED, changes)
                .onFailure(e -> LOG.error("Could not append {} {} events to the event log: {}", changes.size(),
                    AccountsEvents.PRESENCE_CHANGED, e.toString()))
                .<Void>mapEmpty().otherwiseEmpty();
          });
        });
  }

  /** Tells the user's own connections and the event log that presence changed. */
  private Future<Void> presenceChanged(long userId, String mode) {
    return presence.online(List.of(userId)).map(online -> {
      boolean isOnline = online.get(userId);
      platform.vertx().eventBus().publish(Addresses.user(userId), new JsonObject()
          .put("type", "presence").put("user_id", userId).put("online", isOnline).put("mode", mode));
      emit(AccountsEvents.PRESENCE_CHANGED,
          new JsonObject().put("user_id", userId).put("online", isOnline).put("mode", mode));
      return null;
    });
  }

  // ---------------------------------------------------------------- nearby

  @Override
  public Future<Void> reportPosition(long actor, double latitude, double longitude) {
    return Failures.guard(() -> {
      checkPosition(latitude, longitude);
      return cache.get(actor).compose(account -> {
        if (account == null) {
          return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
        }
        JsonObject s = Profiles.settingsOf(account);
        if (!s.getBoolean("nearby_visible")) {
          return Failures.fail(AccountsErrors.NEARBY_DISABLED,
              "turn on settings.nearby_visible to appear in and search nearby people");
        }
        return limiter.hit("rl:accounts:position:" + actor, settings.positionIntervalSeconds() * 1000L)
            .compose(window -> {
              if (window.count() > 1) {
                return Future.failedFuture(Failures.withExtra(AccountsErrors.POSITION_THROTTLED,
                    "position reported too often", new JsonObject().put("retry_after", window.retryAfterSeconds())));
              }
              return nearby.report(actor, latitude, longitude);
            });
      });
    });
  }

  @Override
  public Future<JsonObject> nearby(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      double lat = number(q, "lat");
      double lon = number(q, "lon");
      checkPosition(lat, lon);
      double radius = q.getValue("radius_km") == null ? 5.0 : number(q, "radius_km");
      if (!(radius > 0) || radius > settings.nearbyMaxRadiusKm()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "radius_km",
            "radius_km must be more than 0 and at most " + settings.nearbyMaxRadiusKm());
      }
      int limit = q.getValue("limit") == null ? 20 : (int) number(q, "limit");
      if (limit < 1 || limit > 100) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "limit", "limit must be between 1 and 100");
      }
      int offset = q.getValue("offset") == null ? 0 : (int) number(q, "offset");
      if (offset < 0 || offset > MAX_NEARBY_OFFSET) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "offset",
            "offset must be between 0 and " + MAX_NEARBY_OFFSET);
      }
      Set<String> wanted = new HashSet<>();
      JsonArray interests = arrayField(q, "interests");
      if (interests.size() > Profiles.MAX_INTERESTS) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "interests",
            "at most " + Profiles.MAX_INTERESTS + " interests");
      }
      interests.forEach(i -> wanted.add(String.valueOf(i).trim().toLowerCase(Locale.ROOT)));
      return cache.get(actor).compose(me -> {
        if (me == null) {
          return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
        }
        if (!Profiles.settingsOf(me).getBoolean("nearby_visible")) {
          return Failures.fail(AccountsErrors.NEARBY_DISABLED,
              "turn on settings.nearby_visible to appear in and search nearby people");
        }
        Set<String> mine = Profiles.interestSet(me);
        int candidates = Math.min(2000, offset + limit + 200);
        return perMinute("nearby", actor, settings.nearbySearchesPerMinute(), "too many nearby searches")
            .compose(v -> nearby.positionOf(actor))
            .compose(own -> {
              // searching from anywhere would let anyone locate others by searching from several places
              if (own == null) {
                return Failures.failField(KithErrors.VALIDATION_FAILED, "lat",
                    "report your position first: searches start from your own reported position");
              }
              if (NearbyStore.distanceMeters(own[0], own[1], lat, lon) > MAX_SEARCH_ORIGIN_KM * 1000) {
                return Failures.failField(KithErrors.VALIDATION_FAILED, "lat", "search near your reported position: "
                    + "lat and lon must be within " + (int) MAX_SEARCH_ORIGIN_KM + " km of it");
              }
              return nearby.search(lat, lon, radius, candidates);
            }).compose(hits -> {
          List<Long> ids = hits.stream().map(NearbyStore.Hit::userId).filter(id -> id != actor).toList();
          return Future.all(cache.getAll(ids), relationships.blockedEitherWay(actor, ids)).map(all -> {
            Map<Long, JsonObject> accounts = all.resultAt(0);
            Set<Long> blocked = all.resultAt(1);
            List<JsonObject> visible = new ArrayList<>();
            for (NearbyStore.Hit hit : hits) {
              JsonObject other = accounts.get(hit.userId());
              if (hit.userId() == actor || other == null || blocked.contains(hit.userId())) {
                continue;
              }
              JsonObject s = Profiles.settingsOf(other);
              if (!s.getBoolean("nearby_visible") || "invisible".equals(s.getString("presence"))) {
                continue;
              }
              Set<String> theirs = Profiles.interestSet(other);
              if (!wanted.isEmpty() && theirs.stream().noneMatch(wanted::contains)) {
                continue;
              }
              long shared = theirs.stream().filter(mine::contains).count();
              long distance = Math.max(100, Math.round(hit.distanceMeters() / 100.0) * 100);
              visible.add(new JsonObject().put("user", Profiles.summary(other)).put("distance_m", distance)
                  .put("shared_interests", shared));
            }
            JsonArray items = new JsonArray();
            for (int i = offset; i < Math.min(visible.size(), offset + limit); i++) {
              items.add(visible.get(i));
            }
            Integer next = visible.size() > offset + limit && offset + limit <= MAX_NEARBY_OFFSET ? offset + limit : null;
            return new JsonObject().put("items", items).put("next_offset", next);
          });
        });
      });
    });
  }

  // ---------------------------------------------------------------- helpers

  /** Counts one call of {@code what} by the user, refusing with 429 rate_limited past {@code max} a minute. */
  private Future<Void> perMinute(String name, long user, int max, String what) {
    return limiter.enforce("rl:accounts:" + name + ":" + user, MINUTE, max,
        what + " (at most " + max + " a minute); retry later");
  }

  private static ServiceException rateLimited(String detail, long retryAfterSeconds) {
    return RateLimiter.refusal(detail, retryAfterSeconds);
  }

  private void emit(String type, JsonObject payload) {
    platform.events().append(AccountsEvents.DOMAIN, type, payload)
        .onFailure(e -> LOG.error("Could not append {} {} to the event log: {}", type, payload, e.toString()));
  }

  private static String address(String clientAddress) {
    return clientAddress == null || clientAddress.isBlank() ? "unknown" : clientAddress;
  }

  private static String stringField(JsonObject req, String field) {
    Object v = req.getValue(field);
    if (!(v instanceof String)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " is required and must be a string");
    }
    return (String) v;
  }

  private static String optionalText(JsonObject req, String field, int max) {
    Object v = req.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String) || ((String) v).length() > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a string of at most " + max);
    }
    return UserText.line(field, (String) v);
  }

  private static JsonArray arrayField(JsonObject req, String field) {
    Object v = req.getValue(field);
    if (v == null) {
      return new JsonArray();
    }
    if (!(v instanceof JsonArray)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be an array");
    }
    return (JsonArray) v;
  }

  private static double number(JsonObject q, String field) {
    Object v = q.getValue(field);
    if (!(v instanceof Number)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " is required and must be a number");
    }
    return ((Number) v).doubleValue();
  }

  private static void checkPosition(double lat, double lon) {
    if (!Double.isFinite(lat) || lat < -85.05112878 || lat > 85.05112878) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "lat", "lat must be between -85.05 and 85.05");
    }
    if (!Double.isFinite(lon) || lon < -180 || lon > 180) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "lon", "lon must be between -180 and 180");
    }
  }
}
