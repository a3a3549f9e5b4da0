package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.platform.Platform;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The accounts service: every rule of the domain, decided from the acting user's id. This class only delegates,
 * each method to the file of its feature (the module README lists them).
 */
final class AccountsServiceImpl implements AccountsService {

  /** Most ids one call of summaries, follow settings or presence takes. */
  static final int MAX_IDS = 1000;

  private final Registration registration;
  private final Login login;
  private final ProfilePhotos photos;
  private final ProfileAccess profiles;
  private final PeopleSearch people;
  private final Presence presence;
  private final Nearby nearby;
  private final Verification verification;
  private final PasswordReset reset;
  private final UsernameChange usernames;
  private final Deletion deletion;
  private final DeletionCode deletionCode;
  private final AccountExports exports;
  private final OwnExport ownExport;
  private final Suspension suspension;
  private final Limits limits;

  AccountsServiceImpl(Platform platform, AccountsSettings settings, AccountStore store, ProfileCache cache,
                      Passwords passwords, PresenceStore presence, NearbyStore nearby, Relationships relationships,
                      KnownDevices devices, CodeStore codes, Messenger messenger,
                      Deletion.Settings deletionSettings, AccountExports exports) {
    RateLimiter limiter = new RateLimiter(platform.redis());
    Quotas quotas = new Quotas(platform.redis());
    Throttles throttles = new Throttles(limiter);
    EventPublisher events = platform.events().publisher(AccountsEvents.DOMAIN);
    LastActive lastActive = new LastActive(store, cache);
    PresencePush push = new PresencePush(platform, presence, events, relationships);
    this.verification = new Verification(settings.verification(), store, codes, cache, limiter, messenger, events);
    this.reset = new PasswordReset(platform, settings, store, codes, passwords, limiter, messenger,
        devices);
    this.registration = new Registration(platform, settings, store, passwords, limiter, events, verification);
    this.deletion = new Deletion(platform, deletionSettings, cache, devices, codes, messenger);
    this.suspension = new Suspension(platform, cache, devices, codes, messenger);
    this.limits = new Limits(suspension, cache);
    this.login = new Login(platform, settings, store, passwords, limiter, quotas, lastActive, devices, messenger,
        deletion, suspension);
    this.usernames = new UsernameChange(settings, store, cache, login, events);
    this.photos = new ProfilePhotos(platform.vertx(), cache, relationships);
    this.profiles = new ProfileAccess(settings, store, cache, nearby, relationships, throttles, push, events, photos,
        verification);
    this.people = new PeopleSearch(settings, store, quotas, throttles, relationships);
    this.presence = new Presence(platform, settings, cache, presence, relationships, throttles, lastActive, push,
        profiles);
    this.nearby = new Nearby(settings, cache, nearby, limiter, throttles, relationships);
    this.deletionCode = new DeletionCode(settings.verification(), store, codes, limiter, messenger);
    this.exports = exports;
    this.ownExport = new OwnExport(profiles, store, platform.sessions(), devices);
  }

  /** Accounts' own part of exports, for the verticle to serve at {@code kith.export.accounts}. */
  OwnExport ownExport() {
    return ownExport;
  }

  /** Whether {@code viewer} may read the photo attached to {@code userId}'s profile (media access, see ProfilePhotos). */
  Future<Boolean> mayReadPhoto(long viewer, long userId) {
    return photos.mayRead(viewer, userId);
  }

  @Override
  public Future<JsonObject> register(JsonObject request, String clientAddress) {
    return registration.register(request, clientAddress);
  }

  @Override
  public Future<JsonObject> login(JsonObject request, String clientAddress) {
    return login.login(request, clientAddress);
  }

  @Override
  public Future<JsonObject> startVerification(long actor, String channel, String acceptLanguage) {
    return verification.start(actor, channel, acceptLanguage);
  }

  @Override
  public Future<JsonObject> confirmVerification(long actor, String channel, String code) {
    return verification.confirm(actor, channel, code);
  }

  @Override
  public Future<JsonObject> confirmVerificationLink(String token) {
    return verification.confirmLink(token);
  }

  @Override
  public Future<JsonObject> requestPasswordReset(String identifier, String clientAddress, String acceptLanguage) {
    return reset.request(identifier, clientAddress, acceptLanguage);
  }

  @Override
  public Future<Void> confirmPasswordReset(String identifier, String code, String newPassword) {
    return reset.confirm(identifier, code, newPassword);
  }

  @Override
  public Future<Void> changePassword(long actor, String currentPassword, String newPassword) {
    return login.changePassword(actor, currentPassword, newPassword);
  }

  @Override
  public Future<JsonObject> changeUsername(long actor, String username, String password) {
    return usernames.change(actor, username, password);
  }

  @Override
  public Future<Void> logoutEverywhere(long actor) {
    return login.logoutEverywhere(actor);
  }

  @Override
  public Future<JsonObject> requestDeletion(long actor, String password, String acceptLanguage) {
    return login.checkPassword(actor, password).compose(v -> deletion.schedule(actor, acceptLanguage));
  }

  @Override
  public Future<JsonObject> requestDeletionCode(long actor, String channel, String acceptLanguage) {
    return deletionCode.send(actor, channel, acceptLanguage);
  }

  @Override
  public Future<JsonObject> requestDeletionByCode(long actor, String code, String acceptLanguage) {
    return deletionCode.check(actor, code).compose(v -> deletion.schedule(actor, acceptLanguage));
  }

  @Override
  public Future<JsonObject> requestExport(long actor) {
    return exports.request(actor);
  }

  @Override
  public Future<JsonObject> export(long actor, long exportId) {
    return exports.status(actor, exportId);
  }

  @Override
  public Future<JsonObject> exports(long actor) {
    return exports.list(actor);
  }

  @Override
  public Future<JsonObject> exportFile(long actor, long exportId) {
    return exports.file(actor, exportId);
  }

  @Override
  public Future<JsonObject> cancelDeletion(String deletionToken, String device) {
    return deletion.cancel(deletionToken, device);
  }

  @Override
  public Future<JsonObject> profile(long actor, long userId) {
    return profiles.profile(actor, userId);
  }

  @Override
  public Future<JsonObject> updateProfile(long actor, JsonObject changes) {
    return profiles.updateProfile(actor, changes);
  }

  @Override
  public Future<JsonObject> findByUsername(long actor, String username) {
    return people.findByUsername(actor, username);
  }

  @Override
  public Future<JsonObject> findByContacts(long actor, JsonObject request) {
    return people.findByContacts(actor, request);
  }

  @Override
  public Future<Page> searchByNickname(long actor, String prefix, PageRequest page) {
    return people.searchByNickname(actor, prefix, page.limitOrDefault(), page.cursor())
        .map(body -> Page.of("items", body));
  }

  @Override
  public Future<JsonObject> users(long actor, List<Long> userIds) {
    return people.users(actor, userIds);
  }

  @Override
  public Future<JsonObject> summaries(long viewer, List<Long> userIds) {
    return profiles.summaries(viewer, userIds);
  }

  @Override
  public Future<JsonObject> setPresenceMode(long actor, String mode) {
    return presence.setPresenceMode(actor, mode);
  }

  @Override
  public Future<JsonObject> presence(long viewer, List<Long> userIds) {
    return presence.presence(viewer, userIds);
  }

  @Override
  public Future<Void> reportPosition(long actor, double latitude, double longitude) {
    return nearby.reportPosition(actor, latitude, longitude);
  }

  @Override
  public Future<JsonObject> nearby(long actor, JsonObject query) {
    return nearby.nearby(actor, query);
  }

  /** The internal operations ({@link AccountsInternal}) over the same features, for the verticle to bind. */
  AccountsInternal internal() {
    return new AccountsInternalImpl(profiles, presence, suspension, limits);
  }
}
