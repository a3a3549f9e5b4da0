package io.kith.push.service.targets;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.token.Sessions;
import io.vertx.core.json.JsonObject;
import org.bouncycastle.jce.ECNamedCurveTable;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Base64;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a registration ({@code {kind, token?, topic?, sandbox?, endpoint?, keys?}}) into the fields a target record
 * keeps, refusing what a provider would refuse later: an APNs token that is not hex of 64..200 characters, an FCM
 * token with blanks, a Web Push endpoint that is not https, a {@code p256dh} that is not a point of P-256 (a key the
 * RFC 8291 encryption could not use), an {@code auth} secret that is not 16 bytes. Members of another kind are
 * refused too, so a client learns at once that it sent the wrong shape.
 */
final class TargetInput {

  static final String APNS = "apns";
  static final String FCM = "fcm";
  static final String WEBPUSH = "webpush";

  private static final Pattern APNS_TOKEN = Pattern.compile("[0-9a-fA-F]{64,200}");
  // printable ASCII without blanks: FCM registration tokens are URL-safe base64 with ':' and '-' separators
  private static final Pattern FCM_TOKEN = Pattern.compile("[\\x21-\\x7E]{1,4096}");
  // a bundle id, with the suffix APNs adds for VoIP or complications
  private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,254}");
  private static final int MAX_ENDPOINT = 2048;
  private static final Set<String> MEMBERS = Set.of("kind", "token", "topic", "sandbox", "endpoint", "keys");

  private TargetInput() {
  }

  /**
   * The record fields of a valid registration: {@code kind, key} (the SHA-256 of kind and token or endpoint, unique
   * across users) and {@code token, topic, sandbox} (APNs), {@code token} (FCM) or {@code endpoint, p256dh, auth}
   * (Web Push).
   *
   * @throws io.vertx.serviceproxy.ServiceException {@code validation_failed} naming the field
   */
  static JsonObject read(JsonObject in) {
    if (in == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "kind", "kind is required: apns, fcm or webpush");
    }
    for (String member : in.fieldNames()) {
      if (!MEMBERS.contains(member)) {
        throw invalid(member, member + " is not a member of a push target");
      }
    }
    Object kind = in.getValue("kind");
    if (APNS.equals(kind)) {
      return apns(in);
    }
    if (FCM.equals(kind)) {
      only(in, "token");
      String token = text(in, "token");
      if (token == null || !FCM_TOKEN.matcher(token).matches()) {
        throw invalid("token", "token must be the FCM registration token: 1 to 4096 characters without blanks");
      }
      return keyed(new JsonObject().put("kind", FCM).put("token", token), token);
    }
    if (WEBPUSH.equals(kind)) {
      return webPush(in);
    }
    throw invalid("kind", "kind must be apns, fcm or webpush");
  }

  private static JsonObject apns(JsonObject in) {
    only(in, "token", "topic", "sandbox");
    String token = text(in, "token");
    if (token == null || !APNS_TOKEN.matcher(token).matches()) {
      throw invalid("token", "token must be the APNs device token in hex: 64 to 200 hex digits");
    }
    String normalised = token.toLowerCase(Locale.ROOT);
    JsonObject out = new JsonObject().put("kind", APNS).put("token", normalised);
    if (in.getValue("topic") != null) {
      String topic = text(in, "topic");
      if (topic == null || !TOPIC.matcher(topic).matches()) {
        throw invalid("topic", "topic must be the app's bundle id (letters, digits, '.', '_', '-'; up to 255)");
      }
      out.put("topic", topic);
    }
    Object sandbox = in.getValue("sandbox", false);
    if (!(sandbox instanceof Boolean)) {
      throw invalid("sandbox", "sandbox must be true or false");
    }
    return keyed(out.put("sandbox", sandbox), normalised);
  }

  private static JsonObject webPush(JsonObject in) {
    only(in, "endpoint", "keys");
    String endpoint = text(in, "endpoint");
    if (endpoint == null || endpoint.length() > MAX_ENDPOINT || !isHttps(endpoint)) {
      throw invalid("endpoint", "endpoint must be the subscription's https URL (up to 2048 characters)");
    }
    Object keys = in.getValue("keys");
    if (!(keys instanceof JsonObject)) {
      throw invalid("keys", "keys must hold the subscription's p256dh and auth");
    }
    JsonObject k = (JsonObject) keys;
    byte[] p256dh = base64url(k, "p256dh");
    if (p256dh == null || p256dh.length != 65 || p256dh[0] != 0x04 || !onCurve(p256dh)) {
      throw invalid("keys.p256dh", "keys.p256dh must be a P-256 public key (an uncompressed point, base64url)");
    }
    byte[] auth = base64url(k, "auth");
    if (auth == null || auth.length != 16) {
      throw invalid("keys.auth", "keys.auth must be the 16-byte authentication secret, base64url");
    }
    Base64.Encoder enc = Base64.getUrlEncoder().withoutPadding();
    return keyed(new JsonObject().put("kind", WEBPUSH).put("endpoint", endpoint)
        .put("p256dh", enc.encodeToString(p256dh)).put("auth", enc.encodeToString(auth)), endpoint);
  }

  private static JsonObject keyed(JsonObject fields, String address) {
    return fields.put("key", Sessions.sha256(fields.getString("kind") + ":" + address));
  }

  /** Refuses the members of a registration that its kind does not take. */
  private static void only(JsonObject in, String... allowed) {
    Set<String> mine = Set.of(allowed);
    for (String member : in.fieldNames()) {
      if (!member.equals("kind") && !mine.contains(member) && in.getValue(member) != null) {
        throw invalid(member, member + " is not a member of a " + in.getString("kind") + " target");
      }
    }
  }

  private static String text(JsonObject in, String member) {
    Object value = in.getValue(member);
    return value instanceof String ? (String) value : null;
  }

  private static boolean isHttps(String endpoint) {
    try {
      URI uri = new URI(endpoint);
      return "https".equalsIgnoreCase(uri.getScheme()) && uri.getHost() != null && uri.getRawUserInfo() == null;
    } catch (URISyntaxException e) {
      return false;
    }
  }

  private static byte[] base64url(JsonObject keys, String member) {
    String value = text(keys, member);
    if (value == null) {
      return null;
    }
    try {
      // subscriptions from browsers come unpadded; some libraries pad
      return Base64.getUrlDecoder().decode(value.replace("=", ""));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean onCurve(byte[] point) {
    try {
      ECNamedCurveTable.getParameterSpec("secp256r1").getCurve().decodePoint(point);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static io.vertx.serviceproxy.ServiceException invalid(String field, String detail) {
    return Failures.field(KithErrors.VALIDATION_FAILED, field, detail);
  }
}
