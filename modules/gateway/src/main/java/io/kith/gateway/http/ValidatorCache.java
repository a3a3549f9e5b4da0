package io.kith.gateway.http;

import io.vertx.core.file.FileSystem;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.SchemaRepository;
import io.vertx.json.schema.Validator;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.OpenAPIVersion;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.Path;
import io.vertx.openapi.contract.SecurityRequirement;
import io.vertx.openapi.contract.SecurityScheme;
import io.vertx.openapi.contract.Server;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The contract as the request validator sees it, with one schema validator per schema instead of one per request.
 * The OpenAPI request validator asks the contract's schema repository for a validator of each parameter and body on
 * every request, and the repository builds a new one each time, copying its whole lookup table of the contract's
 * schemas (the largest single cost of a GET with query parameters). A validator holds nothing per validation, so one
 * per schema is shared. The contract's schemas are fixed once parsed: the cache holds at most one entry per
 * parameter and body of the contract.
 */
final class ValidatorCache {

  private ValidatorCache() {
  }

  /** The contract with the validators of its schemas cached; everything else is the contract's. */
  static OpenAPIContract wrap(OpenAPIContract contract) {
    return new Contract(contract, new Repository(contract.getSchemaRepository()));
  }

  private record Contract(OpenAPIContract delegate, SchemaRepository repository) implements OpenAPIContract {

    @Override
    public Operation operation(String operationId) {
      return delegate.operation(operationId);
    }

    @Override
    public List<Operation> operations() {
      return delegate.operations();
    }

    @Override
    public List<Path> getPaths() {
      return delegate.getPaths();
    }

    @Override
    public JsonObject getRawContract() {
      return delegate.getRawContract();
    }

    @Override
    public OpenAPIVersion getVersion() {
      return delegate.getVersion();
    }

    @Override
    public SchemaRepository getSchemaRepository() {
      return repository;
    }

    @Override
    public List<Server> getServers() {
      return delegate.getServers();
    }

    @Override
    public Path findPath(String urlPath) {
      return delegate.findPath(urlPath);
    }

    @Override
    public Operation findOperation(String urlPath, HttpMethod method) {
      return delegate.findOperation(urlPath, method);
    }

    @Override
    public List<SecurityRequirement> getSecurityRequirements() {
      return delegate.getSecurityRequirements();
    }

    @Override
    public SecurityScheme securityScheme(String name) {
      return delegate.securityScheme(name);
    }
  }

  /** The repository with {@link #validator(JsonSchema)} cached by schema instance. */
  private static final class Repository implements SchemaRepository {

    private static final int MAX_ENTRIES = 10_000;

    private final SchemaRepository delegate;
    // by identity: the contract hands out the same schema instance for a parameter or body on every request, and
    // equal-looking schemas at different places of the contract may resolve references differently
    private final Map<JsonSchema, Validator> validators = new IdentityHashMap<>();

    Repository(SchemaRepository delegate) {
      this.delegate = delegate;
    }

    @Override
    public Validator validator(JsonSchema schema) {
      synchronized (validators) {
        Validator cached = validators.get(schema);
        if (cached != null) {
          return cached;
        }
      }
      Validator created = delegate.validator(schema);
      synchronized (validators) {
        // a bound in case a caller ever passes schemas built per request: then it just stops caching
        return validators.size() >= MAX_ENTRIES ? created : validators.computeIfAbsent(schema, s -> created);
      }
    }

    @Override
    public SchemaRepository dereference(JsonSchema schema) {
      delegate.dereference(schema);
      return this;
    }

    @Override
    public SchemaRepository dereference(String uri, JsonSchema schema) {
      delegate.dereference(uri, schema);
      return this;
    }

    @Override
    public SchemaRepository preloadMetaSchema(FileSystem fs) {
      delegate.preloadMetaSchema(fs);
      return this;
    }

    @Override
    public SchemaRepository preloadMetaSchema(FileSystem fs, Draft draft) {
      delegate.preloadMetaSchema(fs, draft);
      return this;
    }

    @Override
    public Validator validator(String ref) {
      return delegate.validator(ref);
    }

    @Override
    public Validator validator(String ref, JsonSchemaOptions options) {
      return delegate.validator(ref, options);
    }

    @Override
    public Validator validator(JsonSchema schema, JsonSchemaOptions options, boolean dereference) {
      return delegate.validator(schema, options, dereference);
    }

    @Override
    public JsonObject resolve(JsonObject schema) {
      return delegate.resolve(schema);
    }

    @Override
    public JsonSchema find(String uri) {
      return delegate.find(uri);
    }
  }
}
