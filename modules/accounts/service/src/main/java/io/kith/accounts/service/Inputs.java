package io.kith.accounts.service;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.UserText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** How the accounts features read fields of a request: each refusal is a validation_failed naming its field. */
final class Inputs {

  private Inputs() {
  }

  static String address(String clientAddress) {
    return clientAddress == null || clientAddress.isBlank() ? "unknown" : clientAddress;
  }

  static String stringField(JsonObject req, String field) {
    Object v = req.getValue(field);
    if (!(v instanceof String)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " is required and must be a string");
    }
    return (String) v;
  }

  static String optionalText(JsonObject req, String field, int max) {
    Object v = req.getValue(field);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String) || ((String) v).length() > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a string of at most " + max);
    }
    return UserText.line(field, (String) v);
  }

  static JsonArray arrayField(JsonObject req, String field) {
    Object v = req.getValue(field);
    if (v == null) {
      return new JsonArray();
    }
    if (!(v instanceof JsonArray)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be an array");
    }
    return (JsonArray) v;
  }

  static double number(JsonObject q, String field) {
    Object v = q.getValue(field);
    if (!(v instanceof Number)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " is required and must be a number");
    }
    return ((Number) v).doubleValue();
  }

  static void checkPosition(double lat, double lon) {
    if (!Double.isFinite(lat) || lat < -85.05112878 || lat > 85.05112878) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "lat", "lat must be between -85.05 and 85.05");
    }
    if (!Double.isFinite(lon) || lon < -180 || lon > 180) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "lon", "lon must be between -180 and 180");
    }
  }
}
